package io.kapi.audit;

import io.kapi.metrics.CounterFamily;
import io.kapi.metrics.Definition;
import io.kapi.metrics.Metrics;
import io.kapi.metrics.Stability;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * kube-apiserver's audit counters: {@code apiserver_audit_event_total} (events sent to the backends),
 * {@code apiserver_audit_error_total{plugin}} (events a backend failed to store or dropped),
 * {@code apiserver_audit_requests_rejected_total} (requests refused because their event could not be
 * stored) and {@code apiserver_audit_level_total{level}} (requests by policy level). Counted here, and on
 * the server's metrics registry once {@linkplain #register registered} there (kube's names, help texts and labels).
 */
public final class AuditMetrics {

    private volatile Families families;

    /** The families on a registry. */
    private record Families(CounterFamily events, CounterFamily errors, CounterFamily rejected, CounterFamily levels) {
    }

    /** Registers kube-apiserver's four audit counters on {@code metrics}; later counts go there too. */
    public void register(Metrics metrics) {
        families = new Families(
                metrics.counter(Definition.of("apiserver_audit_event_total", Stability.ALPHA,
                        "Counter of audit events generated and sent to the audit backend.")),
                metrics.counter(Definition.of("apiserver_audit_error_total", Stability.ALPHA,
                        "Counter of audit events that failed to be audited properly. Plugin identifies the plugin "
                                + "affected by the error.", "plugin")),
                metrics.counter(Definition.of("apiserver_audit_requests_rejected_total", Stability.ALPHA,
                        "Counter of apiserver requests rejected due to an error in audit logging backend.")),
                metrics.counter(Definition.of("apiserver_audit_level_total", Stability.ALPHA,
                        "Counter of policy levels for audit events (1 per request).", "level")));
    }

    private final LongAdder events = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final Map<Level, LongAdder> levels = new ConcurrentHashMap<>();

    void event() {
        events.increment();
        Families f = families;
        if (f != null) {
            f.events().inc();
        }
    }

    void rejected() {
        rejected.increment();
        Families f = families;
        if (f != null) {
            f.rejected().inc();
        }
    }

    void error(String plugin, int count) {
        errors.computeIfAbsent(plugin, p -> new LongAdder()).add(count);
        Families f = families;
        if (f != null) {
            f.errors().add(count, plugin);
        }
    }

    void level(Level level) {
        levels.computeIfAbsent(level, l -> new LongAdder()).increment();
        Families f = families;
        if (f != null) {
            f.levels().inc(level.apiName());
        }
    }

    public long eventTotal() {
        return events.sum();
    }

    public long requestsRejectedTotal() {
        return rejected.sum();
    }

    /** By plugin name ({@code log}, {@code webhook}). */
    public Map<String, Long> errorTotal() {
        Map<String, Long> out = new java.util.TreeMap<>();
        errors.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** By level as the API names it ({@code Metadata}). */
    public Map<String, Long> levelTotal() {
        Map<String, Long> out = new java.util.TreeMap<>();
        levels.forEach((k, v) -> out.put(k.apiName(), v.sum()));
        return out;
    }
}
