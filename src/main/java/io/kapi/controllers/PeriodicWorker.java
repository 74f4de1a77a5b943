package io.kapi.controllers;

import java.lang.System.Logger.Level;
import java.time.Duration;

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
    private Thread thread;

    /**
     * @param name the thread's name, and the controller's in the log
     * @param passFirst whether the first pass runs at once (else after one interval)
     */
    public PeriodicWorker(String name, Duration interval, boolean passFirst, Runnable pass) {
        this.name = name;
        this.interval = interval;
        this.passFirst = passFirst;
        this.pass = pass;
    }

    public synchronized void start() {
        if (thread == null) {
            thread = Thread.ofVirtual().name(name).start(this::loop);
        }
    }

    private void loop() {
        boolean due = passFirst;
        while (!Thread.currentThread().isInterrupted()) {
            try {
                if (due) {
                    pass.run();
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

    @Override
    public synchronized void close() {
        if (thread != null) {
            thread.interrupt();
        }
    }
}
