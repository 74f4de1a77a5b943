package io.kapi.authz;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One rule of a Role or ClusterRole, matched as kube's RBAC {@code RuleAllows}: the verb, then for a
 * resource request the API group, the resource (with {@code resource/subresource} and {@code * /sub}
 * forms) and the names; for a non-resource request the path ({@code *} and {@code prefix*} forms).
 */
public record PolicyRule(List<String> verbs, List<String> apiGroups, List<String> resources,
                         List<String> resourceNames, List<String> nonResourceURLs) {

    private static final String ALL = "*";

    public PolicyRule {
        verbs = List.copyOf(verbs);
        apiGroups = List.copyOf(apiGroups);
        resources = List.copyOf(resources);
        resourceNames = List.copyOf(resourceNames);
        nonResourceURLs = List.copyOf(nonResourceURLs);
    }

    /** The rule of an {@code rbac.authorization.k8s.io/v1} PolicyRule object. */
    public static PolicyRule of(JsonNode rule) {
        return new PolicyRule(strings(rule.path("verbs")), strings(rule.path("apiGroups")),
                strings(rule.path("resources")), strings(rule.path("resourceNames")),
                strings(rule.path("nonResourceURLs")));
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** Whether this rule allows the request {@code a}. */
    public boolean allows(AuthorizationAttributes a) {
        if (!verbMatches(a.verb() == null ? "" : a.verb().apiName())) {
            return false;
        }
        if (!a.resourceRequest()) {
            return nonResourceMatches(a.path());
        }
        return groupMatches(a.group()) && resourceMatches(a.resource(), a.subresource()) && nameMatches(a.name());
    }

    boolean verbMatches(String verb) {
        return verbs.contains(ALL) || verbs.contains(verb);
    }

    boolean groupMatches(String group) {
        return apiGroups.contains(ALL) || apiGroups.contains(group);
    }

    boolean resourceMatches(String resource, String subresource) {
        String combined = subresource.isEmpty() ? resource : resource + "/" + subresource;
        for (String r : resources) {
            if (r.equals(ALL) || r.equals(combined)) {
                return true;
            }
            if (!subresource.isEmpty() && r.equals("*/" + subresource)) {
                return true;
            }
        }
        return false;
    }

    boolean nameMatches(String name) {
        return resourceNames.isEmpty() || resourceNames.contains(name);
    }

    boolean nonResourceMatches(String path) {
        for (String url : nonResourceURLs) {
            if (url.equals(ALL) || url.equals(path)
                    || (url.endsWith(ALL) && path.startsWith(url.substring(0, url.length() - 1)))) {
                return true;
            }
        }
        return false;
    }

    /** Whether this is a resource rule (it names resources), as kube sorts rules in rules reviews. */
    public boolean resourceRule() {
        return !resources.isEmpty();
    }
}
