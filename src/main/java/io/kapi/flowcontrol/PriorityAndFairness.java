package io.kapi.flowcontrol;

import io.kapi.metrics.RequestMetrics;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import io.kapi.user.UserInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * kube-apiserver's API Priority and Fairness: every request is classified by the FlowSchemas to a
 * priority level and a flow; exempt levels never limit; limited levels share the server's
 * concurrency ({@code --max-requests-inflight} + {@code --max-mutating-requests-inflight} seats) by
 * their {@code nominalConcurrencyShares}, and queue what cannot run at once, fairly between flows, or
 * reject it.
 *
 * <p><b>Borrowing.</b> A level's nominal seats less its lendable ones are always its own; the lendable
 * seats of all levels form a pool any level may use, a level at most {@code borrowingLimitPercent} of
 * its nominal seats beyond them. Simplified from kube, which reallocates the current limits every 10 s
 * from each level's smoothed demand: here a seat is lent the moment it is free and returns when its
 * request ends, first come first served.
 *
 * <p><b>Seats.</b> A request takes the seats its work estimate says (a large LIST several), at most
 * its level's max seats (kube's: 15 % of its nominal seats, at most nominal over hand size, 1 to 10;
 * never beyond its nominal seats, so that it can always run once the level is idle). A write's extra seats
 * for its watch fan-out are held for the estimate's additional latency after it finishes.
 *
 * <p>The configuration is replaced whole ({@link #configure}); a level that is gone stops taking
 * requests and lives on until its queued and running ones are done (quiescing). Thread-safe: one lock
 * guards the seats and queues; classification reads an immutable snapshot outside it, and exempt
 * requests, which wait for nothing, are counted without it.
 */
public final class PriorityAndFairness implements FlowControl {

    private static final System.Logger LOG = System.getLogger(PriorityAndFairness.class.getName());

    private final int serverSeats;
    private final WorkEstimator estimator;
    /** the clock of fair queuing: its progress meter and the requests' service times */
    private final java.util.function.LongSupplier nanoTime;
    private final RetryAfter retryAfter = new RetryAfter(() -> System.currentTimeMillis() / 1000);
    private final ReentrantLock lock = new ReentrantLock();
    /** every level with state: the configured ones, then quiescing ones until they are idle */
    private final Map<String, Level> levels = new LinkedHashMap<>();
    private volatile Snapshot snapshot;
    private int pool;
    private int poolUsed;
    private int rotation;
    private volatile Consumer<Event> listener = e -> { };
    /** Counts waiting requests; none until {@link #countWaiting}. */
    private volatile RequestMetrics waiting;

    /**
     * The configuration requests are classified by.
     *
     * @param routes where each of the classifier's schemas (by position) sends its requests
     */
    record Snapshot(Classifier classifier, Route[] routes) {
    }

    /**
     * A schema's requests' way through the dispatcher, made once per configuration so that an exempt
     * request (which waits for nothing) allocates nothing but its release.
     *
     * @param classification what every request of the schema is classified as; null when its flows are
     *                       told apart (the distinguisher is part of it)
     * @param exemptRunning the schema's running requests at an exempt level; null at a limited one
     * @param dispatched what the listener hears of each dispatch without a wait
     */
    record Route(FlowSchema schema, Level level, FlowControl.Classification classification,
                 java.util.concurrent.atomic.AtomicInteger exemptRunning, Event dispatched) {

        static Route of(FlowSchema schema, Level level) {
            FlowControl.Classification fixed = schema.distinguisher() != FlowSchema.Distinguisher.NONE ? null
                    : new FlowControl.Classification(schema.name(), schema.uid(), level.config.name(),
                            level.config.uid(), "");
            return new Route(schema, level, fixed, level.config.exempt() ? level.exemptCounter(schema.name()) : null,
                    new Event("dispatched", level.config.name(), schema.name(), "", 0));
        }

        FlowControl.Classification classify(RequestInfo info, UserInfo user) {
            return classification != null ? classification : new FlowControl.Classification(schema.name(),
                    schema.uid(), level.config.name(), level.config.uid(),
                    Classifier.distinguisher(schema, info, user));
        }
    }

    /** What happened to a request, for metrics. */
    public record Event(String kind, String priorityLevel, String flowSchema, String reason, double waitSeconds) {
    }

    /**
     * @param serverSeats the server's concurrency: {@code --max-requests-inflight} + {@code --max-mutating-requests-inflight}
     * @param counts the watch cache's counts, for work estimates
     */
    public PriorityAndFairness(int serverSeats, ObjectCounts counts) {
        this(serverSeats, counts, System::nanoTime);
    }

    /** @param nanoTime the clock of fair queuing (tests stop it) */
    PriorityAndFairness(int serverSeats, ObjectCounts counts, java.util.function.LongSupplier nanoTime) {
        this.serverSeats = Math.max(1, serverSeats);
        this.estimator = new WorkEstimator(counts);
        this.nanoTime = nanoTime;
        configure(List.of(), List.of());
    }

    /** Receives the dispatched and rejected requests, for metrics. */
    /** Where the requests waiting in queues are counted (kube's waiting watermark, current_inqueue_requests). */
    public void countWaiting(RequestMetrics requests) {
        this.waiting = requests;
    }

    public void onEvent(Consumer<Event> events) {
        this.listener = events;
    }

    int serverSeats() {
        return serverSeats;
    }

    /**
     * Replaces the configuration: FlowSchemas naming a level that does not exist are ignored (dangling),
     * the mandatory {@code exempt} and {@code catch-all} schemas and levels stand in while their objects
     * are missing, as kube's config controller does.
     *
     * @return the names of the dangling schemas
     */
    Set<String> configure(List<FlowSchema> schemas, List<PriorityLevel> configured) {
        Map<String, PriorityLevel> wanted = new LinkedHashMap<>();
        configured.forEach(pl -> wanted.put(pl.name(), pl));
        wanted.putIfAbsent(PriorityLevel.EXEMPT, PriorityLevel.mandatoryExempt());
        wanted.putIfAbsent(PriorityLevel.CATCH_ALL, PriorityLevel.mandatoryCatchAll());
        List<FlowSchema> usable = new ArrayList<>();
        Set<String> dangling = new java.util.TreeSet<>();
        boolean exempt = false;
        boolean catchAll = false;
        for (FlowSchema fs : schemas) {
            if (!wanted.containsKey(fs.level())) {
                dangling.add(fs.name());
                continue;
            }
            usable.add(fs);
            exempt |= fs.name().equals(FlowSchema.EXEMPT);
            catchAll |= fs.name().equals(FlowSchema.CATCH_ALL);
        }
        if (!exempt) {
            usable.add(FlowSchema.mandatoryExempt());
        }
        if (!catchAll) {
            usable.add(FlowSchema.mandatoryCatchAll());
        }
        lock.lock();
        try {
            Map<String, Level> current = new HashMap<>();
            for (PriorityLevel pl : wanted.values()) {
                Level level = levels.computeIfAbsent(pl.name(), n -> new Level(pl));
                reconfigure(level, pl);
                current.put(pl.name(), level);
            }
            for (Level level : levels.values()) {
                level.quiescing = !current.containsKey(level.config.name());
            }
            allot(wanted.values());
            Classifier classifier = new Classifier(usable);
            Route[] routes = classifier.schemas().stream()
                    .map(fs -> Route.of(fs, current.get(fs.level()))).toArray(Route[]::new);
            snapshot = new Snapshot(classifier, routes);
            dropIdleQuiescing();
            dispatchAll();
        } finally {
            lock.unlock();
        }
        return dangling;
    }

    private void reconfigure(Level level, PriorityLevel pl) {
        PriorityLevel old = level.config;
        level.config = pl;
        boolean queuing = !pl.exempt() && pl.queues() > 0;
        if (!queuing) {
            if (level.queues != null) {
                // no more queues: whoever waits is turned away
                for (QueueSet.Queue q : level.queues.queues) {
                    for (Waiter w : List.copyOf(q.waiting)) {
                        reject(w, "concurrency-limit");
                    }
                }
            }
            level.queues = null;
            return;
        }
        if (level.queues == null || old.queues() != pl.queues() || old.handSize() != pl.handSize()) {
            QueueSet fresh = new QueueSet(pl.queues(), nanoTime);
            if (level.queues != null) {
                for (QueueSet.Queue q : level.queues.queues) {
                    for (Waiter w : List.copyOf(q.waiting)) {
                        level.queues.remove(w);
                        if (!fresh.enqueue(w, pl.handSize(), pl.queueLengthLimit())) {
                            reject(w, "queue-full");
                        }
                    }
                }
            }
            level.queues = fresh;
        }
    }

    /** kube's nominal concurrency limits: each level's share of the server's seats, rounded up. */
    private void allot(java.util.Collection<PriorityLevel> configured) {
        long shares = 0;
        for (PriorityLevel pl : configured) {
            shares += pl.shares();
        }
        pool = 0;
        for (PriorityLevel pl : configured) {
            Level level = levels.get(pl.name());
            level.nominal = shares == 0 ? 0 : (int) Math.ceil((double) serverSeats * pl.shares() / shares);
            level.lendable = (int) Math.round(level.nominal * pl.lendablePercent() / 100.0);
            level.borrowingLimit = pl.borrowingLimitPercent() < 0 ? serverSeats
                    : (int) Math.round(level.nominal * pl.borrowingLimitPercent() / 100.0);
            level.maxSeats = maxSeats(level.nominal, pl);
            if (!pl.exempt()) {
                pool += level.lendable;
            }
        }
        poolUsed = 0;
        for (Level level : levels.values()) {
            if (!level.config.exempt()) {
                poolUsed += level.excess();
            }
        }
    }

    /**
     * kube's max seats of a request at a level: 15 % of its nominal seats, at most its nominal seats over
     * its hand size (so that one flow's widest requests cannot fill the level), at least 1, at most the
     * estimator's 10; a level without queues takes up to 10, within its nominal seats.
     */
    static int maxSeats(int nominal, PriorityLevel pl) {
        int max = WorkEstimator.MAX_SEATS;
        if (pl.queues() > 0 && pl.handSize() > 0) {
            max = Math.min(max, Math.max(1, Math.min((int) Math.ceil(0.15 * nominal), nominal / pl.handSize())));
        }
        return Math.max(1, Math.min(max, nominal));
    }

    @Override
    public Admission admit(RequestContext context, Map<String, List<String>> query, Instant waitUntil) {
        if (context.info().longRunning() && context.info().verb() != io.kapi.request.Verb.WATCH) {
            // kube leaves long-running requests other than watches (exec, proxy, logs) alone, unclassified
            return new Admission.Admitted(null, () -> { });
        }
        UserInfo user = context.user() == null ? UserInfo.ANONYMOUS : context.user();
        Snapshot config = snapshot;
        int index = config.classifier().index(context.info(), user);
        if (index < 0) {
            // every configuration has the catch-all schema, which matches everyone
            throw new IllegalStateException("no FlowSchema matched " + context.info().path());
        }
        Route route = config.routes()[index];
        Level level = route.level();
        FlowControl.Classification classification = route.classify(context.info(), user);
        if (route.exemptRunning() != null) {
            level.exemptStarted(route.exemptRunning());
            listener.accept(route.dispatched());
            return new Admission.Admitted(classification, new ExemptRelease(level, route.exemptRunning()));
        }
        Classifier.Match match = new Classifier.Match(route.schema(), classification.flowDistinguisher());
        WorkEstimate estimate = estimator.estimate(context.info(), query);
        lock.lock();
        try {
            int seats = Math.min(estimate.maxSeats(), level.maxSeats);
            Waiter w = new Waiter(match, level, estimate, seats, context.info(), user.name(), lock.newCondition());
            if (level.queues == null) {
                if (fits(level, seats)) {
                    start(w);
                    return admitted(classification, w);
                }
                return rejected(classification, w, "concurrency-limit");
            }
            level.queues.sync(currentLimit(level));
            if (!level.queues.enqueue(w, level.config.handSize(), level.config.queueLengthLimit())) {
                return rejected(classification, w, "queue-full");
            }
            dispatch(level);
            return await(classification, w, waitUntil);
        } finally {
            lock.unlock();
        }
    }

    private Admission await(FlowControl.Classification classification, Waiter w, Instant waitUntil) {
        RequestMetrics counts = waiting;
        RequestMetrics.InFlight queued = counts != null && w.state == Waiter.State.WAITING
                ? counts.waiting(w.info.verb() != null && w.info.verb().writes()) : null;
        try {
            return awaitTurn(classification, w, waitUntil);
        } finally {
            if (queued != null) {
                queued.close();
            }
        }
    }

    private Admission awaitTurn(FlowControl.Classification classification, Waiter w, Instant waitUntil) {
        try {
            while (w.state == Waiter.State.WAITING) {
                long nanos = java.time.Duration.between(Instant.now(), waitUntil).toNanos();
                if (nanos <= 0) {
                    w.queueSet.sync(currentLimit(w.level));
                    w.queueSet.remove(w);
                    w.level.timedOut++;
                    return rejected(classification, w, "time-out");
                }
                w.ready.awaitNanos(nanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (w.state == Waiter.State.WAITING) {
                w.queueSet.sync(currentLimit(w.level));
                w.queueSet.remove(w);
                w.level.cancelled++;
                return rejected(classification, w, "cancelled");
            }
        }
        if (w.state == Waiter.State.REJECTED) {
            return rejected(classification, w, "concurrency-limit");
        }
        return admitted(classification, w);
    }

    private Admission admitted(FlowControl.Classification classification, Waiter w) {
        double waited = java.time.Duration.between(w.arrival, Instant.now()).toNanos() / 1e9;
        listener.accept(new Event("dispatched", w.level.config.name(), w.match.schema().name(), "", waited));
        return new Admission.Admitted(classification, new Release(this, w));
    }

    private Admission rejected(FlowControl.Classification classification, Waiter w, String reason) {
        if (w.state != Waiter.State.REJECTED) {
            w.state = Waiter.State.REJECTED;
            if (reason.equals("concurrency-limit") || reason.equals("queue-full")) {
                w.level.rejected++; // time-outs and cancellations have counters of their own, as kube's dump
            }
        }
        retryAfter.rejected(w.level.config.name());
        double waited = java.time.Duration.between(w.arrival, Instant.now()).toNanos() / 1e9;
        listener.accept(new Event("rejected", w.level.config.name(), w.match.schema().name(), reason, waited));
        LOG.log(System.Logger.Level.DEBUG, "Rejected {0} of {1} at {2}: {3}", w.info.path(), w.user,
                w.level.config.name(), reason);
        return new Admission.Rejected(classification, retryAfter.seconds(w.level.config.name()));
    }

    /** Marks a queued request rejected (its level lost its queues); its thread answers 429. */
    private void reject(Waiter w, String reason) {
        w.state = Waiter.State.REJECTED;
        w.level.rejected++;
        w.ready.signal();
    }

    /** Ends an exempt request exactly once. */
    private static final class ExemptRelease extends java.util.concurrent.atomic.AtomicBoolean implements Runnable {
        private final transient Level level;
        private final transient java.util.concurrent.atomic.AtomicInteger running;

        ExemptRelease(Level level, java.util.concurrent.atomic.AtomicInteger running) {
            this.level = level;
            this.running = running;
        }

        @Override
        public void run() {
            if (compareAndSet(false, true)) {
                level.exemptFinished(running);
            }
        }
    }

    /** Runs one release exactly once. */
    private static final class Release implements Runnable {
        private final PriorityAndFairness owner;
        private final Waiter waiter;
        private final java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();

        Release(PriorityAndFairness owner, Waiter waiter) {
            this.owner = owner;
            this.waiter = waiter;
        }

        @Override
        public void run() {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            long latency = waiter.estimate.additionalLatency().toNanos();
            if (latency > 0 && waiter.estimate.finalSeats() > 0) {
                CompletableFuture.delayedExecutor(latency, TimeUnit.NANOSECONDS).execute(() -> owner.finish(waiter));
            } else {
                owner.finish(waiter);
            }
        }
    }

    /**
     * Whether {@code seats} more fit the level now: within its nominal seats plus its borrowing limit, and
     * whatever goes beyond its guaranteed seats free in the pool of lendable ones.
     */
    private boolean fits(Level level, int seats) {
        if (level.seatsInUse + seats > level.nominal + level.borrowingLimit) {
            return false;
        }
        int after = Math.max(0, level.seatsInUse + seats - level.guaranteed());
        return poolUsed - level.excess() + after <= pool;
    }

    private void start(Waiter w) {
        Level level = w.level;
        if (!level.config.exempt()) {
            poolUsed -= level.excess();
            level.seatsInUse += w.seats;
            poolUsed += level.excess();
        }
        level.executing++;
        level.dispatched++;
        level.running(w.match.schema().name(), 1, w.seats);
        w.state = Waiter.State.EXECUTING;
        w.startNanos = nanoTime.getAsLong();
    }

    private void finish(Waiter w) {
        lock.lock();
        try {
            Level level = w.level;
            if (w.queueSet != null) {
                w.queueSet.sync(currentLimit(level));
            }
            if (!level.config.exempt()) {
                poolUsed -= level.excess();
                level.seatsInUse -= w.seats;
                poolUsed += level.excess();
            }
            level.executing--;
            level.running(w.match.schema().name(), -1, -w.seats);
            w.state = Waiter.State.DONE;
            if (w.queueSet != null) {
                w.queueSet.finished(w, (nanoTime.getAsLong() - w.startNanos) / 1e9);
            }
            dispatchAll();
            dropIdleQuiescing();
        } finally {
            lock.unlock();
        }
    }

    /** Runs what waits and fits, level by level, starting with a different level each time. */
    private void dispatchAll() {
        List<Level> all = List.copyOf(levels.values());
        if (all.isEmpty()) {
            return;
        }
        rotation = (rotation + 1) % all.size();
        for (int i = 0; i < all.size(); i++) {
            dispatch(all.get((rotation + i) % all.size()));
        }
    }

    /** Runs the requests fair queuing picks while they fit; a wide one that does not fit holds the line. */
    private void dispatch(Level level) {
        if (level.queues == null) {
            return;
        }
        level.queues.sync(currentLimit(level));
        Waiter next;
        while ((next = level.queues.next()) != null && fits(level, next.seats)) {
            level.queues.dispatch(next);
            start(next);
            next.ready.signal();
        }
    }

    private void dropIdleQuiescing() {
        levels.values().removeIf(level -> level.quiescing && level.idle());
    }

    /**
     * The seats a level could use now: its guaranteed ones, plus as many of its lendable and borrowable
     * ones as the pool has free (kube's current concurrency limit, here changing with every request).
     */
    int currentLimit(Level level) {
        if (level.config.exempt()) {
            return level.nominal;
        }
        int free = Math.max(0, pool - poolUsed + level.excess());
        return level.guaranteed() + Math.min(level.lendable + level.borrowingLimit, free);
    }

    /** The levels' state, for the debug dumps and metrics; taken under the lock. */
    <T> T inspect(java.util.function.Function<List<Level>, T> reader) {
        lock.lock();
        try {
            return reader.apply(List.copyOf(levels.values()));
        } finally {
            lock.unlock();
        }
    }
}
