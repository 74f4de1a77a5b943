package io.kapi.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * kube-apiserver's request families ({@code k8s.io/apiserver/pkg/endpoints/metrics}): counts, latencies and
 * sizes by verb, group, version, resource, subresource, scope and component; the long-running and in-flight
 * gauges; aborts, terminations, deprecated API use, self-requests and TLS handshake errors.
 */
public final class RequestMetrics {

    /** kube's request latency buckets (seconds), also etcd's. */
    public static final double[] LATENCY_BUCKETS = {0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2,
        3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60};
    /** kube's SLI latency buckets: the mixin's SLO rules read {@code le="1"}, {@code "5"} and {@code "30"}. */
    static final double[] SLI_BUCKETS = {0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20,
        30, 45, 60};

    private final CounterFamily total;
    private final HistogramFamily duration;
    private final HistogramFamily sliDuration;
    private final HistogramFamily sizes;
    private final GaugeFamily longRunning;
    private final CounterFamily aborts;
    private final CounterFamily terminations;
    private final GaugeFamily deprecated;
    private final CounterFamily self;
    private final CounterFamily handshakeErrors;
    /** The series of each request shape seen, found with one lookup per request instead of one per family. */
    private final Map<Labels, Series> series = new ConcurrentHashMap<>();
    private final InFlightWatermark readOnly = new InFlightWatermark();
    private final InFlightWatermark mutating = new InFlightWatermark();
    private final InFlightWatermark readOnlyWaiting = new InFlightWatermark();
    private final InFlightWatermark mutatingWaiting = new InFlightWatermark();

    RequestMetrics(Metrics metrics) {
        total = metrics.counter(Definition.of("apiserver_request_total", Stability.STABLE,
                "Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, "
                        + "scope, component, and HTTP response code.",
                "verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component", "code"));
        duration = metrics.histogram(Definition.of("apiserver_request_duration_seconds", Stability.STABLE,
                "Response latency distribution in seconds for each verb, dry run value, group, version, resource, "
                        + "subresource, scope and component.",
                "verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component"),
                LATENCY_BUCKETS);
        sliDuration = metrics.histogram(Definition.of("apiserver_request_sli_duration_seconds", Stability.ALPHA,
                "Response latency distribution (not counting webhook duration and priority & fairness queue wait "
                        + "times) in seconds for each verb, group, version, resource, subresource, scope and component.",
                "verb", "group", "version", "resource", "subresource", "scope", "component"), SLI_BUCKETS);
        sizes = metrics.histogram(Definition.of("apiserver_response_sizes", Stability.STABLE,
                "Response size distribution in bytes for each group, version, verb, resource, subresource, scope "
                        + "and component.",
                "verb", "group", "version", "resource", "subresource", "scope", "component"),
                Metrics.exponential(1000, 10, 8));
        longRunning = metrics.gauge(Definition.of("apiserver_longrunning_requests", Stability.STABLE,
                "Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, "
                        + "scope and component. Not all requests are tracked this way.",
                "verb", "group", "version", "resource", "subresource", "scope", "component"));
        aborts = metrics.counter(Definition.of("apiserver_request_aborts_total", Stability.ALPHA,
                "Number of requests which apiserver aborted possibly due to a timeout, for each group, version, "
                        + "verb, resource, subresource and scope",
                "verb", "group", "version", "resource", "subresource", "scope"));
        terminations = metrics.counter(Definition.of("apiserver_request_terminations_total", Stability.ALPHA,
                "Number of requests which apiserver terminated in self-defense.",
                "verb", "group", "version", "resource", "subresource", "scope", "component", "code"));
        deprecated = metrics.gauge(Definition.of("apiserver_requested_deprecated_apis", Stability.STABLE,
                "Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, "
                        + "subresource, and removed_release.",
                "group", "version", "resource", "subresource", "removed_release"));
        self = metrics.counter(Definition.of("apiserver_selfrequest_total", Stability.ALPHA,
                "Counter of apiserver self-requests broken out for each verb, API resource and subresource.",
                "verb", "resource", "subresource"));
        handshakeErrors = metrics.counter(Definition.of("apiserver_tls_handshake_errors_total", Stability.ALPHA,
                "Number of requests dropped with 'TLS handshake error from' error"));
        Definition inflight = Definition.of("apiserver_current_inflight_requests", Stability.STABLE,
                "Maximal number of currently used inflight request limit of this apiserver per request kind in "
                        + "last second.", "request_kind");
        metrics.gaugeReading(inflight, callback -> {
            callback.call(readOnly.peak(), "readOnly");
            callback.call(mutating.peak(), "mutating");
        });
        Definition inqueue = Definition.of("apiserver_current_inqueue_requests", Stability.ALPHA,
                "Maximal number of queued requests in this apiserver per request kind in last second.", "request_kind");
        metrics.gaugeReading(inqueue, callback -> {
            callback.call(readOnlyWaiting.peak(), "readOnly");
            callback.call(mutatingWaiting.peak(), "mutating");
        });
    }

