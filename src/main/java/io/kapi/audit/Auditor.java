package io.kapi.audit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import io.kapi.webhook.KubeconfigWebhook;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The server's audit: the policy and the backends made from the {@code --audit-*} flags (kube's
 * {@code AuditOptions.ApplyTo}). Without a policy file, or without a backend, nothing is audited, as
 * on kube-apiserver. The audit filter asks it for each request's {@link AuditContext}; the server's
 * shutdown calls {@link #shutdown()} once no request is served any more, which flushes the buffers.
 */
public final class Auditor {

    private static final System.Logger LOG = System.getLogger(Auditor.class.getName());

    public static final Auditor DISABLED = new Auditor(null, null, new AuditMetrics());

    private final Policy policy;
    private final Backend backend;
    private final AuditMetrics metrics;

    private Auditor(Policy policy, Backend backend, AuditMetrics metrics) {
        this.policy = policy;
        this.backend = backend;
        this.metrics = metrics;
    }

    /**
     * Loads the policy and opens the backends.
     *
     * @throws IllegalArgumentException for a policy or webhook kubeconfig that is not valid, in kube's words
     * @throws UncheckedIOException when the log file cannot be opened
     */
    public static Auditor create(AuditOptions options) {
        Path policyFile = options.policyFile();
        AuditMetrics metrics = new AuditMetrics();
        if (policyFile == null) {
            LOG.log(Level.DEBUG, "No audit policy file provided, no events will be recorded");
            return new Auditor(null, null, metrics);
        }
        Policy policy = Policy.load(policyFile);
        List<Backend> backends = new ArrayList<>();
        if (options.logPath() != null) {
            backends.add(wrap(options, "log", logBackend(options, metrics), metrics));
        }
        if (options.webhookConfigFile() != null) {
            KubeconfigWebhook hook = KubeconfigWebhook.fromKubeconfig(options.webhookConfigFile(), Duration.ofSeconds(30));
            backends.add(wrap(options, "webhook", new WebhookBackend(hook,
                    options.duration("webhook-initial-backoff", Duration.ofSeconds(10)), metrics), metrics));
        }
        if (backends.isEmpty()) {
            return new Auditor(null, null, metrics);
        }
        return new Auditor(policy, backends.size() == 1 ? backends.getFirst() : new Union(backends), metrics);
    }

    private static Backend logBackend(AuditOptions options, AuditMetrics metrics) {
        boolean legacy = options.text("log-format", "json").equals("legacy");
        if (options.logPath().equals("-")) {
            return new LogBackend(null, System.out, legacy, metrics);
        }
        try {
            RotatingFile file = new RotatingFile(Path.of(options.logPath()), options.integer("log-maxsize", 0),
                    options.integer("log-maxage", 0), options.integer("log-maxbackup", 0),
                    options.bool("log-compress", false));
            return new LogBackend(file, null, legacy, metrics);
        } catch (IOException e) {
            throw new UncheckedIOException("failed to open audit log file " + options.logPath() + ": " + e.getMessage(), e);
        }
    }

    /** kube's wrapping: batch buffers, blocking ignores errors, blocking-strict reports them; truncation outermost. */
    private static Backend wrap(AuditOptions options, String plugin, Backend backend, AuditMetrics metrics) {
        Backend b = switch (options.mode(plugin)) {
            case "batch" -> new BufferedBackend(backend, options.batch(plugin), metrics);
            case "blocking" -> new IgnoreErrors(backend);
            default -> backend;
        };
        if (options.bool(plugin + "-truncate-enabled", false)) {
            b = new TruncatingBackend(b, options.longValue(plugin + "-truncate-max-event-size", 102400),
                    options.longValue(plugin + "-truncate-max-batch-size", 10485760), metrics);
        }
        return b;
    }

    public boolean enabled() {
        return backend != null;
    }

    public AuditMetrics metrics() {
        return metrics;
    }

    /**
     * Starts the audit of a request whose user is authenticated: null when the policy gives it level None.
     *
     * @param requestUri the path and query as sent
     * @param sourceIps the client's addresses, as kube's {@code SourceIPs} orders them
     */
    public AuditContext begin(RequestContext request, String requestUri, List<String> sourceIps, Instant received) {
        if (backend == null) {
            return null;
        }
        RequestInfo info = request.info();
        Policy.RequestConfig config = policy.evaluate(request.user(), info);
        metrics.level(config.level());
        if (config.level() == io.kapi.audit.Level.NONE) {
            return null;
        }
        Map<String, String> ref = null;
        if (info.resourceRequest()) {
            ref = new HashMap<>();
            ref.put("resource", info.resource());
            ref.put("namespace", info.namespace());
            ref.put("name", info.name());
            ref.put("apiGroup", info.group());
            ref.put("apiVersion", info.version());
            ref.put("subresource", Events.subresource(info));
        }
        String verb = info.verb() == null ? "" : info.verb().apiName();
        Event event = new Event(config.level(), request.auditId(), requestUri, verb, request.user(), sourceIps,
                request.userAgent(), received, ref);
        return new AuditContext(this, event, config);
    }

    /** Sends one stage of an event; false when a blocking-strict backend could not store it. */
    boolean process(ObjectNode event) {
        metrics.event();
        return backend.process(List.of(event));
    }

    void rejected() {
        metrics.rejected();
    }

    /** Flushes and closes the backends (kube's {@code AuditBackend.Shutdown}). */
    public void shutdown() {
        if (backend != null) {
            backend.shutdown();
        }
    }

    /** kube's {@code ignoreErrorsBackend} of blocking mode: a failed write is logged, the request goes on. */
    private record IgnoreErrors(Backend delegate) implements Backend {
        @Override
        public boolean process(List<ObjectNode> events) {
            delegate.process(events);
            return true;
        }

        @Override
        public void shutdown() {
            delegate.shutdown();
        }

        @Override
        public String name() {
            return delegate.name();
        }
    }

    /** kube's union backend: every backend gets every event; false if any refused. */
    private record Union(List<Backend> backends) implements Backend {
        @Override
        public boolean process(List<ObjectNode> events) {
            boolean ok = true;
            for (Backend b : backends) {
                ok &= b.process(events);
            }
            return ok;
        }

        @Override
        public void shutdown() {
            backends.forEach(Backend::shutdown);
        }

        @Override
        public String name() {
            return "union";
        }
    }
}
