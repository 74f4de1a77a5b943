package io.kapi.flowcontrol;

/**
 * A priority level's live state: its configuration, its seats as allotted from the server's
 * concurrency, its queues and its counters. Guarded by the dispatcher's lock.
 */
final class Level {

    PriorityLevel config;
    /** nominal seats: its shares' part of the server's concurrency, rounded up */
    int nominal;
    /** seats of its nominal ones others may borrow */
    int lendable;
    /** seats it may borrow beyond its nominal ones */
    int borrowingLimit;
    /** the most seats one request takes (kube's max seats of the level) */
    int maxSeats = WorkEstimator.MAX_SEATS;
    /** null for an exempt level or one that rejects what cannot run at once */
    QueueSet queues;
    boolean quiescing;
    int executing;
    int seatsInUse;
    long dispatched;
    long rejected;
    long timedOut;
    long cancelled;
    /** exempt requests are counted without the dispatcher's lock: they never wait for anything */
    final java.util.concurrent.atomic.AtomicInteger exemptExecuting = new java.util.concurrent.atomic.AtomicInteger();
    final java.util.concurrent.atomic.LongAdder exemptDispatched = new java.util.concurrent.atomic.LongAdder();
    final java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.atomic.AtomicInteger> exemptBySchema =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** running requests and their seats by FlowSchema name, for metrics */
    final java.util.Map<String, int[]> runningBySchema = new java.util.HashMap<>();

    Level(PriorityLevel config) {
        this.config = config;
    }

    /** Seats that are its own whatever others borrow. */
    int guaranteed() {
        return nominal - lendable;
    }

    /** Seats above its guaranteed ones in use: taken from the pool of lendable seats. */
    int excess() {
        return Math.max(0, seatsInUse - guaranteed());
    }

    /** Counts {@code seats} more (or fewer) seats of one more (or fewer) running request of {@code schema}. */
    void running(String schema, int requests, int seats) {
        int[] counts = runningBySchema.computeIfAbsent(schema, s -> new int[2]);
        counts[0] += requests;
        counts[1] += seats;
        if (counts[0] == 0) {
            runningBySchema.remove(schema);
        }
    }

    /** The counter of running exempt requests of {@code schema} (kept for the level's life). */
    java.util.concurrent.atomic.AtomicInteger exemptCounter(String schema) {
        return exemptBySchema.computeIfAbsent(schema, k -> new java.util.concurrent.atomic.AtomicInteger());
    }

    /** @param bySchema the {@link #exemptCounter} of the request's schema */
    void exemptStarted(java.util.concurrent.atomic.AtomicInteger bySchema) {
        exemptExecuting.incrementAndGet();
        exemptDispatched.increment();
        bySchema.incrementAndGet();
    }

    void exemptFinished(java.util.concurrent.atomic.AtomicInteger bySchema) {
        exemptExecuting.decrementAndGet();
        bySchema.decrementAndGet();
    }

    /** Requests running now, limited and exempt. */
    int executingNow() {
        return executing + exemptExecuting.get();
    }

    long dispatchedTotal() {
        return dispatched + exemptDispatched.sum();
    }

    int waiting() {
        return queues == null ? 0 : queues.waiting();
    }

    boolean idle() {
        return executingNow() == 0 && waiting() == 0;
    }
}