    /**
     * A request's labels, as kube's {@code MonitorRequest} cleans them. Compared field by field by hand: the
     * filter makes them from constants and the API's own strings, so most comparisons are by identity, and
     * a record's generated methods (through method handles) cost several times more on every request.
     */
    public record Labels(String verb, String dryRun, String group, String version, String resource,
                         String subresource, String scope, String component) {

        @Override
        public boolean equals(Object o) {
            return o instanceof Labels l && same(verb, l.verb) && same(resource, l.resource)
                    && same(scope, l.scope) && same(version, l.version) && same(group, l.group)
                    && same(subresource, l.subresource) && same(dryRun, l.dryRun) && same(component, l.component);
        }

        private static boolean same(String a, String b) {
            return a == b || a != null && a.equals(b);
        }

        @Override
        public int hashCode() {
            int h = Objects.hashCode(verb);
            h = 31 * h + Objects.hashCode(dryRun);
            h = 31 * h + Objects.hashCode(group);
            h = 31 * h + Objects.hashCode(version);
            h = 31 * h + Objects.hashCode(resource);
            h = 31 * h + Objects.hashCode(subresource);
            h = 31 * h + Objects.hashCode(scope);
            return 31 * h + Objects.hashCode(component);
        }
    }

    /**
     * Records an answered request: its count, its latency, its SLI latency ({@code sliSeconds}: without the time
     * spent in admission webhooks and the flow-control queue, as kube's) and, for reads, its size.
     */
    public void completed(Labels l, int code, double seconds, double sliSeconds, long responseBytes,
                          boolean longRunning, boolean selfRequest) {
        Series s = series.get(l);
        if (s == null) {
            s = series.computeIfAbsent(l, Series::new);
        }
        s.total(code).add(1);
        s.duration.observe(seconds);
        if (!longRunning) {
            s.sliDuration.observe(sliSeconds);
        }
        if (s.sizes != null && responseBytes >= 0) {
            s.sizes.observe(responseBytes);
        }
        if (selfRequest) {
            self.inc(l.verb, l.resource, l.subresource);
        }
    }

    /**
     * The data points of one request shape (labels are bounded: served resources, known verbs, so are these),
     * its counters by response code made when first needed.
     */
    private final class Series {
        private final Labels l;
        private final DistributionDataPoint duration;
        private final DistributionDataPoint sliDuration;
        private final DistributionDataPoint sizes;
        private final AtomicReferenceArray<CounterFamily.CounterSeries> totals = new AtomicReferenceArray<>(600);

