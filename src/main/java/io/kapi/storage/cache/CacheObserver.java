package io.kapi.storage.cache;

/**
 * Told what the watch caches do (the watch cache metrics): a cache of {@code prefix} (re)initialised by a
 * list at a revision, an event applied and dispatched, a read that waited for the cache to catch up, a
 * watcher cut off.
 * Called on the cache's threads: implementations must be quick and must not block.
 */
public interface CacheObserver {

    CacheObserver NONE = new CacheObserver() {
    };

    default void initialized(String prefix, long revision) {
    }

    default void applied(String prefix, long revision) {
    }

    default void readWaited(String prefix, long startNanos) {
    }

    /** A watcher of the cache of {@code prefix} ended because its queue was full: it did not keep up. */
    default void watcherCutOff(String prefix) {
    }
}
