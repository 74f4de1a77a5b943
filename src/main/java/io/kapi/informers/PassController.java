package io.kapi.informers;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A controller whose work is one level-triggered pass over everything it reads (a status roll-up, a
 * sweep), run on the one mechanism: a {@link QueueController} of a single key, put on the queue by any
 * change the watched informers report. Changes that come together make one pass; passes never overlap
 * and each starts at least {@code spacing} after the change that asked for it, so a flood of writes
 * costs a pass per spacing, not one per write. A pass that throws is retried with the queue's back-off;
 * a resync, where kube's controller has one, asks for a pass every period.
 */
public final class PassController implements AutoCloseable {

    private static final String PASS = "pass";

    private final QueueController queue;
    private final Duration spacing;
    private final AtomicBoolean scheduled = new AtomicBoolean();

    /** @param pass one pass; must be safe to run again after a failure */
    public PassController(String name, Duration spacing, Runnable pass) {
        this.spacing = spacing;
        this.queue = new QueueController(name, 1, key -> {
            scheduled.set(false);
            pass.run();
        });
    }

    /** Asks for a pass on every change {@code informer} reports (and one once it has listed). */
    public PassController watching(Informer informer) {
        informer.addHandler(EventHandler.onAnyChange(object -> trigger()));
        return this;
    }

    /** Asks for a pass every {@code period}, as kube's controller resyncs. */
    public PassController resyncEvery(Duration period) {
        queue.resyncEvery(period, () -> List.of(PASS));
        return this;
    }

    /** Asks for a pass (one is run {@code spacing} later, however often this is called meanwhile). */
    public void trigger() {
        if (scheduled.compareAndSet(false, true)) {
            queue.queue().addAfter(PASS, spacing);
        }
    }

    /**
     * Asks for a pass {@code delay} from now, whatever else asks meanwhile: what a pass left to finish
     * later (a terminating object's dependents still going) is looked at again then.
     */
    public void triggerAfter(Duration delay) {
        queue.queue().addAfter(PASS, delay);
    }

    /** Starts the worker and runs a first pass. */
    public void start() {
        queue.start();
        queue.queue().add(PASS);
    }

    /** Starts the worker without a pass now: the caller just made one (a post-start hook's first run). */
    public void startAfterPass() {
        queue.start();
    }

    /** Asks for a pass on every change of any of {@code informers}. */
    public PassController watching(Collection<Informer> informers) {
        informers.forEach(this::watching);
        return this;
    }

    @Override
    public void close() {
        queue.close();
    }
}
