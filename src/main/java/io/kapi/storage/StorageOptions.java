package io.kapi.storage;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of a storage backend; immutable. Start from {@link #DEFAULT} and change single values
 * with the {@code with…} methods.
 *
 * <p>History: the store keeps every revision for at least {@code historyRetention} (so a watch or
 * a paged list may resume from a revision of that age), like kube-apiserver, which compacts etcd
 * every 5 minutes. To bound memory and disk under a write storm, it never keeps more than
 * {@code maxHistoryRevisions} revisions, whatever their age.
 *
 * @param watchQueueCapacity events one watcher may have pending before it is cut off with
 *        {@link WatchEvent.Error}
 * @param historyRetention how long revisions stay readable before automatic compaction
 * @param maxHistoryRevisions the most revisions kept, whatever their age
 * @param compactionCheckInterval how often automatic compaction runs; {@link Duration#ZERO}
 *        disables it (tests compact by hand)
 */
public record StorageOptions(int watchQueueCapacity, Duration historyRetention,
        long maxHistoryRevisions, Duration compactionCheckInterval) {

    /** 4096 pending events per watcher, 5 minutes (at most 100 000 revisions) of history, checked every 30 s. */
    public static final StorageOptions DEFAULT =
            new StorageOptions(4096, Duration.ofMinutes(5), 100_000, Duration.ofSeconds(30));

    public StorageOptions {
        if (watchQueueCapacity < 1) {
            throw new IllegalArgumentException("watchQueueCapacity must be positive");
        }
        if (maxHistoryRevisions < 1) {
            throw new IllegalArgumentException("maxHistoryRevisions must be positive");
        }
        Objects.requireNonNull(historyRetention, "historyRetention");
        Objects.requireNonNull(compactionCheckInterval, "compactionCheckInterval");
    }

    public StorageOptions withWatchQueueCapacity(int capacity) {
        return new StorageOptions(capacity, historyRetention, maxHistoryRevisions, compactionCheckInterval);
    }

    public StorageOptions withHistoryRetention(Duration retention) {
        return new StorageOptions(watchQueueCapacity, retention, maxHistoryRevisions, compactionCheckInterval);
    }

    public StorageOptions withMaxHistoryRevisions(long max) {
        return new StorageOptions(watchQueueCapacity, historyRetention, max, compactionCheckInterval);
    }

    public StorageOptions withCompactionCheckInterval(Duration interval) {
        return new StorageOptions(watchQueueCapacity, historyRetention, maxHistoryRevisions, interval);
    }
}
