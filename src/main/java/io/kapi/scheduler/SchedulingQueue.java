package io.kapi.scheduler;

import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * kube-scheduler's PriorityQueue: Pods waiting to be scheduled, in three parts. The active queue gives
 * the highest priority first (then the earliest queued); a Pod that failed waits in the backoff queue
 * ({@link #INITIAL_BACKOFF} doubling per attempt up to {@link #MAX_BACKOFF}) or, when no Node fitted,
 * among the unschedulable Pods until a cluster event ({@link #moveAllToActiveOrBackoff}: a Node added or
 * changed, a Pod deleted) or {@link #UNSCHEDULABLE_TIMEOUT} moves it on. A Pod whose attempt overlapped
 * such an event goes to backoff rather than unschedulable, as kube's {@code moveRequestCycle} has it.
 */
final class SchedulingQueue {

    static final Duration INITIAL_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
    /** kube's {@code podMaxInUnschedulablePodsDuration}. */
    static final Duration UNSCHEDULABLE_TIMEOUT = Duration.ofMinutes(5);

    /** A queued Pod; {@code cycle} is the move cycle when it was popped. */
    static final class Entry {
        PodInfo pod;
        int attempts;
        long queuedAt;
        long backoffUntil;
        long unschedulableSince;
        long cycle;

        Entry(PodInfo pod, long now) {
            this.pod = pod;
            this.queuedAt = now;
        }
    }

    private final Map<String, Entry> entries = new HashMap<>();
    private final PriorityQueue<Entry> active = new PriorityQueue<>(
            Comparator.comparingInt((Entry e) -> -e.pod.priority()).thenComparingLong(e -> e.queuedAt));
    private final PriorityQueue<Entry> backoff = new PriorityQueue<>(Comparator.comparingLong(e -> e.backoffUntil));
    private final Map<String, Entry> unschedulable = new HashMap<>();
    private final java.util.function.LongSupplier nanos;
    private long moveCycle;
    private long sequence;
    private boolean closed;

    SchedulingQueue(java.util.function.LongSupplier nanos) {
        this.nanos = nanos;
    }

    /** A Pod to schedule, new or changed. */
    synchronized void add(PodInfo pod) {
        Entry e = entries.get(pod.key());
        if (e == null) {
            e = new Entry(pod, sequence++);
            entries.put(pod.key(), e);
            active.add(e);
            notifyAll();
            return;
        }
        e.pod = pod;
        if (unschedulable.remove(pod.key()) != null) {
            requeue(e); // its spec may fit now
        } else if (active.remove(e)) {
            active.add(e);
        }
    }

    synchronized void delete(String key) {
        Entry e = entries.remove(key);
        if (e != null) {
            active.remove(e);
            backoff.remove(e);
            unschedulable.remove(key);
        }
    }

    /** Every unschedulable Pod to the active queue, or to backoff while its backoff lasts. */
    synchronized void moveAllToActiveOrBackoff() {
        moveCycle++;
        for (Entry e : unschedulable.values()) {
            requeue(e);
        }
        unschedulable.clear();
    }

    private void requeue(Entry e) {
        if (e.backoffUntil > nanos.getAsLong()) {
            backoff.add(e);
        } else {
            active.add(e);
            notifyAll();
        }
    }

    /**
     * The next Pod to schedule, waiting for one up to {@code timeout}; null when none came or the queue
     * was closed. The Pod stays known (an update while it is scheduled replaces its info for the retry).
     */
    synchronized Entry pop(Duration timeout) throws InterruptedException {
        long end = nanos.getAsLong() + timeout.toNanos();
        while (!closed) {
            flush();
            Entry e = active.poll();
            if (e != null) {
                e.attempts++;
                e.cycle = moveCycle;
                return e;
            }
            long now = nanos.getAsLong();
            if (now >= end) {
                return null;
            }
            long wait = end - now;
            if (!backoff.isEmpty()) {
                wait = Math.min(wait, backoff.peek().backoffUntil - now);
            }
            wait(Math.max(1, wait / 1_000_000));
        }
        return null;
    }

    /** Backoff ended or unschedulable for too long: to the active queue. */
    private void flush() {
        long now = nanos.getAsLong();
        while (!backoff.isEmpty() && backoff.peek().backoffUntil <= now) {
            active.add(backoff.poll());
        }
        var it = unschedulable.values().iterator();
        while (it.hasNext()) {
            Entry e = it.next();
            if (now - e.unschedulableSince > UNSCHEDULABLE_TIMEOUT.toNanos()) {
                it.remove();
                requeue(e);
            }
        }
    }

    /** The attempt is over and the Pod scheduled (or gone): it leaves the queue. */
    synchronized void done(String key) {
        entries.remove(key);
    }

    /**
     * No Node fitted: the Pod waits among the unschedulable ones, or in backoff if a cluster event came
     * during its attempt. {@code error}: the attempt failed otherwise (a binding refused), straight to backoff.
     */
    synchronized void failed(Entry e, boolean error) {
        if (entries.get(e.pod.key()) != e) {
            return; // deleted meanwhile
        }
        long now = nanos.getAsLong();
        e.backoffUntil = now + backoffFor(e.attempts).toNanos();
        if (error || moveCycle > e.cycle) {
            backoff.add(e);
            notifyAll();
        } else {
            e.unschedulableSince = now;
            unschedulable.put(e.pod.key(), e);
        }
    }

    static Duration backoffFor(int attempts) {
        Duration d = INITIAL_BACKOFF;
        for (int i = 1; i < attempts && d.compareTo(MAX_BACKOFF) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : d;
    }

    synchronized boolean isUnschedulable(String key) {
        return unschedulable.containsKey(key);
    }

    synchronized int size() {
        return entries.size();
    }

    synchronized void close() {
        closed = true;
        notifyAll();
    }
}
