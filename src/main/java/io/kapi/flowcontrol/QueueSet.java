package io.kapi.flowcontrol;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The queues of one priority level, with fair queuing between them (start-time fair queuing on
 * seat-seconds, the idea of kube's {@code queueset}): each queue has a virtual dispatch time; the next
 * request to run is the head of the non-empty queue whose time is earliest; dispatching charges the
 * queue its seats × an expected duration (10 ms), and a request that ran longer is charged its real
 * seat-seconds when it finishes (never less: short requests are charged alike, so a flow of many tiny
 * requests does not win on measuring noise). A queue that was idle starts at the current virtual time, so idleness earns no
 * credit. Flows reach queues by shuffle sharding: a request goes to the shortest queue of its flow's
 * hand. Not thread-safe: the dispatcher's lock guards it.
 */
final class QueueSet {

    /** The expected duration (seconds) charged at dispatch, before the real one is known. */
    static final double EXPECTED_SECONDS = 0.01;

    static final class Queue {
        final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
        int executing;
        int seatsInUse;
        int waitingSeats;
        double nextDispatch;
    }

    final List<Queue> queues;
    private double virtualTime;

    QueueSet(int count) {
        List<Queue> made = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            made.add(new Queue());
        }
        this.queues = List.copyOf(made);
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
        if (q.waiting.isEmpty() && q.executing == 0) {
            q.nextDispatch = Math.max(q.nextDispatch, virtualTime);
        }
        q.waiting.addLast(w);
        q.waitingSeats += w.seats;
        w.queue = best;
        w.queueSet = this;
        return true;
    }

    private static int load(Queue q) {
        return q.waitingSeats + q.seatsInUse;
    }

    /** The request fair queuing runs next, still queued; null when none waits. */
    Waiter next() {
        Queue best = null;
        for (Queue q : queues) {
            if (!q.waiting.isEmpty() && (best == null || q.nextDispatch < best.nextDispatch)) {
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
        virtualTime = Math.max(virtualTime, q.nextDispatch);
        w.charged = w.seats * EXPECTED_SECONDS;
        q.nextDispatch += w.charged;
        q.executing++;
        q.seatsInUse += w.seats;
    }

    /** Takes a request that gave up waiting off its queue. */
    void remove(Waiter w) {
        Queue q = queues.get(w.queue);
        if (q.waiting.remove(w)) {
            q.waitingSeats -= w.seats;
        }
    }

    /** A dispatched request finished after {@code seconds}: its queue pays its real seat-seconds. */
    void finished(Waiter w, double seconds) {
        Queue q = queues.get(w.queue);
        q.executing--;
        q.seatsInUse -= w.seats;
        q.nextDispatch += Math.max(0, w.seats * seconds - w.charged);
    }

    int waiting() {
        int n = 0;
        for (Queue q : queues) {
            n += q.waiting.size();
        }
        return n;
    }

    double virtualTime() {
        return virtualTime;
    }
}
