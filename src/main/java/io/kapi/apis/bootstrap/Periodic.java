package io.kapi.apis.bootstrap;

import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * Runs a task on a virtual thread every {@code interval} (after a failure, again after
 * {@code retry}) until closed. A failing run is logged, never fatal.
 */
final class Periodic implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Periodic.class.getName());

    private final Thread thread;

    private Periodic(Thread thread) {
        this.thread = thread;
    }

    static Periodic start(String name, Duration interval, Duration retry, Runnable task) {
        Thread thread = Thread.ofVirtual().name(name).unstarted(() -> loop(name, interval, retry, task));
        thread.start();
        return new Periodic(thread);
    }

    private static void loop(String name, Duration interval, Duration retry, Runnable task) {
        Duration wait = interval;
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                return;
            }
            try {
                task.run();
                wait = interval;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "{0} failed, retrying in {1}: {2}", name, retry, e.getMessage());
                wait = retry;
            }
        }
    }

    /** Stops the loop and waits (briefly) for a run in progress to end. */
    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
