package io.kapi.controllers;

import io.kapi.health.PostStartHook;
import java.time.Duration;

/**
 * A standalone controller that makes one pass over what it watches every {@code interval}: the first pass runs
 * in its post-start hook, the others on one virtual thread until {@link #close()}. A failed pass is logged and
 * the next one tries again.
 */
public abstract class Polling implements PostStartHook, AutoCloseable {

    private final PeriodicWorker worker;

    protected Polling(Duration interval) {
        this.worker = new PeriodicWorker(name(), interval, false, this::syncAll);
    }

    /** One pass; must be safe to run again after a failure. */
    public abstract void syncAll();

    @Override
    public final void run() {
        syncAll();
        worker.start();
    }

    @Override
    public final void close() {
        worker.close();
    }
}
