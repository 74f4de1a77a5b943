package io.kapi.informers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ObjectMeta;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

/**
 * A controller as kube-controller-manager runs one: informers' handlers put the keys of changed objects
 * on a {@link WorkQueue}, and workers reconcile one key at a time each (a key is never reconciled by two
 * workers at once). A reconcile that throws is retried with the queue's back-off; one that succeeds
 * clears it. A resync, where kube's controller has one, queues every key again every period.
 */
public final class QueueController implements AutoCloseable {

    /** Brings the world in line with the object {@code key} names (which may be gone). */
    @FunctionalInterface
    public interface Reconciler {
        void reconcile(String key) throws Exception;
    }

    private static final System.Logger LOG = System.getLogger(QueueController.class.getName());

    private final String name;
    private final int workers;
    private final Reconciler reconciler;
    private final WorkQueue<String> queue;
    private final List<Thread> threads = new ArrayList<>();
    private Duration resyncPeriod;
    private Supplier<Collection<String>> resyncKeys;

    /** @param name the controller's name (threads, logs) */
    public QueueController(String name, int workers, Reconciler reconciler) {
        this.name = name;
        this.workers = workers;
        this.reconciler = reconciler;
        this.queue = new WorkQueue<>(name);
    }

    /** client-go's {@code MetaNamespaceKeyFunc}: {@code namespace/name}, or {@code name} for a cluster-scoped object. */
    public static String key(ObjectNode object) {
        ObjectMeta meta = ObjectMeta.of(object);
        return meta.namespace().isEmpty() ? meta.name() : meta.namespace() + "/" + meta.name();
    }

    /** The namespace of a key ("" for a cluster-scoped object's). */
    public static String namespace(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? "" : key.substring(0, slash);
    }

    /** The name of a key. */
    public static String name(String key) {
        return key.substring(key.indexOf('/') + 1);
    }

    public WorkQueue<String> queue() {
        return queue;
    }

    /** Queues the key of {@code object}. */
    public void enqueue(ObjectNode object) {
        queue.add(key(object));
    }

    /** A handler that queues the key of every object added, updated or deleted. */
    public EventHandler enqueueing() {
        return EventHandler.onAnyChange(this::enqueue);
    }

    /** Queues every key {@code keys} gives again every {@code period} (kube's resync), from {@link #start()} on. */
    public QueueController resyncEvery(Duration period, Supplier<Collection<String>> keys) {
        this.resyncPeriod = period;
        this.resyncKeys = keys;
        return this;
    }

    /** Starts the workers (and the resync); only the first call does. */
    public synchronized void start() {
        if (!threads.isEmpty()) {
            return;
        }
        for (int i = 0; i < workers; i++) {
            threads.add(Thread.ofVirtual().name(name + "-" + i).start(this::work));
        }
        if (resyncPeriod != null) {
            threads.add(Thread.ofVirtual().name(name + "-resync").start(this::resync));
        }
    }

    private void work() {
        while (true) {
            String key;
            try {
                key = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (key == null) {
                return;
            }
            try {
                reconciler.reconcile(key);
                queue.forget(key);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                LOG.log(Level.DEBUG, "{0}: reconciling {1} failed ({2}); retrying", name, key, e.toString());
                queue.addRateLimited(key);
            } finally {
                queue.done(key);
            }
        }
    }

    private void resync() {
        try {
            while (true) {
                Thread.sleep(resyncPeriod);
                resyncKeys.get().forEach(queue::add);
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    @Override
    public synchronized void close() {
        queue.shutDown();
        threads.forEach(Thread::interrupt);
    }
}