        Series(Labels l) {
            this.l = l;
            duration = RequestMetrics.this.duration.series(l.verb, l.dryRun, l.group, l.version, l.resource,
                    l.subresource, l.scope, l.component);
            sliDuration = RequestMetrics.this.sliDuration.series(l.verb, l.group, l.version, l.resource,
                    l.subresource, l.scope, l.component);
            sizes = l.verb.equals("GET") || l.verb.equals("LIST") ? RequestMetrics.this.sizes.series(l.verb, l.group,
                    l.version, l.resource, l.subresource, l.scope, l.component) : null;
        }

        CounterFamily.CounterSeries total(int code) {
            if (code < 0 || code >= totals.length()) {
                return newTotal(code);
            }
            CounterFamily.CounterSeries known = totals.get(code);
            if (known == null) {
                known = newTotal(code);
                totals.set(code, known);
            }
            return known;
        }

        private CounterFamily.CounterSeries newTotal(int code) {
            return RequestMetrics.this.total.series(l.verb, l.dryRun, l.group, l.version, l.resource, l.subresource,
                    l.scope, l.component, Integer.toString(code));
        }
    }

    public void longRunningStarted(Labels l) {
        longRunning.inc(l.verb, l.group, l.version, l.resource, l.subresource, l.scope, l.component);
    }

    public void longRunningEnded(Labels l) {
        longRunning.dec(l.verb, l.group, l.version, l.resource, l.subresource, l.scope, l.component);
    }

    /** A request the server gave up on (its deadline passed, the client went away while it was answered). */
    public void aborted(Labels l) {
        aborts.inc(l.verb, l.group, l.version, l.resource, l.subresource, l.scope);
    }

    /** A request refused to protect the server (429 of flow control, 504 of a timeout). */
    public void terminated(Labels l, int code) {
        terminations.inc(l.verb, l.group, l.version, l.resource, l.subresource, l.scope, l.component,
                Integer.toString(code));
    }

    public void deprecatedApi(String group, String version, String resource, String subresource, String removedRelease) {
        deprecated.set(1, group, version, resource, subresource, removedRelease);
    }

    public void tlsHandshakeError() {
        handshakeErrors.inc();
    }

    /** Counts a request in flight until the returned handle is closed. */
    public InFlight inFlight(boolean isMutating) {
        InFlightWatermark mark = isMutating ? mutating : readOnly;
        mark.enter();
        return mark::exit;
    }

    /** Counts a request waiting in a flow-control queue until the returned handle is closed. */
    public InFlight waiting(boolean isMutating) {
        InFlightWatermark mark = isMutating ? mutatingWaiting : readOnlyWaiting;
        mark.enter();
        return mark::exit;
    }

    /**
     * Starts a new one-second window of the in-flight and in-queue watermarks where the last has ended: kube's
     * flow-control filter hook does so every second, so that a scrape reads the most of the last whole second
     * however seldom it comes.
     */
    public void maintainWatermarks() {
        readOnly.peak();
        mutating.peak();
        readOnlyWaiting.peak();
        mutatingWaiting.peak();
    }

    /** A request counted in flight; closing it ends the count. */
    @FunctionalInterface
    public interface InFlight extends AutoCloseable {
        @Override
        void close();
    }

    /** The requests in flight (or waiting) and the most of them seen in the current one-second window. */
    private static final class InFlightWatermark {
        private final AtomicInteger current = new AtomicInteger();
        private final AtomicInteger peak = new AtomicInteger();
        private final AtomicLong windowStart = new AtomicLong(System.nanoTime());
        private volatile int lastPeak;

        void enter() {
            int now = current.incrementAndGet();
            peak.accumulateAndGet(now, Math::max);
        }

        void exit() {
            current.decrementAndGet();
        }

        /** The most in flight in the last whole second (kube's watermark), at least those in flight now. */
        int peak() {
            long start = windowStart.get();
            long now = System.nanoTime();
            if (now - start >= 1_000_000_000L && windowStart.compareAndSet(start, now)) {
                lastPeak = peak.getAndSet(current.get());
            }
            return Math.max(lastPeak, current.get());
        }
    }
}
