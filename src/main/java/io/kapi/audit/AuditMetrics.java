package io.kapi.audit;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * kube-apiserver's audit counters: {@code apiserver_audit_event_total} (events sent to the backends),
 * {@code apiserver_audit_error_total{plugin}} (events a backend failed to store or dropped),
 * {@code apiserver_audit_requests_rejected_total} (requests refused because their event could not be
 * stored) and {@code apiserver_audit_level_total{level}} (requests by policy level). Kept here, read by
 * whatever exports them.
 */
public final class AuditMetrics {

    private final LongAdder events = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final Map<Level, LongAdder> levels = new ConcurrentHashMap<>();

    void event() {
        events.increment();
    }

    void rejected() {
        rejected.increment();
    }

    void error(String plugin, int count) {
        errors.computeIfAbsent(plugin, p -> new LongAdder()).add(count);
    }

    void level(Level level) {
        levels.computeIfAbsent(level, l -> new LongAdder()).increment();
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
