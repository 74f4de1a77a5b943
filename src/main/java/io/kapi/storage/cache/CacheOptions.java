package io.kapi.storage.cache;

import java.time.Duration;

/**
 * Tuning of the watch cache; immutable, start from {@link #DEFAULT}.
 *
 * @param eventWindow how many recent events each resource keeps for watches resuming from a past
 *        resourceVersion; a watch from before the window gets 410 Expired
 * @param windowBytes the most bytes (of stored values) a resource's event window holds, whatever
 *        {@code eventWindow} says: big objects shorten the window instead of growing memory
 * @param watcherBuffer how many events one watcher may have pending before it is cut off (its
 *        stream ends and its client re-watches from its last resourceVersion)
 * @param freshnessWait how long a read waits for the cache to reach a requested resourceVersion
 *        before answering 504 ResourceVersionTooLarge (kube-apiserver: 3 s)
 */
public record CacheOptions(int eventWindow, long windowBytes, int watcherBuffer, Duration freshnessWait) {

    public static final CacheOptions DEFAULT = new CacheOptions(10_000, 64L << 20, 4096, Duration.ofSeconds(3));

    public CacheOptions {
        if (eventWindow < 1 || watcherBuffer < 1 || windowBytes < 1) {
            throw new IllegalArgumentException("eventWindow, windowBytes and watcherBuffer must be positive");
        }
    }

    public CacheOptions withEventWindow(int events) {
        return new CacheOptions(events, windowBytes, watcherBuffer, freshnessWait);
    }

    public CacheOptions withWatcherBuffer(int events) {
        return new CacheOptions(eventWindow, windowBytes, events, freshnessWait);
    }

    public CacheOptions withFreshnessWait(Duration wait) {
        return new CacheOptions(eventWindow, windowBytes, watcherBuffer, wait);
    }
}
