package io.kapi.admission.plugin.podsecurity;

import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What one check forbids, as kube's {@code CheckResult}: a short reason ({@code privileged}) and an
 * optional detail naming the offenders ({@code container "c" must not set securityContext.privileged=true}).
 */
public record Violation(String reason, String detail) {

    /** {@code "a", "b"} (kube's {@code joinQuote}: no escaping). */
    static String joinQuote(Collection<String> items) {
        return items.isEmpty() ? "" : items.stream().collect(Collectors.joining("\", \"", "\"", "\""));
    }

    static String plural(String singular, String plural, int count) {
        return count == 1 ? singular : plural;
    }

    /** {@code container "a"} or {@code containers "a", "b"}. */
    static String containers(Collection<String> names) {
        return plural("container", "containers", names.size()) + " " + joinQuote(names);
    }

    /** kube's {@code ForbiddenDetail}: {@code reason (detail), reason, ...}. */
    public static String describe(List<Violation> violations) {
        return violations.stream()
                .map(v -> v.detail().isEmpty() ? v.reason() : v.reason() + " (" + v.detail() + ")")
                .collect(Collectors.joining(", "));
    }

    /** kube's {@code ForbiddenReason}: the reasons alone, comma-separated. */
    public static String reasons(List<Violation> violations) {
        return violations.stream().map(Violation::reason).collect(Collectors.joining(", "));
    }
}
