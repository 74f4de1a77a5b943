package io.kapi.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiFunction;

/**
 * kube-apiserver's admission families: each plugin's and each step's latency, webhook latency, requests
 * and rejections, validating admission policy checks, CRD conversion webhooks and aggregated API availability.
 */
public final class AdmissionMetrics {

    private static final double[] ADMISSION_BUCKETS = {0.005, 0.025, 0.1, 0.5, 1.0, 2.5};

    private final HistogramFamily controller;
    private final HistogramFamily step;
    private final HistogramFamily webhook;
    private final CounterFamily webhookRequests;
    private final CounterFamily webhookRejections;
    private final CounterFamily webhookFailOpen;
    private final CounterFamily policyChecks;
    private final HistogramFamily policyDuration;
    private final HistogramFamily conversion;
    private final GaugeFamily unavailable;
    private final CounterFamily unavailableTotal;

    AdmissionMetrics(Metrics metrics) {
        controller = metrics.histogram(Definition.of("apiserver_admission_controller_admission_duration_seconds",
                Stability.STABLE, "Admission controller latency histogram in seconds, identified by name and broken "
                        + "out for each operation and API resource and type (validate or admit).",
                "name", "operation", "rejected", "type"), ADMISSION_BUCKETS);
        step = metrics.histogram(Definition.of("apiserver_admission_step_admission_duration_seconds",
                Stability.STABLE, "Admission sub-step latency histogram in seconds, broken out for each operation "
                        + "and API resource and step type (validate or admit).",
                "operation", "rejected", "type"), ADMISSION_BUCKETS);
        webhook = metrics.histogram(Definition.of("apiserver_admission_webhook_admission_duration_seconds",
                Stability.STABLE, "Admission webhook latency histogram in seconds, identified by name and broken "
                        + "out for each operation and API resource and type (validate or admit).",
                "name", "operation", "rejected", "type"), 0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25);
        webhookRequests = metrics.counter(Definition.of("apiserver_admission_webhook_request_total",
                Stability.ALPHA, "Admission webhook request total, identified by name and broken out for each "
                        + "admission type (validating or mutating) and operation. Additional labels specify whether "
                        + "the request was rejected or not and an HTTP status code. Codes greater than 600 are "
                        + "truncated to 600, to keep the metrics cardinality bounded.",
                "name", "type", "operation", "code", "rejected"));
        webhookRejections = metrics.counter(Definition.of("apiserver_admission_webhook_rejection_count",
                Stability.ALPHA, "Admission webhook rejection count, identified by name and broken out for each "
                        + "admission type (validating or admit) and operation. Additional labels specify an error "
                        + "type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error "
                        + "otherwise) and optionally a non-zero rejection code if the webhook rejects the request "
                        + "with an HTTP status code (honored by the apiserver when the code is greater or equal to "
                        + "400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality "
                        + "bounded.",
                "name", "type", "operation", "error_type", "rejection_code"));
        webhookFailOpen = metrics.counter(Definition.of("apiserver_admission_webhook_fail_open_count",
                Stability.ALPHA, "Admission webhook fail open count, identified by name and broken out for each "
                        + "admission type (validating or admit).", "name", "type"));
        policyChecks = metrics.counter(Definition.of("apiserver_validating_admission_policy_check_total",
                Stability.BETA, "Validation admission policy check total, labeled by policy and further identified "
                        + "by binding and enforcement action taken.",
                "policy", "policy_binding", "error_type", "enforcement_action"));
        policyDuration = metrics.histogram(Definition.of(
                "apiserver_validating_admission_policy_check_duration_seconds", Stability.BETA,
                "Validation admission latency for individual validation expressions in seconds, labeled by policy "
                        + "and further including binding and enforcement action taken.",
                "policy", "policy_binding", "error_type", "enforcement_action"), 0.0000005, 0.001, 0.01, 0.1, 1.0);
        conversion = metrics.histogram(Definition.of("apiserver_crd_conversion_webhook_duration_seconds",
                Stability.ALPHA, "CRD webhook conversion duration in seconds",
                "crd_name", "from_version", "to_version", "succeeded"),
                0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25);
        unavailable = metrics.gauge(Definition.of("aggregator_unavailable_apiservice", Stability.ALPHA,
                "Gauge of APIServices which are marked as unavailable broken down by APIService name.", "name"));
        unavailableTotal = metrics.untypedCounter(Definition.of("aggregator_unavailable_apiservice_total", Stability.ALPHA,
                "Counter of APIServices which are marked as unavailable broken down by APIService name and reason.",
                "name", "reason"));
    }

