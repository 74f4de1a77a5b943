package io.kapi.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A histogram family of kube's (classic buckets only, kube's bounds), its label values bounded by the allow-list. */
public final class HistogramFamily {

    private final ClassicHistogram histogram;
    private final LabelAllowList allow;
    /** The series made so far (label values are bounded: see {@link LabelAllowList}). */
    private final Map<SeriesKey, DistributionDataPoint> known = new ConcurrentHashMap<>();

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
        String[] values = allow == null ? labels : allow.apply(labels);
        SeriesKey key = new SeriesKey(values);
        DistributionDataPoint point = known.get(key);
        if (point == null) {
            point = histogram.series(values);
            known.putIfAbsent(new SeriesKey(values.clone()), point); // the caller's array may change later
        }
        return point;
    }
}
