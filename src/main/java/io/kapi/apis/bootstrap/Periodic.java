package io.kapi.apis.bootstrap;

import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * Runs a task on a virtual thread every {@code interval} until closed. After a failure it runs again
 * after {@code retry}, doubling up to {@code interval} while it keeps failing. A failure is logged
 * as a warning when its message is new, at debug level when it repeats; it is never fatal.
 */
final class Periodic implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Periodic.class.getName());

    private final Thread thread;
    private final String name;

    private Periodic(Thread thread, String name) {
        this.thread = thread;
        this.name = name;
    }

    String name() {
        return name;
    }

    static Periodic start(String name, Duration interval, Duration retry, Runnable task) {
        Thread thread = Thread.ofVirtual().name(name).unstarted(() -> loop(name, interval, retry, task));
        thread.start();
        return new Periodic(thread, name);
    }

    private static void loop(String name, Duration interval, Duration retry, Runnable task) {
        Duration wait = interval;
        String lastFailure = null;
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                return;
            }
            try {
                task.run();
                wait = interval;
                lastFailure = null;
            } catch (RuntimeException e) {
                wait = lastFailure == null ? retry : min(wait.multipliedBy(2), interval);
                String message = String.valueOf(e.getMessage());
                LOG.log(message.equals(lastFailure) ? Level.DEBUG : Level.WARNING, "{0} failed, retrying in {1}: {2}",
                        name, wait, message);
                lastFailure = message;
            }
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
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
