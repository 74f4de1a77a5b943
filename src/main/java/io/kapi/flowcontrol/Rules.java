package io.kapi.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.request.RequestInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The request rules of one {@code PolicyRulesWithSubjects} entry of a FlowSchema, compiled: a request
 * matches when one resource rule (resource requests) or one non-resource rule (others) matches, as
 * kube's {@code matchesPolicyRule}. A list that is exactly {@code ["*"]} matches every value; {@code *}
 * is no pattern otherwise. A non-resource URL matches itself and every path below it
 * ({@code /healthz} and {@code /healthz/*} both match {@code /healthz/etcd}).
 */
record Rules(List<ResourceRule> resourceRules, List<NonResourceRule> nonResourceRules) {

    static Rules parse(JsonNode rule) {
        List<ResourceRule> resources = new ArrayList<>();
        for (JsonNode r : rule.path("resourceRules")) {
            resources.add(new ResourceRule(Values.of(r.path("verbs")), Values.of(r.path("apiGroups")),
                    Values.of(r.path("resources")), r.path("clusterScope").asBoolean(false),
                    Values.of(r.path("namespaces"))));
        }
        List<NonResourceRule> nonResources = new ArrayList<>();
        for (JsonNode r : rule.path("nonResourceRules")) {
            List<String> urls = new ArrayList<>();
            r.path("nonResourceURLs").forEach(u -> urls.add(u.asText()));
            nonResources.add(new NonResourceRule(Values.of(r.path("verbs")), List.copyOf(urls)));
        }
        return new Rules(List.copyOf(resources), List.copyOf(nonResources));
    }

    boolean matches(RequestInfo info) {
        String verb = info.verb() == null ? "" : info.verb().apiName();
        if (info.resourceRequest()) {
            String sub = info.subresource();
            int slash = sub.indexOf('/');
            String resource = sub.isEmpty() ? info.resource()
                    : info.resource() + "/" + (slash < 0 ? sub : sub.substring(0, slash));
            for (ResourceRule r : resourceRules) {
                if (r.matches(verb, info.group(), resource, info.namespace())) {
                    return true;
                }
            }
            return false;
        }
        for (NonResourceRule r : nonResourceRules) {
            if (r.verbs.contains(verb) && r.matchesPath(info.path())) {
                return true;
            }
        }
        return false;
    }

    /** A set of names, or every name when it was {@code ["*"]}. */
    record Values(boolean all, Set<String> names) {

        static Values of(JsonNode list) {
            Set<String> names = new HashSet<>();
            list.forEach(v -> names.add(v.asText()));
            return new Values(names.size() == 1 && names.contains("*"), Set.copyOf(names));
        }

        boolean contains(String value) {
            return all || names.contains(value);
        }
    }

    record ResourceRule(Values verbs, Values groups, Values resources, boolean clusterScope, Values namespaces) {

        boolean matches(String verb, String group, String resource, String namespace) {
            if (!verbs.contains(verb) || !resources.contains(resource) || !groups.contains(group)) {
                return false;
            }
            return namespace.isEmpty() ? clusterScope : namespaces.contains(namespace);
        }
    }

    record NonResourceRule(Values verbs, List<String> urls) {

        boolean matchesPath(String path) {
            for (String url : urls) {
                if (url.equals("*") || url.equals(path)) {
                    return true;
                }
                String prefix = url.endsWith("*") ? url.substring(0, url.length() - 1) : url;
                if (!prefix.endsWith("/")) {
                    prefix += "/";
                }
                if (path.startsWith(prefix)) {
                    return true;
                }
            }
            return false;
        }
    }
}
