package io.kapi.storage.core;

import io.kapi.storage.KeyValue;
import io.kapi.storage.StorageException;
import io.kapi.storage.WatchEvent;

/**
 * One write request, checked against the key's current value and turned into the event it
 * produces. Written once so that every backend checks preconditions the same way; a backend only
 * has to call {@link #apply} serially (so that the check and the write are one atomic step).
 */
public sealed interface Mutation {

    String key();

    /**
     * Checks the precondition against {@code current} and returns the event this write produces at
     * {@code revision}.
     *
     * @param current the key's current value, or null when absent
     * @throws StorageException if the precondition fails; nothing is to be written then
     */
    WatchEvent apply(KeyValue current, long revision);

    /** What the {@link io.kapi.storage.Storage} write method returns for the event {@link #apply} made. */
    static KeyValue result(WatchEvent event) {
        return switch (event) {
            case WatchEvent.Put put -> put.current();
            case WatchEvent.Delete delete -> delete.previous();
            case WatchEvent.Error error -> throw new IllegalArgumentException("not a write: " + error);
            case WatchEvent.Progress progress -> throw new IllegalArgumentException("not a write: " + progress);
        };
    }

    record Create(String key, byte[] value) implements Mutation {
        @Override
        public WatchEvent apply(KeyValue current, long revision) {
            if (current != null) {
                throw new StorageException.KeyExists(key);
            }
            return new WatchEvent.Put(new KeyValue(key, value, revision, revision), null);
        }
    }

    record Update(String key, byte[] value, long expectedModRevision) implements Mutation {
        @Override
        public WatchEvent apply(KeyValue current, long revision) {
            if (current == null) {
                throw new StorageException.KeyNotFound(key);
            }
            if (current.modRevision() != expectedModRevision) {
                throw new StorageException.Conflict(key, current);
            }
            return new WatchEvent.Put(new KeyValue(key, value, current.createRevision(), revision), current);
        }
    }

    record Delete(String key, long expectedModRevision) implements Mutation {
        @Override
        public WatchEvent apply(KeyValue current, long revision) {
            if (current == null) {
                throw new StorageException.KeyNotFound(key);
            }
            if (expectedModRevision != 0 && current.modRevision() != expectedModRevision) {
                throw new StorageException.Conflict(key, current);
            }
            return new WatchEvent.Delete(current, revision);
        }
    }
}
