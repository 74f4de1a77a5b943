package io.kapi.cli;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Gives memory back to the system once the server has gone idle: when no client request has arrived
 * for {@code idle}, and one had since the last time, a full collection runs ({@link System#gc}), after
 * which the collector shrinks the heap to what the live data needs (bin/kapi's
 * {@code -XX:MaxHeapFreeRatio}). Once per idle spell, unlike G1's periodic collection, which repeats
 * every interval for as long as the server stays idle: a tenth of a second of a core every 5 s at
 * 12,000 configmaps, more with more. Only {@code bin/kapi} runs it: a server inside a test's JVM
 * leaves that JVM's collector alone.
 */
final class IdleCollection {

    private static final System.Logger LOG = System.getLogger(IdleCollection.class.getName());

    private final LongSupplier requests;
    private final long idleNanos;
    private long seen = -1;
    private long changedAt;
    private boolean collected;

    IdleCollection(LongSupplier requests, Duration idle) {
        this.requests = requests;
        this.idleNanos = idle.toNanos();
    }

    /** Watches {@code requests} (a count that grows with every request) on a daemon thread of its own. */
    static void start(LongSupplier requests, Duration idle) {
        IdleCollection watch = new IdleCollection(requests, idle);
        long tick = Math.max(100, idle.toMillis() / 5);
        Thread.ofVirtual().name("kapi-idle-collection").start(() -> {
            try {
                while (true) {
                    Thread.sleep(tick);
                    if (watch.due(System.nanoTime())) {
                        long t0 = System.nanoTime();
                        System.gc();
                        LOG.log(Level.DEBUG, "idle for {0} s: full collection in {1} ms", idle.toSeconds(),
                                (System.nanoTime() - t0) / 1_000_000);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** Whether a collection is due at {@code now}: the count has not moved for the idle time since it last did. */
    boolean due(long now) {
        long count = requests.getAsLong();
        if (count != seen) {
            seen = count;
            changedAt = now;
            collected = false;
            return false;
        }
        if (!collected && now - changedAt >= idleNanos) {
            collected = true;
            return true;
        }
        return false;
    }
}
