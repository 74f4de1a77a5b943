package io.kapi.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * A histogram with classic buckets only, kube's kind, whose series count into striped counters. The client
 * library's {@code Histogram} keeps its scrapes consistent by counting every observation on one
 * {@code AtomicLong} per series, twice: on a request path that observes a dozen histograms, those shared
 * counters were most of the metrics' cost (JFR), and more so the more cores meet on them. Here a bucket is a
 * {@link LongAdder} and the sum a {@link DoubleAdder}, as client_golang's histograms are lock-free counters;
 * the library still writes the formats, from the snapshot this collector makes.
 *
 * <p>A scrape reads the buckets one after another: an observation made meanwhile may show in its bucket
 * before it shows in the sum, never in {@code _count} without its bucket ({@code _count} is the buckets' total).
 */
final class ClassicHistogram implements Collector {

    private final Definition definition;
    /** The finite upper bounds, ascending; the last bucket is {@code +Inf}. */
    private final double[] bounds;
    private final double[] exposedBounds;
    /** The series made so far, by their label values (bounded by the family's allow-list and callers). */
    private final Map<SeriesKey, Series> series = new ConcurrentHashMap<>();

    ClassicHistogram(Definition definition, double[] bounds) {
        double[] sorted = Arrays.stream(bounds).filter(Double::isFinite).sorted().distinct().toArray();
        this.definition = definition;
        this.bounds = sorted;
        this.exposedBounds = Arrays.copyOf(sorted, sorted.length + 1);
        exposedBounds[sorted.length] = Double.POSITIVE_INFINITY;
        if (definition.labelNames().length == 0) {
            series(); // a histogram without labels is exposed, empty, from the start, as client_golang's
        }
    }

    /** The series of these label values (in the definition's order), made when first asked for. */
    Series series(String... labelValues) {
        if (labelValues.length != definition.labelNames().length) {
            throw new IllegalArgumentException(definition.name() + " has labels " + List.of(definition.labelNames())
                    + ", given " + labelValues.length + " values");
        }
        Series known = series.get(new SeriesKey(labelValues));
        if (known != null) {
            return known;
        }
        String[] values = labelValues.clone(); // the caller's array may change later
        return series.computeIfAbsent(new SeriesKey(values), k -> new Series(values));
    }

    @Override
    public MetricSnapshot collect() {
        HistogramSnapshot.Builder builder = HistogramSnapshot.builder().name(definition.name())
                .help(definition.exposedHelp());
        String[] names = definition.labelNames();
        series.values().forEach(s -> builder.dataPoint(s.snapshot(Labels.of(names, s.labelValues))));
        return builder.build();
    }

    @Override
    public String getPrometheusName() {
        return definition.name();
    }

    /** One series: its buckets' counts, not cumulative, and the sum of what it observed. */
    final class Series implements DistributionDataPoint {

        private final String[] labelValues;
        private final LongAdder[] buckets = new LongAdder[bounds.length + 1];
        private final DoubleAdder sum = new DoubleAdder();
        private final long createdMillis = System.currentTimeMillis();

        Series(String[] labelValues) {
            this.labelValues = labelValues;
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] = new LongAdder();
            }
        }

        @Override
        public void observe(double value) {
            // kube's latencies fall mostly in the first buckets: a scan from the start beats a binary search
            int i = 0;
            while (i < bounds.length && !(value <= bounds[i])) {
                i++;
            }
            buckets[i].increment(); // NaN, as in the client libraries, counts in +Inf and makes the sum NaN
            sum.add(value);
        }

        @Override
        public void observeWithExemplar(double value, Labels labels) {
            observe(value); // kube's histograms carry no exemplars
        }

        @Override
        public long getCount() {
            long count = 0;
            for (LongAdder bucket : buckets) {
                count += bucket.sum();
            }
            return count;
        }

        @Override
        public double getSum() {
            return sum.sum();
        }

        HistogramSnapshot.HistogramDataPointSnapshot snapshot(Labels labels) {
            long[] counts = new long[buckets.length];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = buckets[i].sum();
            }
            return HistogramSnapshot.HistogramDataPointSnapshot.builder()
                    .classicHistogramBuckets(ClassicHistogramBuckets.of(exposedBounds, counts))
                    .sum(sum.sum()).labels(labels).createdTimestampMillis(createdMillis).build();
        }
    }
}
