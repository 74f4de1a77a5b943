package io.kapi.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One server's metrics: the registry behind {@code /metrics} (kube-apiserver's families under kube's names,
 * label sets, buckets and help texts, the JVM's and the process's), and the one behind {@code /metrics/slis}.
 * Each server of a JVM has its own (tests run several). Components take the group of families they feed:
 * {@link #requests()}, {@link #storage()}, {@link #watches()}, {@link #security()}, {@link #admission()}; a
 * new group registers its families through {@link #counter}, {@link #gauge} and {@link #histogram}, which
 * apply {@code --disabled-metrics}, hidden metrics and {@code --allow-metric-labels}.
 */
public final class Metrics {

    private final MetricsOptions options;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private volatile boolean jvmRegistered;
    private final PrometheusRegistry slis = new PrometheusRegistry();
    private final RequestMetrics requests;
    private final StorageMetrics storage;
    private final WatchMetrics watches;
    private final SecurityMetrics security;
    private final AdmissionMetrics admission;
    private final HealthMetrics health;
    private final EncryptionMetrics encryption;

    private Metrics(MetricsOptions options) {
        this.options = options;
        this.requests = new RequestMetrics(this);
        this.storage = new StorageMetrics(this);
        this.watches = new WatchMetrics(this);
        this.security = new SecurityMetrics(this);
        this.admission = new AdmissionMetrics(this);
        this.health = new HealthMetrics(this);
        this.encryption = new EncryptionMetrics(this);
    }

    /**
     * A server's metrics, with the JVM's and the process's collectors (from the first scrape),
     * {@code kubernetes_build_info} from {@code version} (the fields of {@code /version}) and
     * {@code kubernetes_feature_enabled} from {@code features} (gate name to stage and whether it is on).
     */
    public static Metrics create(MetricsOptions options, Map<String, String> version, Map<String, Feature> features) {
        Metrics metrics = new Metrics(options);
        GaugeFamily build = metrics.gauge(Definition.of("kubernetes_build_info", Stability.ALPHA,
                "A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, "
                        + "build date, Go version, and compiler from which Kubernetes was built, and platform on which "
                        + "it is running.", "major", "minor", "git_version", "git_commit", "git_tree_state",
                "build_date", "go_version", "compiler", "platform"));
        build.set(1, version.getOrDefault("major", ""), version.getOrDefault("minor", ""),
                version.getOrDefault("gitVersion", ""), version.getOrDefault("gitCommit", ""),
                version.getOrDefault("gitTreeState", ""), version.getOrDefault("buildDate", ""),
                version.getOrDefault("goVersion", ""), version.getOrDefault("compiler", ""),
                version.getOrDefault("platform", ""));
        GaugeFamily enabled = metrics.gauge(Definition.of("kubernetes_feature_enabled", Stability.BETA,
                "This metric records the data about the stage and enablement of a k8s feature.", "name", "stage"));
        features.forEach((name, feature) -> enabled.set(feature.enabled() ? 1 : 0, name, feature.stage()));
        return metrics;
    }

    /** A feature gate as {@code kubernetes_feature_enabled} shows it: stage {@code ALPHA}, {@code BETA}, "" (GA) or {@code DEPRECATED}. */
    public record Feature(String stage, boolean enabled) {
    }

    /** Metrics for a server built without flags (tests, the in-memory API). */
    public static Metrics defaults() {
        return create(MetricsOptions.DEFAULT, Map.of(), Map.of());
    }

    public PrometheusRegistry registry() {
        registerJvm();
        return registry;
    }

    public MetricSnapshots scrape() {
        registerJvm();
        return registry.scrape();
    }

    /**
     * The JVM's and the process's collectors, registered at the first scrape rather than in every start:
     * their set-up (JMX's platform beans) took 130-160 ms of a 1.5 s restart on two cores.
     */
    private void registerJvm() {
        if (!jvmRegistered) {
            synchronized (this) {
                if (!jvmRegistered) {
                    JvmMetrics.builder().register(registry);
                    jvmRegistered = true;
                }
            }
        }
    }

    public MetricSnapshots scrapeSlis() {
        return slis.scrape();
    }

    public RequestMetrics requests() {
        return requests;
    }

    public StorageMetrics storage() {
        return storage;
    }

    public WatchMetrics watches() {
        return watches;
    }

    public SecurityMetrics security() {
        return security;
    }

    public AdmissionMetrics admission() {
        return admission;
    }

    public HealthMetrics health() {
        return health;
    }

    public EncryptionMetrics encryption() {
        return encryption;
    }

    PrometheusRegistry slisRegistry() {
        return slis;
    }

    /** Whether {@code definition}'s family is exposed: not disabled, not hidden (deprecated before this release). */
    boolean exposed(Definition definition) {
        if (options.disabled().contains(definition.name())) {
            return false;
        }
        String deprecated = definition.deprecatedVersion();
        if (deprecated == null) {
            return true;
        }
        int minor = minor(deprecated);
        int current = minor(MetricsOptions.CURRENT_VERSION);
        if (minor >= current) {
            return true;
        }
        return minor == current - 1 && MetricsOptions.PREVIOUS_VERSION.equals(options.showHiddenForVersion());
    }

    private static int minor(String version) {
        String[] parts = version.split("\\.");
        return Integer.parseInt(parts[1]);
    }

    /**
     * A counter. kube's few counters whose names do not end in {@code _total} keep their names, exposed
     * untyped ({@link UntypedCounter}).
     */
    public CounterFamily counter(Definition definition) {
        return counter(definition, registry);
    }

    public GaugeFamily gauge(Definition definition) {
        return gauge(definition, registry);
    }

    GaugeFamily gauge(Definition definition, PrometheusRegistry target) {
        Gauge.Builder builder = Gauge.builder().name(definition.name()).help(definition.exposedHelp())
                .labelNames(definition.labelNames()).withoutExemplars();
        return new GaugeFamily(register(builder.build(), definition, target),
                LabelAllowList.of(definition, options.allowedLabels()));
    }

    /**
     * A counter exposed untyped under exactly its name: for a kube counter whose name the client library
     * would take as another family's ({@code aggregator_unavailable_apiservice_total} beside the gauge
     * {@code aggregator_unavailable_apiservice}).
     */
    public CounterFamily untypedCounter(Definition definition) {
        return new CounterFamily(register(new UntypedCounter(definition), definition, registry),
                LabelAllowList.of(definition, options.allowedLabels()));
    }

    CounterFamily counter(Definition definition, PrometheusRegistry target) {
        LabelAllowList allow = LabelAllowList.of(definition, options.allowedLabels());
        if (!definition.name().endsWith("_total")) {
            return new CounterFamily(register(new UntypedCounter(definition), definition, target), allow);
        }
        Counter.Builder builder = Counter.builder().name(definition.name()).help(definition.exposedHelp())
                .labelNames(definition.labelNames()).withoutExemplars();
        return new CounterFamily(register(builder.build(), definition, target), allow);
    }

    /** A histogram with kube's classic buckets {@code bounds}. */
    public HistogramFamily histogram(Definition definition, double... bounds) {
        return new HistogramFamily(register(new ClassicHistogram(definition, bounds), definition, registry),
                LabelAllowList.of(definition, options.allowedLabels()));
    }

    /**
     * A gauge whose values are read when scraped: {@code reader} gets a callback to call once per series
     * ({@code value, label values...}).
     */
    public void gaugeReading(Definition definition, Consumer<GaugeWithCallback.Callback> reader) {
        if (!exposed(definition)) {
            return;
        }
        registry.register(GaugeWithCallback.builder().name(definition.name()).help(definition.exposedHelp())
                .labelNames(definition.labelNames()).callback(reader).build());
    }

    /** A counter without labels whose value is read when scraped (a count kept elsewhere); its name ends in {@code _total}. */
    public void counterReading(Definition definition, java.util.function.LongSupplier value) {
        if (!exposed(definition)) {
            return;
        }
        registry.register(io.prometheus.metrics.core.metrics.CounterWithCallback.builder().name(definition.name())
                .help(definition.exposedHelp()).callback(callback -> callback.call(value.getAsLong())).build());
    }

    private <T extends io.prometheus.metrics.model.registry.Collector> T register(T collector, Definition definition,
                                                                               PrometheusRegistry target) {
        if (exposed(definition)) {
            target.register(collector);
        }
        return collector;
    }

    /** Exponential bounds {@code start, start*factor, ...}, {@code count} of them, as Prometheus' Go client makes them. */
    public static double[] exponential(double start, double factor, int count) {
        double[] bounds = new double[count];
        double b = start;
        for (int i = 0; i < count; i++) {
            bounds[i] = b;
            b *= factor;
        }
        return bounds;
    }
}
