package io.kapi.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;

/** A counter family of kube's, its label values bounded by the allow-list. */
public final class CounterFamily {

    private final Counter counter;
    private final UntypedCounter untyped;
    private final LabelAllowList allow;
    /** The series made so far (label values are bounded: see {@link LabelAllowList}). */
    private final Map<SeriesKey, CounterSeries> known = new ConcurrentHashMap<>();

    CounterFamily(Counter counter, LabelAllowList allow) {
        this.counter = counter;
        this.untyped = null;
        this.allow = allow;
    }

    CounterFamily(UntypedCounter untyped, LabelAllowList allow) {
        this.counter = null;
        this.untyped = untyped;
        this.allow = allow;
    }

    /** Adds one to the series of {@code labels} (in the definition's order). */
    public void inc(String... labels) {
        add(1, labels);
    }

    /** The series of {@code labels}, to count into without looking it up again. */
    public CounterSeries series(String... labels) {
        String[] values = allow == null ? labels : allow.apply(labels);
        if (values.length == 0) {
            return newSeries(values);
        }
        SeriesKey key = new SeriesKey(values);
        CounterSeries series = known.get(key);
        if (series == null) {
            series = newSeries(values);
            known.putIfAbsent(new SeriesKey(values.clone()), series); // the caller's array may change later
        }
        return series;
    }

    private CounterSeries newSeries(String[] values) {
        if (untyped != null) {
            DoubleAdder adder = untyped.series(values);
            return adder::add;
        }
        CounterDataPoint point = values.length == 0 ? counter : counter.labelValues(values);
        return point::inc;
    }

    /** One series of a counter family. */
    @FunctionalInterface
    public interface CounterSeries {
        void add(double amount);
    }

    public void add(double amount, String... labels) {
        series(labels).add(amount);
    }
}
