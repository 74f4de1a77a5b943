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
    private final List<Stage<MutatingPlugin>> mutating = new ArrayList<>();
    private final List<Stage<ValidatingPlugin>> validating = new ArrayList<>();
    private final AdmissionMetrics metrics;
    private final AdmissionMetrics.StepTimer admitStep;
    private final AdmissionMetrics.StepTimer validateStep;

    /**
     * A plugin in one of its roles, with what each request's run of it needs made once: its span's name and
     * its latency series (null without metrics).
     */
    private record Stage<P>(P plugin, String spanName, String name, AdmissionMetrics.StepTimer timer) {
    }

    public AdmissionChain(List<AdmissionPlugin> plugins) {
        this(plugins, null);
    }

    private AdmissionChain(List<AdmissionPlugin> plugins, AdmissionMetrics metrics) {
        this.metrics = metrics;
        this.plugins = List.copyOf(plugins);
        for (AdmissionPlugin p : this.plugins) {
            if (p instanceof MutatingPlugin m) {
                mutating.add(new Stage<>(m, "Admit " + p.name(), p.name(),
                        metrics == null ? null : metrics.plugin(p.name(), "admit")));
            }
            if (p instanceof ValidatingPlugin v) {
                validating.add(new Stage<>(v, "Validate " + p.name(), p.name(),
                        metrics == null ? null : metrics.plugin(p.name(), "validate")));
            }
        }
        admitStep = metrics == null ? null : metrics.step("admit");
        validateStep = metrics == null ? null : metrics.step("validate");
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
            if (admitStep != null && !mutating.isEmpty()) {
                admitStep.observeSince(attributes.operation().name(), rejected, start);
            }
        }
    }

    private void admitOnce(Attributes attributes, Reinvocation reinvocation) {
        for (Stage<MutatingPlugin> stage : mutating) {
            MutatingPlugin p = stage.plugin();
            if (!p.handles(attributes.operation())) {
                continue;
            }
            long start = System.nanoTime();
            boolean rejected = true;
            try (TraceScope span = Tracing.start(stage.spanName(), "plugin", stage.name())) {
                if (p instanceof ReinvocablePlugin r) {
                    r.admit(attributes, reinvocation);
                } else {
                    p.admit(attributes);
                }
                rejected = false;
            } finally {
                if (stage.timer() != null) {
                    stage.timer().observeSince(attributes.operation().name(), rejected, start);
                }
            }
        }
    }

    /** Runs the validating plugins that handle the operation, in order. */
    public void validate(Attributes attributes) {
        long stepStart = System.nanoTime();
        boolean stepRejected = true;
        try {
            for (Stage<ValidatingPlugin> stage : validating) {
                ValidatingPlugin p = stage.plugin();
                if (!p.handles(attributes.operation())) {
                    continue;
                }
                long start = System.nanoTime();
                boolean rejected = true;
                try (TraceScope span = Tracing.start(stage.spanName(), "plugin", stage.name())) {
                    p.validate(attributes);
                    rejected = false;
                } finally {
                    if (stage.timer() != null) {
                        stage.timer().observeSince(attributes.operation().name(), rejected, start);
                    }
                }
            }
            stepRejected = false;
        } finally {
            if (validateStep != null && !validating.isEmpty()) {
                validateStep.observeSince(attributes.operation().name(), stepRejected, stepStart);
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
