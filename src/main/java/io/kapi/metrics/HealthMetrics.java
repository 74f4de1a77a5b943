package io.kapi.metrics;

/**
 * The component SLIs of {@code /metrics/slis}: each health check's last result and the count of results by
 * status, per endpoint ({@code healthz}, {@code livez}, {@code readyz}).
 */
public final class HealthMetrics {

    private final GaugeFamily last;
    private final CounterFamily results;

    HealthMetrics(Metrics metrics) {
        last = metrics.gauge(Definition.of("kubernetes_healthcheck", Stability.STABLE,
                "This metric records the result of a single healthcheck.", "name", "type"), metrics.slisRegistry());
        results = metrics.counter(Definition.of("kubernetes_healthchecks_total", Stability.STABLE,
                "This metric records the results of all healthcheck.", "name", "status", "type"),
                metrics.slisRegistry());
    }

    /** A check's result on endpoint {@code type}: {@code status} {@code success} or {@code error}. */
    public void checked(String name, String type, boolean success) {
        last.set(success ? 1 : 0, name, type);
        results.inc(name, success ? "success" : "error", type);
    }
}
