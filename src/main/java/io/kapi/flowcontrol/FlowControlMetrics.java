package io.kapi.flowcontrol;

import io.kapi.metrics.CounterFamily;
import io.kapi.metrics.Definition;
import io.kapi.metrics.HistogramFamily;
import io.kapi.metrics.Metrics;
import io.kapi.metrics.Stability;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * kube-apiserver's main {@code apiserver_flowcontrol_*} families, under kube's names, labels, buckets and
 * help texts: requests dispatched and rejected (with the reason: {@code queue-full}, {@code concurrency-limit},
 * {@code time-out}, {@code cancelled}), their wait in queue, and, read when scraped, the requests in queue,
 * the executing requests and seats, and each level's nominal and current limits.
 */
final class FlowControlMetrics implements Consumer<PriorityAndFairness.Event> {

    private static final double[] WAIT_BUCKETS = {0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30};

    private final CounterFamily dispatched;
    private final CounterFamily rejected;
    private final HistogramFamily waits;
    /**
     * Every request is dispatched: its series are found by level, then schema (levels and schemas are few),
     * without a key object per request.
     */
    private final Map<String, Map<String, Dispatched>> dispatchedSeries = new ConcurrentHashMap<>();

    private record Dispatched(CounterFamily.CounterSeries count, DistributionDataPoint waits) {
    }

    FlowControlMetrics(Metrics metrics, PriorityAndFairness dispatcher) {
        dispatched = metrics.counter(Definition.of("apiserver_flowcontrol_dispatched_requests_total", Stability.BETA,
                "Number of requests executed by API Priority and Fairness subsystem", "priority_level", "flow_schema"));
        rejected = metrics.counter(Definition.of("apiserver_flowcontrol_rejected_requests_total", Stability.BETA,
                "Number of requests rejected by API Priority and Fairness subsystem", "priority_level", "flow_schema",
                "reason"));
        waits = metrics.histogram(Definition.of("apiserver_flowcontrol_request_wait_duration_seconds", Stability.BETA,
                "Length of time a request spent waiting in its queue", "priority_level", "flow_schema", "execute"),
                WAIT_BUCKETS);
        metrics.gaugeReading(Definition.of("apiserver_flowcontrol_current_inqueue_requests", Stability.BETA,
                "Number of requests currently pending in queues of the API Priority and Fairness subsystem",
                "priority_level", "flow_schema"), callback -> dispatcher.inspect(levels -> {
                    for (Level level : levels) {
                        if (level.queues == null) {
                            continue;
                        }
                        Map<String, Integer> bySchema = new HashMap<>();
                        for (QueueSet.Queue q : level.queues.queues) {
                            q.waiting.forEach(w -> bySchema.merge(w.match.schema().name(), 1, Integer::sum));
                        }
                        bySchema.forEach((fs, n) -> callback.call(n, level.config.name(), fs));
                    }
                    return null;
                }));
        metrics.gaugeReading(Definition.of("apiserver_flowcontrol_current_executing_requests", Stability.BETA,
                "Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API "
                        + "Priority and Fairness subsystem", "priority_level", "flow_schema"),
                callback -> running(dispatcher, callback, 0));
        metrics.gaugeReading(Definition.of("apiserver_flowcontrol_current_executing_seats", Stability.BETA,
                "Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any "
                        + "stage otherwise) requests in the API Priority and Fairness subsystem",
                "priority_level", "flow_schema"), callback -> running(dispatcher, callback, 1));
        metrics.gaugeReading(Definition.of("apiserver_flowcontrol_nominal_limit_seats", Stability.BETA,
                "Nominal number of execution seats configured for each priority level", "priority_level"),
                callback -> dispatcher.inspect(levels -> {
                    levels.forEach(l -> callback.call(l.nominal, l.config.name()));
                    return null;
                }));
        metrics.gaugeReading(Definition.of("apiserver_flowcontrol_current_limit_seats", Stability.ALPHA,
                "current derived number of execution seats available to each priority level", "priority_level"),
                callback -> dispatcher.inspect(levels -> {
                    levels.forEach(l -> callback.call(dispatcher.currentLimit(l), l.config.name()));
                    return null;
                }));
    }

    private static void running(PriorityAndFairness dispatcher,
                                io.prometheus.metrics.core.metrics.GaugeWithCallback.Callback callback, int index) {
        dispatcher.inspect(levels -> {
            for (Level level : levels) {
                level.runningBySchema.forEach((fs, counts) -> callback.call(counts[index], level.config.name(), fs));
                level.exemptBySchema.forEach((fs, n) -> {
                    if (n.get() > 0) {
                        callback.call(n.get(), level.config.name(), fs);
                    }
                });
            }
            return null;
        });
    }

    /** The series of dispatches at a level by a schema: looked up first, made (capturing lambdas) only once. */
    private Dispatched dispatched(String level, String schema) {
        Map<String, Dispatched> bySchema = dispatchedSeries.get(level);
        Dispatched series = bySchema == null ? null : bySchema.get(schema);
        if (series == null) {
            series = dispatchedSeries.computeIfAbsent(level, l -> new ConcurrentHashMap<>()).computeIfAbsent(schema,
                    s -> new Dispatched(dispatched.series(level, s), waits.series(level, s, "true")));
        }
        return series;
    }

    @Override
    public void accept(PriorityAndFairness.Event e) {
        switch (e.kind()) {
            case "dispatched" -> {
                Dispatched series = dispatched(e.priorityLevel(), e.flowSchema());
                series.count().add(1);
                series.waits().observe(e.waitSeconds());
            }
            default -> {
                rejected.inc(e.priorityLevel(), e.flowSchema(), e.reason());
                waits.observe(e.waitSeconds(), e.priorityLevel(), e.flowSchema(), "false");
            }
        }
    }
}
