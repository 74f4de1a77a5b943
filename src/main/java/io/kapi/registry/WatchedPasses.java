package io.kapi.registry;

import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.Delivery;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A level-triggered controller's loop over one resource: a pass, then the next one on the resource's next
 * watch event (the events that came meanwhile drained with it) or when the pass's wait runs out; a watch
 * that ends or fails is opened again, and a pass that throws is logged and tried again after a pause.
 * Returns when the calling thread is interrupted.
 */
public final class WatchedPasses {

    private static final Duration PAUSE = Duration.ofSeconds(1);

    private WatchedPasses() {
    }

    /**
     * @param store the watched resource's store (looked up for each new watch)
     * @param pass one reconciling pass; returns the longest wait before the next
     * @param what the controller's name, for the log
     */
    public static void run(Supplier<ResourceStore> store, Supplier<Duration> pass, String what, System.Logger log) {
        CacheWatch watch = null;
        while (!Thread.currentThread().isInterrupted()) {
            try {
                if (watch == null) {
                    watch = store.get().watch("", ListOptions.ALL);
                }
                if (waitForChange(watch, pass.get())) {
                    watch.close();
                    watch = null;
                }
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException e) {
                log.log(Level.WARNING, "{0} pass failed: {1}", what, e.toString());
                if (!pause()) {
                    break;
                }
            }
        }
        if (watch != null) {
            watch.close();
        }
    }

    /** Waits up to {@code period} for an event, then drains what else came; true when the watch ended. */
    private static boolean waitForChange(CacheWatch watch, Duration period) throws InterruptedException {
        Delivery d = watch.poll(TimeUnit.NANOSECONDS.convert(period));
        while (d != null) {
            if (d instanceof Delivery.End || d instanceof Delivery.Failure) {
                return true;
            }
            d = watch.poll(0);
        }
        return false;
    }

    private static boolean pause() {
        try {
            Thread.sleep(PAUSE);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
