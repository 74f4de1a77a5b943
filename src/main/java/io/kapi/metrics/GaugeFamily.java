package io.kapi.metrics;

import io.prometheus.metrics.core.datapoints.GaugeDataPoint;
import io.prometheus.metrics.core.metrics.Gauge;

/** A gauge family of kube's, its label values bounded by the allow-list. */
public final class GaugeFamily {

    private final Gauge gauge;
    private final LabelAllowList allow;

    GaugeFamily(Gauge gauge, LabelAllowList allow) {
        this.gauge = gauge;
        this.allow = allow;
    }

    public void set(double value, String... labels) {
        series(labels).set(value);
    }

    public void inc(String... labels) {
        series(labels).inc();
    }

    public void dec(String... labels) {
        series(labels).dec();
    }

    /** Drops the series of {@code labels} (a resource no longer served). */
    public void remove(String... labels) {
        gauge.remove(allow == null ? labels : allow.apply(labels));
    }

    public GaugeDataPoint series(String... labels) {
        return labels.length == 0 ? gauge : gauge.labelValues(allow == null ? labels : allow.apply(labels));
    }
}
