package io.kapi.metrics;

import io.prometheus.metrics.core.metrics.Counter;

/** A counter family of kube's, its label values bounded by the allow-list. */
public final class CounterFamily {

    private final Counter counter;
    private final UntypedCounter untyped;
    private final LabelAllowList allow;

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

    public void add(double amount, String... labels) {
        String[] values = allow == null ? labels : allow.apply(labels);
        if (untyped != null) {
            untyped.add(amount, values);
        } else if (values.length == 0) {
            counter.inc(amount);
        } else {
            counter.labelValues(values).inc(amount);
        }
    }
}