    /** The timer of one plugin's admit or validate step ({@code type} {@code admit} or {@code validate}). */
    public StepTimer plugin(String name, String type) {
        return new StepTimer((operation, rejected) -> controller.series(name, operation, rejected, type));
    }

    /** The timer of a whole admission step (every plugin of one type) of a request. */
    public StepTimer step(String type) {
        return new StepTimer((operation, rejected) -> step.series(operation, rejected, type));
    }

    /**
     * Observes one admission plugin's or step's latencies. A chain makes one per plugin and step when it is
     * built, so a request finds its series by its operation alone (a constant: one lookup by identity) rather
     * than by all its label values each time.
     */
    public static final class StepTimer {

        private final BiFunction<String, String, DistributionDataPoint> series;
        /** By operation: the series of accepted and of rejected requests, each made when first observed. */
        private final Map<String, AtomicReferenceArray<DistributionDataPoint>> byOperation = new ConcurrentHashMap<>();

        StepTimer(BiFunction<String, String, DistributionDataPoint> series) {
            this.series = series;
        }

        /** Observes the seconds since {@code startNanos} ({@link System#nanoTime()}). */
        public void observeSince(String operation, boolean rejected, long startNanos) {
            AtomicReferenceArray<DistributionDataPoint> points = byOperation.get(operation);
            if (points == null) {
                points = byOperation.computeIfAbsent(operation, o -> new AtomicReferenceArray<>(2));
            }
            int index = rejected ? 1 : 0;
            DistributionDataPoint point = points.get(index);
            if (point == null) { // the family keeps one series per label values: racing makers get the same
                point = series.apply(operation, Boolean.toString(rejected));
                points.set(index, point);
            }
            point.observe((System.nanoTime() - startNanos) / 1e9);
        }
    }

    /**
     * One webhook call: {@code type} {@code admit} or {@code validating}; {@code code} the HTTP status (0 when
     * no answer came).
     */
    public void webhook(String name, String type, String operation, boolean rejected, int code, long startNanos) {
        webhook.observeSince(startNanos, name, operation, Boolean.toString(rejected), type);
        webhookRequests.inc(name, type, operation, Integer.toString(Math.min(code, 600)), Boolean.toString(rejected));
    }

    /**
     * A webhook's rejection of a request: {@code errorType} {@code calling_webhook_error} (the call failed and
     * the webhook fails closed), {@code apiserver_internal_error} or {@code no_error} (the webhook denied it).
     */
    public void webhookRejection(String name, String type, String operation, String errorType, int code) {
        webhookRejections.inc(name, type, operation, errorType, Integer.toString(Math.min(code, 600)));
    }

    /** A failed call of a webhook whose failure policy is Ignore. */
    public void webhookFailOpen(String name, String type) {
        webhookFailOpen.inc(name, type);
    }

    /** One binding's check of a validating admission policy. */
    public void policyCheck(String policy, String binding, String errorType, String action, long startNanos) {
        policyChecks.inc(policy, binding, errorType, action);
        policyDuration.observeSince(startNanos, policy, binding, errorType, action);
    }

    public void conversion(String crd, String from, String to, boolean succeeded, long startNanos) {
        conversion.observeSince(startNanos, crd, from, to, Boolean.toString(succeeded));
    }

    /** Whether an APIService is available, as its last check found. */
    public void apiService(String name, boolean available) {
        unavailable.set(available ? 0 : 1, name);
    }

    /** An APIService that was available and is no longer, for {@code reason} (its condition's). */
    public void apiServiceBecameUnavailable(String name, String reason) {
        unavailableTotal.inc(name, reason);
    }

    /** An APIService deleted: its series goes. */
    public void apiServiceGone(String name) {
        unavailable.remove(name);
    }
}
