package io.kapi.standalone;

import io.kapi.health.PostStartHook;
import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * A standalone controller that makes one pass over what it watches every {@code interval}: the first pass runs
 * in its post-start hook, the others on one virtual thread until {@link #close()}. A failed pass is logged and
 * the next one tries again.
 */
public abstract class Polling implements PostStartHook, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Polling.class.getName());

    private final Duration interval;
    private volatile Thread worker;

    protected Polling(Duration interval) {
        this.interval = interval;
    }

    /** One pass; must be safe to run again after a failure. */
    public abstract void syncAll();

    @Override
    public final void run() {
        syncAll();
        if (worker == null) {
            worker = Thread.ofVirtual().name(name()).start(this::loop);
        }
    }

    private void loop() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(interval);
                syncAll();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "{0}: pass failed: {1}", name(), e.toString());
            }
        }
    }

    @Override
    public final void close() {
        Thread t = worker;
        if (t != null) {
            t.interrupt();
        }
    }
}
