package io.kapi.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-apiserver's authentication and authorization families: attempts and their latency by result,
 * authenticated requests by (compressed) user name, and terminal authorization decisions by authorizer.
 */
public final class SecurityMetrics {

    private final CounterFamily attempts;
    private final HistogramFamily duration;
    private final CounterFamily users;
    private final CounterFamily decisions;

    private final Map<String, Attempts> byResult = new ConcurrentHashMap<>();
    private final Map<String, CounterFamily.CounterSeries> byUser = new ConcurrentHashMap<>();

    SecurityMetrics(Metrics metrics) {
        attempts = metrics.counter(Definition.of("authentication_attempts", Stability.ALPHA,
                "Counter of authenticated attempts.", "result"));
        duration = metrics.histogram(Definition.of("authentication_duration_seconds", Stability.ALPHA,
                "Authentication duration in seconds broken out by result.", "result"),
                Metrics.exponential(0.001, 2, 15));
        users = metrics.counter(Definition.of("authenticated_user_requests", Stability.ALPHA,
                "Counter of authenticated requests broken out by username.", "username"));
        decisions = metrics.counter(Definition.of("apiserver_authorization_decisions_total", Stability.ALPHA,
                "Total number of terminal decisions made by an authorizer split by authorizer type, name, and "
                        + "decision.", "type", "name", "decision"));
    }

    /**
     * An authentication from {@code startNanos}: {@code result} {@code success}, {@code failure} (credentials
     * refused) or {@code error}; {@code user} the name of whom it found (null when none).
     */
    public void authenticated(String result, long startNanos, String user) {
        Attempts series = byResult.get(result); // looked up first: computeIfAbsent costs more when present
        if (series == null) {
            series = byResult.computeIfAbsent(result, r -> new Attempts(attempts.series(r), duration.series(r)));
        }
        series.count().add(1);
        series.duration().observe((System.nanoTime() - startNanos) / 1e9);
        if (user != null) {
            String name = compressUsername(user);
            CounterFamily.CounterSeries byName = byUser.get(name);
            if (byName == null) {
                byName = byUser.computeIfAbsent(name, users::series);
            }
            byName.add(1);
        }
    }

    /** The series of one authentication result (three results, a few user names: one lookup by a string each). */
    private record Attempts(CounterFamily.CounterSeries count, DistributionDataPoint duration) {
    }

    /** A terminal decision ({@code allowed} or {@code denied}) of the authorizer {@code type} named {@code name}. */
    public void decided(String type, String name, String decision) {
        decisions.inc(type, name, decision);
    }

    /** kube's bound on the user name label: a few known identities, {@code email_id}, or {@code other}. */
    static String compressUsername(String user) {
        return switch (user) {
            case "admin", "kubelet", "kube-proxy", "kube-scheduler", "kube-controller-manager", "system:admin",
                 "system:kube-proxy", "system:kube-scheduler", "system:kube-controller-manager" -> user;
            default -> user.contains("@") ? "email_id" : "other";
        };
    }
}
