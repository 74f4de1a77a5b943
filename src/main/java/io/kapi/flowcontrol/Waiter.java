package io.kapi.flowcontrol;

import io.kapi.request.RequestInfo;
import java.time.Instant;
import java.util.concurrent.locks.Condition;

/**
 * One request inside flow control, from arrival to release. Guarded by the dispatcher's lock, but for
 * the final fields.
 */
final class Waiter {

    enum State { WAITING, EXECUTING, REJECTED, DONE }

    final Classifier.Match match;
    final Level level;
    final WorkEstimate estimate;
    final int seats;
    final long flowHash;
    final Instant arrival;
    final RequestInfo info;
    final String user;
    final Condition ready;
    State state = State.WAITING;
    QueueSet queueSet;
    int queue = -1;
    long startNanos;
    /** its queue set's progress meter R when it was queued (seat-seconds) */
    double arrivalR;

    Waiter(Classifier.Match match, Level level, WorkEstimate estimate, int seats, RequestInfo info, String user,
           Condition ready) {
        this.match = match;
        this.level = level;
        this.estimate = estimate;
        this.seats = seats;
        this.flowHash = ShuffleSharding.flowHash(match.schema().name(), match.distinguisher());
        this.arrival = Instant.now();
        this.info = info;
        this.user = user;
        this.ready = ready;
    }
}
