package io.kapi.controllers;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * How the standalone controllers run: one pass every {@code interval} on one virtual thread, from
 * {@link #start()} (only the first call starts it) until {@link #close()}. A pass that fails is logged and
 * the next one runs on time; a pass is never run twice at once.
 */
public final class PeriodicWorker implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PeriodicWorker.class.getName());

    private final String name;
    private final Duration interval;
    private final boolean passFirst;
    private final Runnable pass;
    private final LongSupplier state;
    private final long fullPassNanos;
    private Thread thread;

    /**
     * @param name the thread's name, and the controller's in the log
     * @param passFirst whether the first pass runs at once (else after one interval)
     */
    public PeriodicWorker(String name, Duration interval, boolean passFirst, Runnable pass) {
        this(name, interval, passFirst, pass, null, Duration.ZERO);
    }

    /**
     * A worker whose pass depends on nothing but what it reads: a pass is skipped while {@code state}
     * (for instance {@link io.kapi.storage.cache.WatchCacheHub#progress}) has the value it had before
     * the last pass that completed, except that one runs at least every {@code fullPassEvery} (a retry
     * of what a pass could not do, if no write has come since).
     */
    public PeriodicWorker(String name, Duration interval, boolean passFirst, Runnable pass, LongSupplier state,
                          Duration fullPassEvery) {
        this.name = name;
        this.interval = interval;
        this.passFirst = passFirst;
        this.pass = pass;
        this.state = state;
        this.fullPassNanos = fullPassEvery.toNanos();
    }

    public synchronized void start() {
        if (thread == null) {
            thread = Thread.ofVirtual().name(name).start(this::loop);
        }
    }

    private void loop() {
        boolean due = passFirst;
        PassSkipping skipping = state == null ? null : new PassSkipping(fullPassNanos);
        while (!Thread.currentThread().isInterrupted()) {
            try {
                if (due) {
                    passUnlessSkipped(skipping);
                }
                due = true;
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "{0} pass failed: {1}", name, e.toString());
            }
        }
    }

    /** Runs a pass, unless {@code skipping} (null for a worker without a state) says the state has not moved. */
    private void passUnlessSkipped(PassSkipping skipping) {
        if (skipping == null) {
            pass.run();
            return;
        }
        long seen = state.getAsLong(); // read before the pass: a write during it brings another
        if (skipping.due(seen, System.nanoTime())) {
            pass.run();
            skipping.ran(seen, System.nanoTime());
        }
    }

    @Override
    public synchronized void close() {
        if (thread != null) {
            thread.interrupt();
        }
    }

    /** When a state-only pass is due: the state moved since the last completed pass, or the full-pass time is up. */
    static final class PassSkipping {
        private final long fullPassNanos;
        private boolean ranOnce;
        private long lastState;
        private long lastPassAt;

        PassSkipping(long fullPassNanos) {
            this.fullPassNanos = fullPassNanos;
        }

        boolean due(long state, long now) {
            return !ranOnce || state != lastState || now - lastPassAt >= fullPassNanos;
        }

        /** A pass that began when the state was {@code state} has completed. */
        void ran(long state, long now) {
            ranOnce = true;
            lastState = state;
            lastPassAt = now;
        }
    }
}
