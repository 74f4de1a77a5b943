package io.kapi.metrics;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * A kube counter whose name does not end in {@code _total} ({@code authentication_attempts},
 * {@code apiserver_admission_webhook_rejection_count}). Prometheus' Java client writes every counter with a
 * {@code _total} suffix, which would rename it and break the queries that read it; this one keeps kube's name
 * and is exposed untyped ({@code # TYPE name untyped}), which PromQL reads the same way.
 */
final class UntypedCounter implements Collector {

    private final Definition definition;
    private final Map<List<String>, DoubleAdder> series = new ConcurrentHashMap<>();

    UntypedCounter(Definition definition) {
        this.definition = definition;
    }

    void add(double amount, String... labels) {
        series(labels).add(amount);
    }

    DoubleAdder series(String... labels) {
        return series.computeIfAbsent(Arrays.asList(labels), k -> new DoubleAdder());
    }

    @Override
    public MetricSnapshot collect() {
        UnknownSnapshot.Builder builder = UnknownSnapshot.builder().name(definition.name())
                .help(definition.exposedHelp());
        String[] names = definition.labelNames();
        series.forEach((labels, value) -> builder.dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder()
                .labels(Labels.of(names, labels.toArray(String[]::new))).value(value.sum()).build()));
        return builder.build();
    }

    @Override
    public String getPrometheusName() {
        return definition.name();
    }
}
