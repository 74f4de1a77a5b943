package io.kapi.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The server's tracer ({@code --tracing-config-file}): OpenTelemetry spans exported over OTLP/gRPC, as
 * kube-apiserver's. Off by default, and then every call here returns at its first check, without a
 * span, a context or an allocation ({@link TraceScope#NONE}).
 *
 * <p>One per process, installed at start-up before the API is assembled (as kube-apiserver's tracer
 * provider); the layers below call the static methods rather than carrying a tracer through every
 * constructor. Spans nest through OpenTelemetry's current context: a request runs on one (virtual)
 * thread, so a span made current by the request filter is the parent of the ones its layers open.
 *
 * <p>Export never slows a request: ended spans go to a bounded queue ({@value #MAX_QUEUE} spans)
 * that one background thread sends in batches; when the collector is slow or gone, the queue fills
 * and further spans are dropped, not waited for ({@link #droppedSpans()} counts them).
 */
public final class Tracing {

    static final int MAX_QUEUE = 2048;
    private static final String INSTRUMENTATION = "k8s.io/apiserver";
    private static volatile Tracer tracer;
    private static volatile SdkTracerProvider provider;
    private static volatile SdkMeterProvider meters;
    private static volatile SpanDrops drops;
    /** Sampling 0: only a trusted caller's sampled traceparent makes a request traced. */
    private static volatile boolean rootsNeverSampled;

    private Tracing() {
    }

    /** Whether spans are being recorded at all: false without {@code --tracing-config-file}. */
    public static boolean enabled() {
        return tracer != null;
    }

    /**
     * Whether a request with these headers could get a span: tracing is on, and either roots may be
     * sampled or the caller sent a {@code traceparent} (which only a trusted caller's can make sampled).
     * Where not, the request's filters skip every tracing step (at sampling 0, almost every request).
     *
     * @param headers the request's headers by lower-case name
     */
    public static boolean mayTrace(Map<String, List<String>> headers) {
        return tracer != null && (!rootsNeverSampled || headers.containsKey("traceparent"));
    }

    /**
     * Starts exporting to the configured collector. kube's sampler: parent-based, and for a request
     * without a sampled parent the trace ID ratio of {@code samplingRatePerMillion}.
     *
     * @param instanceId this server's identity ({@code service.instance.id})
     */
    public static synchronized void install(TracingConfiguration config, String hostName, String instanceId) {
        shutdown();
        SpanDrops d = new SpanDrops();
        SdkMeterProvider m = SdkMeterProvider.builder().registerMetricReader(d).build();
        drops = d;
        meters = m;
        OtlpGrpcSpanExporter exporter = OtlpGrpcSpanExporter.builder().setEndpoint(config.exporterUrl())
                .setTimeout(Duration.ofSeconds(10)).build();
        SdkTracerProvider p = SdkTracerProvider.builder()
                .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(config.samplingRatePerMillion() / 1_000_000.0)))
                .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(
                        AttributeKey.stringKey("service.name"), "apiserver",
                        AttributeKey.stringKey("host.name"), hostName,
                        AttributeKey.stringKey("service.instance.id"), instanceId))))
                .addSpanProcessor(BatchSpanProcessor.builder(exporter).setMaxQueueSize(MAX_QUEUE)
                        .setMaxExportBatchSize(512).setScheduleDelay(Duration.ofSeconds(1)).setMeterProvider(m).build())
                .build();
        provider = p;
        rootsNeverSampled = config.samplingRatePerMillion() == 0;
        tracer = p.get(INSTRUMENTATION);
    }

    /** Sends what is queued (within a few seconds) and stops; tracing is off afterwards. */
    public static synchronized void shutdown() {
        SdkTracerProvider p = provider;
        tracer = null;
        provider = null;
        if (p != null) {
            p.shutdown().join(5, TimeUnit.SECONDS);
        }
        if (meters != null) {
            meters.shutdown();
            meters = null;
        }
    }

    /** Spans dropped since {@link #install} because the export queue was full; 0 without tracing. */
    public static long droppedSpans() {
        SpanDrops d = drops;
        return d == null || tracer == null ? 0 : d.dropped();
    }

    /** Exports what has ended so far, waiting up to {@code timeout}: for tests and shutdown. */
    public static void flush(Duration timeout) {
        SdkTracerProvider p = provider;
        if (p != null) {
            p.forceFlush().join(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Starts a span, child of the current one, and makes it current until closed.
     *
     * @param attributes keys and string values, alternating
     */
    public static TraceScope start(String name, String... attributes) {
        Tracer t = tracer;
        if (t == null || !withinSampledSpan()) {
            // off, outside any request (no orphan spans), or in a request not sampled, whose children
            // the parent-based sampler would not sample either
            return TraceScope.NONE;
        }
        return TraceScope.open(t.spanBuilder(name).setSpanKind(SpanKind.INTERNAL), attributes);
    }

    /** {@link #start} of a call to another server ({@code SpanKind.CLIENT}): webhooks, aggregated APIs. */
    public static TraceScope startClient(String name, String... attributes) {
        Tracer t = tracer;
        if (t == null || !withinSampledSpan()) {
            return TraceScope.NONE;
        }
        return TraceScope.open(t.spanBuilder(name).setSpanKind(SpanKind.CLIENT), attributes);
    }

    /**
     * Whether this thread's current span is sampled. At sampling 0 hardly any span is, and while none is
     * open anywhere the answer needs no look at the thread's context.
     */
    private static boolean withinSampledSpan() {
        return (!rootsNeverSampled || TraceScope.anySampledOpen()) && Span.current().getSpanContext().isSampled();
    }

    /**
     * Starts a request's span ({@code SpanKind.SERVER}) once its user is known, and makes it current
     * until closed. As kube-apiserver: the caller's W3C {@code traceparent} (and {@code tracestate}) is
     * the parent only when the caller is trusted ({@code system:masters}, {@code system:monitoring});
     * anyone else's is a link, so that no client can force its requests to be sampled. The span starts
     * when authentication did ({@link #authenticating(Map)}), whose own span it then gets as a child.
     *
     * @param headers the request's headers by lower-case name
     * @param trusted whether the caller may make the request part of its trace
     */
    public static TraceScope startServer(String name, Map<String, List<String>> headers, boolean trusted,
                                         String... attributes) {
        Tracer t = tracer;
        if (t == null) {
            return TraceScope.NONE; // and authenticating() left no times: it leaves none without a tracer
        }
        long[] authentication = null;
        if (mayTrace(headers)) { // only then did authenticating() leave its times
            authentication = AUTHENTICATION.get();
            AUTHENTICATION.remove();
        }
        if (rootsNeverSampled && (!trusted || !headers.containsKey("traceparent"))) {
            return TraceScope.NONE; // it could only be an unsampled span: none at all costs less
        }
        Context incoming = W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, HEADERS);
        SpanBuilder builder = t.spanBuilder(name).setSpanKind(SpanKind.SERVER);
        if (trusted) {
            builder.setParent(incoming);
        } else {
            builder.setNoParent();
            SpanContext caller = Span.fromContext(incoming).getSpanContext();
            if (caller.isValid()) {
                builder.addLink(caller);
            }
        }
        if (authentication != null) {
            builder.setStartTimestamp(authentication[0], TimeUnit.NANOSECONDS);
        }
        TraceScope request = TraceScope.open(builder, attributes);
        if (authentication != null && Span.current().getSpanContext().isSampled()) {
            t.spanBuilder("Authenticate").setStartTimestamp(authentication[0], TimeUnit.NANOSECONDS).startSpan()
                    .end(authentication[1], TimeUnit.NANOSECONDS);
        }
        return request;
    }

    /**
     * Times authentication, which runs before the request's span can start (its user decides the span's
     * parent): the returned scope, closed when authentication ends, leaves the times for
     * {@link #startServer} on this thread. Requests run on one thread through the filters, so the next
     * span started here is that request's. Nothing at all for a request that {@linkplain #mayTrace cannot be
     * traced}.
     *
     * @param headers the request's headers by lower-case name
     */
    public static Timing authenticating(Map<String, List<String>> headers) {
        return mayTrace(headers) ? timing() : NO_TIMING;
    }

    private static Timing timing() {
        long start = now();
        return () -> AUTHENTICATION.set(new long[] {start, now()});
    }

    private static long now() {
        java.time.Instant t = java.time.Instant.now();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static final ThreadLocal<long[]> AUTHENTICATION = new ThreadLocal<>();
    private static final Timing NO_TIMING = () -> { };

    /** A stretch of work being timed until closed. */
    public interface Timing extends AutoCloseable {
        @Override
        void close();
    }

    /** Adds the current span's {@code traceparent} (and {@code tracestate}) to an outgoing request. */
    public static void inject(BiConsumer<String, String> header) {
        if (tracer == null || !Span.current().getSpanContext().isValid()) {
            return;
        }
        W3CTraceContextPropagator.getInstance().inject(Context.current(), header, BiConsumer::accept);
    }

    /** {@code task} run in the current span wherever it runs (another thread): calls made in parallel. */
    public static <T> java.util.concurrent.Callable<T> inCurrentSpan(java.util.concurrent.Callable<T> task) {
        return tracer == null ? task : Context.current().wrap(task);
    }

    private static final TextMapGetter<Map<String, List<String>>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, List<String>> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, List<String>> carrier, String key) {
            if (carrier == null) {
                return null;
            }
            List<String> values = carrier.get(key.toLowerCase(java.util.Locale.ROOT));
            return values == null || values.isEmpty() ? null : values.getFirst();
        }
    };
}
