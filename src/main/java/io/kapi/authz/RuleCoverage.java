package io.kapi.authz;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a set of rules covers others, as kube's RBAC {@code validation.Covers}: each requested rule
 * is split into atomic rules (one verb, group, resource and name, or one verb and path), and each of
 * those must be allowed by one owner rule. Used to refuse granting permissions one does not hold.
 */
public final class RuleCoverage {

    private static final String ALL = "*";

    private RuleCoverage() {
    }

    /** The atomic rules of {@code requested} no rule of {@code owner} covers, verbs of one target merged. */
    public static List<PolicyRule> uncovered(List<PolicyRule> owner, List<PolicyRule> requested) {
        Map<List<Object>, List<String>> missing = new LinkedHashMap<>();
        for (PolicyRule r : requested) {
            for (PolicyRule atom : atoms(r)) {
                if (owner.stream().noneMatch(o -> covers(o, atom))) {
                    missing.computeIfAbsent(List.of(atom.apiGroups(), atom.resources(), atom.resourceNames(),
                            atom.nonResourceURLs()), k -> new ArrayList<>()).addAll(atom.verbs());
                }
            }
        }
        List<PolicyRule> out = new ArrayList<>();
        missing.forEach((k, verbs) -> out.add(new PolicyRule(verbs, cast(k.get(0)), cast(k.get(1)), cast(k.get(2)),
                cast(k.get(3)))));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<String> cast(Object o) {
        return (List<String>) o;
    }

    private static List<PolicyRule> atoms(PolicyRule r) {
        List<PolicyRule> atoms = new ArrayList<>();
        for (String verb : r.verbs()) {
            for (String url : r.nonResourceURLs()) {
                atoms.add(new PolicyRule(List.of(verb), List.of(), List.of(), List.of(), List.of(url)));
            }
            for (String group : r.apiGroups()) {
                for (String resource : r.resources()) {
                    if (r.resourceNames().isEmpty()) {
                        atoms.add(new PolicyRule(List.of(verb), List.of(group), List.of(resource), List.of(), List.of()));
                    }
                    for (String name : r.resourceNames()) {
                        atoms.add(new PolicyRule(List.of(verb), List.of(group), List.of(resource), List.of(name),
                                List.of()));
                    }
                }
            }
        }
        return atoms;
    }

    /** Whether {@code owner} covers the atomic rule {@code atom}. */
    static boolean covers(PolicyRule owner, PolicyRule atom) {
        if (!has(owner.verbs(), atom.verbs().getFirst())) {
            return false;
        }
        if (!atom.nonResourceURLs().isEmpty()) {
            String url = atom.nonResourceURLs().getFirst();
            return owner.nonResourceURLs().stream().anyMatch(o -> o.equals(ALL) || o.equals(url)
                    || (o.endsWith(ALL) && url.startsWith(o.substring(0, o.length() - 1))));
        }
        if (!has(owner.apiGroups(), atom.apiGroups().getFirst())) {
            return false;
        }
        String resource = atom.resources().getFirst();
        boolean resourceCovered = has(owner.resources(), resource) || (resource.contains("/")
                && owner.resources().contains("*/" + resource.substring(resource.indexOf('/') + 1)));
        if (!resourceCovered) {
            return false;
        }
        return owner.resourceNames().isEmpty()
                || (!atom.resourceNames().isEmpty() && owner.resourceNames().contains(atom.resourceNames().getFirst()));
    }

    private static boolean has(List<String> values, String value) {
        return values.contains(ALL) || values.contains(value);
    }

    /** kube's {@code CompactString} of a rule: {@code {APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}}. */
    public static String describe(PolicyRule r) {
        List<String> parts = new ArrayList<>();
        if (!r.nonResourceURLs().isEmpty()) {
            parts.add("NonResourceURLs:" + quoted(r.nonResourceURLs()));
        } else {
            parts.add("APIGroups:" + quoted(r.apiGroups()));
            parts.add("Resources:" + quoted(r.resources()));
            if (!r.resourceNames().isEmpty()) {
                parts.add("ResourceNames:" + quoted(r.resourceNames()));
            }
        }
        parts.add("Verbs:" + quoted(r.verbs()));
        return "{" + String.join(", ", parts) + "}";
    }

    private static String quoted(List<String> values) {
        List<String> q = new ArrayList<>();
        values.forEach(v -> q.add('"' + v.replace("\\", "\\\\").replace("\"", "\\\"") + '"'));
        return "[" + String.join(" ", q) + "]";
    }
}
