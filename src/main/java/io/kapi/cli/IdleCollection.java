package io.kapi.cli;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Gives memory back to the system once the server has gone idle: when no client request has arrived
 * for {@code idle}, a full collection runs ({@link System#gc}), after which the collector shrinks the
 * heap to what the live data needs (bin/kapi's {@code -XX:MaxHeapFreeRatio}). While the server stays
 * idle the collection runs again after twice as long each time (at 5 s, 15 s, 35 s, ... with the
 * defaults), at most every {@link #LONGEST} apart, for what the server's own loops (leases, controllers)
 * allocated meanwhile; a client request starts the count again. G1's periodic collection would repeat
 * at the same short interval for as long as the server stays idle: a tenth of a second of a core every
 * 5 s at 12,000 configmaps, more with more. Only {@code bin/kapi} runs it: a server inside a test's JVM
 * leaves that JVM's collector alone.
 */
final class IdleCollection {

    private static final System.Logger LOG = System.getLogger(IdleCollection.class.getName());
    static final Duration LONGEST = Duration.ofMinutes(10);

    private final LongSupplier requests;
    private final long idleNanos;
    private long seen = -1;
    private long dueAt;
    private long wait;

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
                        LOG.log(Level.DEBUG, "idle: full collection in {0} ms", (System.nanoTime() - t0) / 1_000_000);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** Whether a collection is due at {@code now}; a collection it announces is taken as done. */
    boolean due(long now) {
        long count = requests.getAsLong();
        if (count != seen) {
            seen = count;
            wait = idleNanos;
            dueAt = now + wait;
            return false;
        }
        if (now - dueAt < 0) {
            return false;
        }
        wait = Math.min(2 * wait, LONGEST.toNanos());
        dueAt = now + wait;
        return true;
    }
}
