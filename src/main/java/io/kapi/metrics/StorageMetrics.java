package io.kapi.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * kube-apiserver's storage families ({@code k8s.io/apiserver/pkg/storage/etcd3/metrics}), 1.34's labels:
 * etcd request latency, counts and errors by operation, group and resource, for the embedded store as for
 * etcd; the object counts ({@code apiserver_resource_objects}, and {@code apiserver_storage_objects},
 * deprecated in 1.34); the database's size.
 */
public final class StorageMetrics {

    private final Metrics metrics;
    private final HistogramFamily duration;
    private final CounterFamily requests;
    private final CounterFamily errors;
    /** By operation, group and resource. */
    private final Map<String, Map<String, Map<String, Series>>> byOperation = new ConcurrentHashMap<>();

    StorageMetrics(Metrics metrics) {
        this.metrics = metrics;
        duration = metrics.histogram(Definition.of("etcd_request_duration_seconds", Stability.ALPHA,
                "Etcd request latency in seconds for each operation and object type.", "operation", "group",
                "resource"), RequestMetrics.LATENCY_BUCKETS);
        requests = metrics.counter(Definition.of("etcd_requests_total", Stability.ALPHA,
                "Etcd request counts for each operation and object type.", "operation", "group", "resource"));
        errors = metrics.counter(Definition.of("etcd_request_errors_total", Stability.ALPHA,
                "Etcd failed request counts for each operation and object type.", "operation", "group", "resource"));
    }

    /**
     * Records one request to the store, from {@code startNanos}; {@code failed} when it ended in an error. The
     * operation is one of a few constants, group and resource the callers' own strings: the series are found
     * through three small maps by those, without a key made per request.
     */
    public void request(String operation, String group, String resource, long startNanos, boolean failed) {
        Series series = series(operation, group, resource);
        series.duration.observe((System.nanoTime() - startNanos) / 1e9);
        series.count.add(1);
        if (failed) {
            errors.inc(operation, group, resource);
        }
    }

    private Series series(String operation, String group, String resource) {
        Map<String, Map<String, Series>> byGroup = byOperation.get(operation);
        Map<String, Series> byResource = byGroup == null ? null : byGroup.get(group);
        Series series = byResource == null ? null : byResource.get(resource);
        if (series == null) { // label values are bounded: served resources, the store's operations
            series = byOperation.computeIfAbsent(operation, o -> new ConcurrentHashMap<>())
                    .computeIfAbsent(group, g -> new ConcurrentHashMap<>())
                    .computeIfAbsent(resource, r -> new Series(duration.series(operation, group, r),
                            requests.series(operation, group, r)));
        }
        return series;
    }

    /** The latency and count series of one operation on one resource. */
    private record Series(DistributionDataPoint duration, CounterFamily.CounterSeries count) {
    }

    /**
     * Registers the object counts, read when scraped: {@code counts} calls its callback once per served
     * resource with {@code (count, group, resource)}.
     */
    public void objectCounts(Consumer<ObjectCount> counts) {
        metrics.gaugeReading(Definition.of("apiserver_resource_objects", Stability.ALPHA,
                "Number of stored objects at the time of last check split by kind. In case of a fetching error, "
                        + "the value will be -1.", "group", "resource"),
                callback -> counts.accept((count, group, resource) -> callback.call(count, group, resource)));
        metrics.gaugeReading(Definition.of("apiserver_storage_objects", Stability.STABLE,
                "[DEPRECATED, consider using apiserver_resource_objects instead] Number of stored objects at the "
                        + "time of last check split by kind. In case of a fetching error, the value will be -1.",
                "resource").deprecatedIn("1.34.0"),
                callback -> counts.accept((count, group, resource) -> callback.call(count,
                        group.isEmpty() ? resource : resource + "." + group)));
    }

    /** One resource's object count. */
    @FunctionalInterface
    public interface ObjectCount {
        void count(double count, String group, String resource);
    }

    /** Registers the store's size in bytes, read when scraped ({@code -1} when it cannot be read). */
    public void databaseSize(java.util.function.LongSupplier bytes) {
        metrics.gaugeReading(Definition.of("apiserver_storage_size_bytes", Stability.STABLE,
                "Size of the storage database file physically allocated in bytes.", "storage_cluster_id"),
                callback -> {
                    long size = bytes.getAsLong();
                    if (size >= 0) {
                        callback.call(size, "etcd-0");
                    }
                });
    }
}
