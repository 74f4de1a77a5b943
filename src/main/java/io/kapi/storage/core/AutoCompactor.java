package io.kapi.storage.core;

import io.kapi.storage.Storage;
import io.kapi.storage.StorageOptions;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Compacts a store periodically so that history stays bounded: every check it forgets revisions
 * older than {@link StorageOptions#historyRetention()} (it samples the current revision at each
 * check and compacts to the newest sample at least that old) and, whatever their age, all but the
 * last {@link StorageOptions#maxHistoryRevisions()} revisions.
 */
public final class AutoCompactor implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(AutoCompactor.class.getName());

    private record Sample(long nanos, long revision) {
    }

    private final Storage storage;
    private final StorageOptions options;
    private final LongSupplier clock;
    private final ArrayDeque<Sample> samples = new ArrayDeque<>();
    private final ScheduledExecutorService scheduler;

    /** Starts checking {@code storage} every {@link StorageOptions#compactionCheckInterval()} unless zero. */
    public AutoCompactor(Storage storage, StorageOptions options) {
        this(storage, options, System::nanoTime);
    }

    AutoCompactor(Storage storage, StorageOptions options, LongSupplier clock) {
        this.storage = storage;
        this.options = options;
        this.clock = clock;
        Duration interval = options.compactionCheckInterval();
        if (interval.isZero() || interval.isNegative()) {
            scheduler = null;
        } else {
            scheduler = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofVirtual().name("kapi-storage-compactor").factory());
            long millis = interval.toMillis();
            scheduler.scheduleWithFixedDelay(this::checkSafely, millis, millis, TimeUnit.MILLISECONDS);
        }
    }

    /** Runs one check now: compacts if history is older or longer than allowed. */
    synchronized void check() {
        long now = clock.getAsLong();
        long current = storage.currentRevision();
        samples.addLast(new Sample(now, current));
        long target = 0;
        long oldestKept = now - options.historyRetention().toNanos();
        while (!samples.isEmpty() && samples.peekFirst().nanos() <= oldestKept) {
            target = samples.pollFirst().revision();
        }
        target = Math.max(target, current - options.maxHistoryRevisions());
        if (target > storage.compactedRevision()) {
            storage.compact(target);
            LOG.log(System.Logger.Level.DEBUG, "compacted history to revision {0}", target);
        }
    }

    private void checkSafely() {
        try {
            check();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "automatic compaction failed", e);
        }
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
