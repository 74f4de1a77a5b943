package io.kapi.storage.cache;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One watcher of a {@link ResourceCache}. Its first deliveries (initial state or replayed history) are
 * kept apart from the live queue, which is bounded: the dispatcher only ever offers to it, and a
 * watcher whose queue is full is cut off rather than allowed to grow or to slow anybody down.
 *
 * <p>An event is turned into what this watcher sees by its filter, as kube-apiserver's cacheWatcher:
 * an object that starts to match is ADDED, one that stops matching is DELETED (its previous version,
 * at the event's revision), one that matches before and after is MODIFIED.
 */
final class CacheWatcher implements CacheWatch {

    private static final Delivery.End CUT_OFF = new Delivery.End("the watcher fell too far behind");

    private final ResourceCache cache;
    private final String scope;
    private final Predicate<CachedObject> filter;
    private final ArrayDeque<Delivery> initial = new ArrayDeque<>();
    private final ArrayBlockingQueue<Delivery> queue;
    private final long startRevision;
    private volatile Delivery.End ended;
    private boolean finished;

    CacheWatcher(ResourceCache cache, String scope, Predicate<CachedObject> filter, int buffer, long startRevision) {
        this.cache = cache;
        this.scope = scope;
        this.filter = filter;
        this.queue = new ArrayBlockingQueue<>(buffer);
        this.startRevision = startRevision;
    }

    /** Adds deliveries to send before the live ones; only before the watcher is registered. */
    void addInitial(Delivery delivery) {
        initial.addLast(delivery);
    }

    void replay(List<CacheEvent> events) {
        for (CacheEvent e : events) {
            Delivery d = convert(e);
            if (d != null) {
                initial.addLast(d);
            }
        }
    }

    /** Called by the dispatcher under the cache's lock, in revision order; never blocks. */
    void offer(CacheEvent event) {
        if (ended != null || event.revision() <= startRevision) {
            return;
        }
        Delivery d = convert(event);
        if (d != null && !queue.offer(d)) {
            terminate(CUT_OFF);
            cache.cutOff();
        }
    }

    /** Ends the watch; its reader sees {@code end} once it has taken what came before, if anything. */
    void terminate(Delivery.End end) {
        if (ended == null) {
            ended = end;
            queue.clear();
            queue.offer(end);
            cache.forget(this);
        }
    }

    private Delivery convert(CacheEvent e) {
        boolean now = e.current() != null && matches(e.current());
        boolean before = e.previous() != null && matches(e.previous());
        if (now) {
            return new Delivery.Change(before ? EventType.MODIFIED : EventType.ADDED, e.current().object(),
                    e.revision(), e.frames());
        }
        if (before) {
            return new Delivery.Change(EventType.DELETED, e.deletedObject(), e.revision(), e.frames());
        }
        return null;
    }

    boolean matches(CachedObject o) {
        return o.key().startsWith(scope) && filter.test(o);
    }

    @Override
    public Delivery poll(long timeoutNanos) throws InterruptedException {
        if (finished) {
            return ended != null ? ended : new Delivery.End("closed");
        }
        Delivery d = initial.pollFirst();
        if (d == null) {
            d = queue.poll(timeoutNanos, TimeUnit.NANOSECONDS);
        }
        if (d instanceof Delivery.End || d instanceof Delivery.Failure) {
            finished = true;
            if (d instanceof Delivery.Failure) {
                terminate(new Delivery.End("failed"));
            }
        }
        return d;
    }

    @Override
    public long bookmarkRevision() {
        long revision = cache.revision();
        if (ended != null || !initial.isEmpty() || !queue.isEmpty()) {
            return -1;
        }
        return revision;
    }

    @Override
    public void close() {
        terminate(new Delivery.End("closed"));
    }
}
