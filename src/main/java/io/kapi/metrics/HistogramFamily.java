package io.kapi.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;

/** A histogram family of kube's (classic buckets only, kube's bounds), its label values bounded by the allow-list. */
public final class HistogramFamily {

    private final ClassicHistogram histogram;
    private final LabelAllowList allow;

    HistogramFamily(ClassicHistogram histogram, LabelAllowList allow) {
        this.histogram = histogram;
        this.allow = allow;
    }

    public void observe(double value, String... labels) {
        series(labels).observe(value);
    }

    /** Observes the seconds since {@code startNanos} ({@link System#nanoTime()}). */
    public void observeSince(long startNanos, String... labels) {
        series(labels).observe((System.nanoTime() - startNanos) / 1e9);
    }

    public DistributionDataPoint series(String... labels) {
        return histogram.series(allow == null ? labels : allow.apply(labels));
    }
}
