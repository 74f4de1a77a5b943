package io.kapi.health;

import io.kapi.machinery.GoStrings;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The result of running one endpoint's checks, worded exactly as kube-apiserver's
 * {@code healthz.handleRootHealth}:
 * <pre>
 * [+]ping ok
 * [+]etcd excluded: ok
 * [-]poststarthook/rbac/bootstrap-roles failed: reason withheld
 * readyz check failed
 * </pre>
 * Failure reasons go to the log, never to the client.
 *
 * @param endpoint {@code healthz}, {@code livez} or {@code readyz}
 * @param lines one line per check (and a warning for unknown exclusions), without newlines
 * @param failed names of the failed checks
 */
record HealthReport(String endpoint, List<String> lines, List<String> failed) {

    private static final System.Logger LOG = System.getLogger(HealthReport.class.getName());

    static HealthReport run(String endpoint, List<HealthCheck> checks, List<String> exclude, HealthObserver observer) {
        Set<String> excluded = new LinkedHashSet<>(exclude);
        List<String> lines = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        StringBuilder reasons = new StringBuilder();
        for (HealthCheck check : checks) {
            if (excluded.remove(check.name())) {
                lines.add("[+]" + check.name() + " excluded: ok");
                continue;
            }
            try {
                check.check();
                lines.add("[+]" + check.name() + " ok");
                observer.checked(check.name(), endpoint, true);
            } catch (Exception e) {
                observer.checked(check.name(), endpoint, false);
                lines.add("[-]" + check.name() + " failed: reason withheld");
                reasons.append("\n[-]").append(check.name()).append(" failed: ").append(e.getMessage());
                failed.add(check.name());
            }
        }
        if (!excluded.isEmpty()) {
            lines.add("warn: some health checks cannot be excluded: no matches for "
                    + String.join(",", excluded.stream().map(GoStrings::quote).toList()));
        }
        if (!failed.isEmpty()) {
            LOG.log(Level.INFO, "{0} check failed: {1}{2}", endpoint, String.join(",", failed), reasons);
        }
        return new HealthReport(endpoint, List.copyOf(lines), List.copyOf(failed));
    }

    boolean passed() {
        return failed.isEmpty();
    }

    /** The body kube-apiserver sends: always verbose on failure, "ok" on success unless verbose. */
    String body(boolean verbose) {
        if (passed() && !verbose) {
            return "ok";
        }
        StringBuilder out = new StringBuilder();
        lines.forEach(line -> out.append(line).append('\n'));
        return out.append(endpoint).append(passed() ? " check passed\n" : " check failed\n").toString();
    }
}
