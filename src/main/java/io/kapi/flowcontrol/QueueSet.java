package io.kapi.flowcontrol;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The queues of one priority level, with kube's fair queuing for server requests ({@code queueset}):
 * a progress meter R (seat-seconds per queue) advances with real time at the rate each non-empty
 * queue would be served if the level's seats were shared equally, {@code min(seats asked, limit) /
 * active queues}; a queue that was idle starts at the current R, so idleness earns no credit; the next
 * request to run is the head of the queue whose virtual finish (its next dispatch R plus the head's
 * seats × {@value #ESTIMATED_SECONDS} s) is earliest, ties going round robin; dispatching advances the
 * queue by those seat-seconds and finishing corrects it by the real ones; a queue is never put before
 * its head's arrival R (kube's anti-windup).
 *
 * <p>So a flow that holds many seats for long (a LIST flood) runs ahead of R and waits, and a flow that
 * asks little (a few GETs) arrives at R and is served first whenever seats free. (The previous virtual
 * time jumped to the start of whatever was dispatched, so a GET arriving at an idle queue tied with the
 * flood's queues and waited behind a wide LIST that did not fit.) Flows reach queues by shuffle
 * sharding: a request goes to the shortest queue of its flow's hand. Not thread-safe: the dispatcher's
 * lock guards it, and {@link #sync} must run before the queues change.
 */
final class QueueSet {

    /** kube's estimated service duration G (seconds): what a seat is charged at dispatch, before the real time is known. */
    static final double ESTIMATED_SECONDS = 0.003;

    static final class Queue {
        final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
        int executing;
        int seatsInUse;
        int waitingSeats;
        /** R at which its head may start (kube's nextDispatchR), in seat-seconds */
        double nextDispatch;
    }

    final List<Queue> queues;
    private final LongSupplier nanoTime;
    private double currentR;
    private long lastNanos;
    private int robin = -1;
    /** queues with requests waiting or executing */
    private int active;
    /** seats of the requests waiting or executing */
    private long asked;

    QueueSet(int count) {
        this(count, System::nanoTime);
    }

    QueueSet(int count, LongSupplier nanoTime) {
        List<Queue> made = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            made.add(new Queue());
        }
        this.queues = List.copyOf(made);
        this.nanoTime = nanoTime;
        this.lastNanos = nanoTime.getAsLong();
    }

    /**
     * Advances R to now, as the queues have been since the last call: by {@code min(seats asked, limit) /
     * active queues} per second.
     *
     * @param limit the seats the level may use now
     */
    void sync(int limit) {
        long now = nanoTime.getAsLong();
        double seconds = (now - lastNanos) / 1e9;
        lastNanos = now;
        if (active > 0 && seconds > 0) {
            currentR += Math.min(asked, Math.max(1, limit)) * seconds / active;
        }
    }

    /** Adds a request to the shortest queue of its hand; false when that queue holds {@code lengthLimit} already. */
    boolean enqueue(Waiter w, int handSize, int lengthLimit) {
        int best = -1;
        for (int card : ShuffleSharding.deal(w.flowHash, queues.size(), Math.min(handSize, queues.size()))) {
            Queue q = queues.get(card);
            if (best < 0 || load(q) < load(queues.get(best))) {
                best = card;
            }
        }
        Queue q = queues.get(best);
        if (q.waiting.size() >= lengthLimit) {
            return false;
        }
        if (idle(q)) {
            q.nextDispatch = currentR;
            active++;
        }
        asked += w.seats;
        w.arrivalR = currentR;
        q.waiting.addLast(w);
        q.waitingSeats += w.seats;
        w.queue = best;
        w.queueSet = this;
        bound(q);
        return true;
    }

    private static boolean idle(Queue q) {
        return q.waiting.isEmpty() && q.executing == 0;
    }

    private static int load(Queue q) {
        return q.waitingSeats + q.seatsInUse;
    }

    /** The request fair queuing runs next, still queued; null when none waits. */
    Waiter next() {
        int n = queues.size();
        double min = Double.MAX_VALUE;
        Queue best = null;
        for (int i = 1; i <= n; i++) {
            Queue q = queues.get(Math.floorMod(robin + i, n));
            Waiter head = q.waiting.peekFirst();
            if (head != null && q.nextDispatch + head.seats * ESTIMATED_SECONDS < min) {
                min = q.nextDispatch + head.seats * ESTIMATED_SECONDS;
                best = q;
            }
        }
        return best == null ? null : best.waiting.peekFirst();
    }

    /** Takes {@code w} (the result of {@link #next()}) off its queue to run. */
    void dispatch(Waiter w) {
        Queue q = queues.get(w.queue);
        q.waiting.remove(w);
        q.waitingSeats -= w.seats;
        q.nextDispatch += w.seats * ESTIMATED_SECONDS;
        q.executing++;
        q.seatsInUse += w.seats;
        robin = w.queue;
        bound(q);
    }

    /** Takes a request that gave up waiting off its queue. */
    void remove(Waiter w) {
        Queue q = queues.get(w.queue);
        if (q.waiting.remove(w)) {
            q.waitingSeats -= w.seats;
            asked -= w.seats;
            active -= idle(q) ? 1 : 0;
            bound(q);
        }
    }

    /** A dispatched request finished after {@code seconds}: its queue is charged its real seat-seconds. */
    void finished(Waiter w, double seconds) {
        Queue q = queues.get(w.queue);
        q.executing--;
        q.seatsInUse -= w.seats;
        asked -= w.seats;
        active -= idle(q) ? 1 : 0;
        q.nextDispatch += w.seats * (seconds - ESTIMATED_SECONDS);
        bound(q);
    }

    /** kube's anti-windup: a queue's dispatch R never precedes its head's arrival R. */
    private static void bound(Queue q) {
        Waiter head = q.waiting.peekFirst();
        if (head != null && q.nextDispatch < head.arrivalR) {
            q.nextDispatch = head.arrivalR;
        }
    }

    int waiting() {
        int n = 0;
        for (Queue q : queues) {
            n += q.waiting.size();
        }
        return n;
    }

    /** R now (as of the last {@link #sync}). */
    double currentR() {
        return currentR;
    }
}
