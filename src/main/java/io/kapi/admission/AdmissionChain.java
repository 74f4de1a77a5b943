package io.kapi.admission;

import io.kapi.metrics.AdmissionMetrics;
import io.kapi.tracing.TraceScope;
import io.kapi.tracing.Tracing;
import java.util.ArrayList;
import java.util.List;

/**
 * The admission plugins a server runs, in kube-apiserver's order: the store's write pipeline calls
 * {@link #admit} after defaulting and field tracking, and {@link #validate} after the object passed
 * validation, just before it is stored. The first plugin that refuses ends the request.
 */
public final class AdmissionChain {

    /** No plugins at all. */
    public static final AdmissionChain NONE = new AdmissionChain(List.of());

    private final List<AdmissionPlugin> plugins;
    private final List<MutatingPlugin> mutating = new ArrayList<>();
    private final List<ValidatingPlugin> validating = new ArrayList<>();
    private final AdmissionMetrics metrics;

    public AdmissionChain(List<AdmissionPlugin> plugins) {
        this(plugins, null);
    }

    private AdmissionChain(List<AdmissionPlugin> plugins, AdmissionMetrics metrics) {
        this.metrics = metrics;
        this.plugins = List.copyOf(plugins);
        for (AdmissionPlugin p : this.plugins) {
            if (p instanceof MutatingPlugin m) {
                mutating.add(m);
            }
            if (p instanceof ValidatingPlugin v) {
                validating.add(v);
            }
        }
    }

    /**
     * Runs the mutating plugins that handle the operation, in order; once more, all of them, when a
     * reinvocable plugin asks for it (kube's {@code reinvoker}: the built-in plugins are idempotent, the
     * reinvocable ones run again only what needs it).
     */
    public void admit(Attributes attributes) {
        long start = System.nanoTime();
        boolean rejected = true;
        try {
            Reinvocation reinvocation = new Reinvocation();
            admitOnce(attributes, reinvocation);
            if (reinvocation.requested()) {
                reinvocation.startReinvoke();
                admitOnce(attributes, reinvocation);
            }
            rejected = false;
        } finally {
            if (metrics != null && !mutating.isEmpty()) {
                metrics.step(attributes.operation().name(), rejected, "admit", start);
            }
        }
    }

    private void admitOnce(Attributes attributes, Reinvocation reinvocation) {
        for (MutatingPlugin p : mutating) {
            if (!p.handles(attributes.operation())) {
                continue;
            }
            long start = System.nanoTime();
            boolean rejected = true;
            try (TraceScope span = Tracing.start("Admit " + p.name(), "plugin", p.name())) {
                if (p instanceof ReinvocablePlugin r) {
                    r.admit(attributes, reinvocation);
                } else {
                    p.admit(attributes);
                }
                rejected = false;
            } finally {
                if (metrics != null) {
                    metrics.plugin(p.name(), attributes.operation().name(), rejected, "admit", start);
                }
            }
        }
    }

    /** Runs the validating plugins that handle the operation, in order. */
    public void validate(Attributes attributes) {
        long stepStart = System.nanoTime();
        boolean stepRejected = true;
        try {
            for (ValidatingPlugin p : validating) {
                if (!p.handles(attributes.operation())) {
                    continue;
                }
                long start = System.nanoTime();
                boolean rejected = true;
                try (TraceScope span = Tracing.start("Validate " + p.name(), "plugin", p.name())) {
                    p.validate(attributes);
                    rejected = false;
                } finally {
                    if (metrics != null) {
                        metrics.plugin(p.name(), attributes.operation().name(), rejected, "validate", start);
                    }
                }
            }
            stepRejected = false;
        } finally {
            if (metrics != null && !validating.isEmpty()) {
                metrics.step(attributes.operation().name(), stepRejected, "validate", stepStart);
            }
        }
    }

    /**
     * This chain with each plugin's and each step's latency recorded in {@code admissionMetrics} (kube's
     * {@code apiserver_admission_controller_admission_duration_seconds} and
     * {@code apiserver_admission_step_admission_duration_seconds}).
     */
    public AdmissionChain withMetrics(AdmissionMetrics admissionMetrics) {
        return new AdmissionChain(plugins, admissionMetrics);
    }

    /** This chain with {@code plugin} run before every other plugin. */
    public AdmissionChain withFirst(AdmissionPlugin plugin) {
        List<AdmissionPlugin> all = new ArrayList<>();
        all.add(plugin);
        all.addAll(plugins);
        return new AdmissionChain(all, metrics);
    }

    /** The names of the plugins, in order. */
    public List<String> names() {
        return plugins.stream().map(AdmissionPlugin::name).toList();
    }
}
