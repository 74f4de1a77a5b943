package io.kapi.storage;

/**
 * Why a storage operation failed. The registry translates these into API errors in one place; the
 * storage layer knows nothing of HTTP or Status.
 */
public sealed class StorageException extends RuntimeException
        permits StorageException.KeyExists, StorageException.KeyNotFound, StorageException.Conflict,
        StorageException.Compacted, StorageException.Unavailable, StorageException.ResourceVersionTooLarge {

    StorageException(String message, Throwable cause) {
        super(message, cause, false, false);
    }

    public static final class KeyExists extends StorageException {
        public KeyExists(String key) {
            super("key exists: " + key, null);
        }
    }

    public static final class KeyNotFound extends StorageException {
        public KeyNotFound(String key) {
            super("key not found: " + key, null);
        }
    }

    /** A compare-and-swap saw another modRevision than expected; {@code current} is the stored one. */
    public static final class Conflict extends StorageException {
        private final transient KeyValue current;

        public Conflict(String key, KeyValue current) {
            super("modRevision mismatch on " + key, null);
            this.current = current;
        }

        public KeyValue current() {
            return current;
        }
    }

    /** The requested revision is older than the oldest the store still keeps. */
    public static final class Compacted extends StorageException {
        private final long requested;
        private final long compactedRevision;

        public Compacted(long requested, long compactedRevision) {
            super("required revision " + requested + " has been compacted (oldest kept "
                    + compactedRevision + ")", null);
            this.requested = requested;
            this.compactedRevision = compactedRevision;
        }

        /** The revision that was asked for. */
        public long requested() {
            return requested;
        }

        public long compactedRevision() {
            return compactedRevision;
        }
    }

    /** The backend cannot serve the request now (closed, I/O failure); the write did not happen. */
    public static final class Unavailable extends StorageException {
        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * A read asked for a revision the store (or its cache) did not reach in time: kube-apiserver's
     * {@code ResourceVersionTooLarge}.
     */
    public static final class ResourceVersionTooLarge extends StorageException {
        private final long requested;
        private final long current;

        public ResourceVersionTooLarge(long requested, long current) {
            super("too large resource version " + requested + ", current " + current, null);
            this.requested = requested;
            this.current = current;
        }

        public long requested() {
            return requested;
        }

        public long current() {
            return current;
        }
    }
}
