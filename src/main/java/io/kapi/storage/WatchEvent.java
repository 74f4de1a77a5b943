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
     * The watch can no longer be served (the watcher fell behind its budget, or the start revision
     * was compacted); no further events follow. The client must re-list.
     */
    record Error(StorageException cause, long revision) implements WatchEvent {
    }
}
