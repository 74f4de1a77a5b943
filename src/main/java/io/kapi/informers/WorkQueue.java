package io.kapi.informers;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;

/**
 * client-go's rate-limited work queue: keys, not events, so a burst of changes to one object is one
 * reconcile. A key is handed to one worker at a time ({@link #take} until {@link #done}); added again
 * while it is being worked on, it is handed out again once done; added twice while waiting, once.
 * {@link #addRateLimited} backs a failing key off exponentially (5 ms doubling to 1,000 s, kube's
 * {@code DefaultControllerRateLimiter} per item) until {@link #forget}.
 *
 * @param <K> the key type, e.g. {@code namespace/name}
 */
public final class WorkQueue<K> {

    private static final long BASE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(1000);

    private final ArrayDeque<K> queue = new ArrayDeque<>();
    private final Set<K> dirty = new HashSet<>();
    private final Set<K> processing = new HashSet<>();
    private final Map<K, Integer> failures = new HashMap<>();
    private final DelayQueue<Later<K>> later = new DelayQueue<>();
    /** The soonest a delayed key is due: a later add of it changes nothing. */
    private final Map<K, Long> due = new HashMap<>();
    private final Thread delayer;
    private boolean shutDown;

    public WorkQueue(String name) {
        this.delayer = Thread.ofVirtual().name("workqueue-" + name).start(this::releaseLater);
    }

    /** Queues {@code key} unless it is queued already. */
    public synchronized void add(K key) {
        if (shutDown || !dirty.add(key)) {
            return;
        }
        if (!processing.contains(key)) {
            queue.addLast(key);
            notifyAll();
        }
    }

    /** Queues {@code key} after {@code delay}. */
    public void addAfter(K key, Duration delay) {
        if (!delay.isPositive()) {
            add(key);
            return;
        }
        long at = System.nanoTime() + delay.toNanos();
        synchronized (this) {
            Long soonest = due.get(key);
            if (soonest != null && soonest - at <= 0) {
                return;
            }
            due.put(key, at);
        }
        later.add(new Later<>(key, at));
    }

    /** Queues {@code key} after its back-off, which doubles with each call until {@link #forget}. */
    public void addRateLimited(K key) {
        int n;
        synchronized (this) {
            n = failures.merge(key, 1, Integer::sum);
        }
        long nanos = n > 40 ? MAX_NANOS : Math.min(MAX_NANOS, BASE_NANOS << (n - 1));
        addAfter(key, Duration.ofNanos(nanos));
    }

    /** Clears {@code key}'s back-off: its work succeeded. */
    public synchronized void forget(K key) {
        failures.remove(key);
    }

    /** How often {@code key} was added rate-limited since it was last forgotten. */
    public synchronized int failures(K key) {
        return failures.getOrDefault(key, 0);
    }

    /** The next key, once there is one; null once the queue is shut down. */
    public synchronized K take() throws InterruptedException {
        while (queue.isEmpty() && !shutDown) {
            wait();
        }
        if (shutDown) {
            return null;
        }
        K key = queue.removeFirst();
        dirty.remove(key);
        processing.add(key);
        return key;
    }

    /** The work on {@code key} is over; a key added meanwhile is queued again. */
    public synchronized void done(K key) {
        processing.remove(key);
        if (dirty.contains(key)) {
            queue.addLast(key);
            notifyAll();
        }
    }

    /** Keys waiting (not those being worked on or delayed). */
    public synchronized int length() {
        return queue.size();
    }

    /** Hands out no more keys: every {@link #take} returns null. */
    public synchronized void shutDown() {
        shutDown = true;
        delayer.interrupt();
        notifyAll();
    }

    private void releaseLater() {
        try {
            while (true) {
                Later<K> next = later.take();
                synchronized (this) {
                    due.remove(next.key(), next.dueNanos());
                }
                add(next.key());
            }
        } catch (InterruptedException e) {
            // shut down
        }
    }

    private record Later<K>(K key, long dueNanos) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(dueNanos, ((Later<?>) other).dueNanos);
        }
    }
}
