package io.kapi.storage;

/** A change under a watched prefix, delivered in revision order. */
public sealed interface WatchEvent {

    /** The revision of the write that produced this event. */
    long revision();

    /** The key was created ({@code previous == null}) or updated. */
    record Put(KeyValue current, KeyValue previous) implements WatchEvent {
        @Override
        public long revision() {
            return current.modRevision();
        }
    }

    /** The key was deleted at {@code revision}; {@code previous} is its last value. */
    record Delete(KeyValue previous, long revision) implements WatchEvent {
    }

    /**
     * A progress notification (etcd's {@code progress notify}): every write under the watched prefix
     * with a revision up to {@code revision} has already been delivered to this watch, so its
     * listener knows it is current at {@code revision} even when nothing under the prefix changed.
     * Sent in answer to {@link Watch#requestProgress()}; never before the events it vouches for.
     */
    record Progress(long revision) implements WatchEvent {
    }

    /**
     * The watch can no longer be served; no further events follow. The client must re-list (or
     * re-watch from {@code revision}, which may in turn fail with {@code Compacted}).
     *
     * @param cause {@link StorageException.Compacted} if history the watch needed was compacted
     *        away, {@link StorageException.Unavailable} if the watcher fell behind or the store closed
     * @param revision the revision of the last event delivered to this watch before the error (its
     *        start revision if none)
     */
    record Error(StorageException cause, long revision) implements WatchEvent {
    }
}
