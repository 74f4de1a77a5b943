package io.kapi.admission.match;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.Operation;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code RuleWithOperations} (or {@code NamedRuleWithOperations}) of admissionregistration: the
 * operations, API groups, versions and resources (with {@code *}, {@code pods/status}, {@code * /scale},
 * {@code pods/*}) and scope a webhook or policy applies to, and for named rules the object names.
 */
public record Rule(List<String> operations, List<String> apiGroups, List<String> apiVersions, List<String> resources,
                   String scope, List<String> resourceNames) {

    /** Reads one rule object. */
    public static Rule of(JsonNode rule) {
        return new Rule(strings(rule.path("operations")), strings(rule.path("apiGroups")),
                strings(rule.path("apiVersions")), strings(rule.path("resources")),
                rule.path("scope").asText("*"), strings(rule.path("resourceNames")));
    }

    /** Every rule of an array. */
    public static List<Rule> all(JsonNode rules) {
        List<Rule> list = new ArrayList<>();
        rules.forEach(r -> list.add(of(r)));
        return List.copyOf(list);
    }

    static List<String> strings(JsonNode array) {
        List<String> list = new ArrayList<>();
        array.forEach(v -> list.add(v.asText()));
        return List.copyOf(list);
    }

    /**
     * Whether the request is one this rule names.
     *
     * @param anyVersion match every version of the group and resource (matchPolicy Equivalent)
     */
    public boolean matches(Attributes a, boolean anyVersion) {
        Attributes.Target t = a.target();
        return operation(a.operation()) && matchesAny(apiGroups, t.resource().group())
                && (anyVersion || matchesAny(apiVersions, t.resource().version()))
                && resource(t.resource().resource(), t.subresource()) && scope(t.namespace())
                && (resourceNames.isEmpty() || resourceNames.contains(t.name()));
    }

    private boolean operation(Operation op) {
        return operations.isEmpty() || operations.contains("*") || operations.contains(op.name());
    }

    private static boolean matchesAny(List<String> patterns, String value) {
        return patterns.contains("*") || patterns.contains(value);
    }

    private boolean resource(String resource, String subresource) {
        for (String pattern : resources) {
            int slash = pattern.indexOf('/');
            String res = slash < 0 ? pattern : pattern.substring(0, slash);
            String sub = slash < 0 ? "" : pattern.substring(slash + 1);
            boolean resOk = res.equals("*") || res.equals(resource);
            boolean subOk = slash < 0 ? subresource.isEmpty() : sub.equals("*") || sub.equals(subresource);
            if (resOk && subOk) {
                return true;
            }
        }
        return false;
    }

    private boolean scope(String namespace) {
        return switch (scope) {
            case "Cluster" -> namespace.isEmpty();
            case "Namespaced" -> !namespace.isEmpty();
            default -> true;
        };
    }
}
