package io.kapi.audit;

import io.kapi.request.RequestInfo;
import io.kapi.user.UserInfo;
import java.util.List;
import java.util.Set;

/**
 * One rule of an audit policy (audit.k8s.io/v1 {@code PolicyRule}): the level of the requests it
 * matches. Each field that is set narrows the match; a rule naming resources or namespaces matches only
 * resource requests, one naming non-resource URLs only non-resource requests (kube's {@code ruleMatches}).
 *
 * @param omitStages the policy's omitted stages with the rule's own
 * @param omitManagedFields the rule's setting, or null to take the policy's
 */
record PolicyRule(Level level, Set<String> users, Set<String> userGroups, Set<String> verbs,
                  List<GroupResources> resources, Set<String> namespaces, List<String> nonResourceURLs,
                  Set<Stage> omitStages, Boolean omitManagedFields) {

    /**
     * A group's resources: {@code pods}, {@code pods/log}, {@code *}, {@code *}{@code /status} or
     * {@code pods/*}, optionally only those of the given names. No resources: every resource of the group.
     */
    record GroupResources(String group, List<String> resources, Set<String> resourceNames) {
    }

    boolean matches(UserInfo user, RequestInfo info, String verb) {
        if (!users.isEmpty() && (user == null || !users.contains(user.name()))) {
            return false;
        }
        if (!userGroups.isEmpty() && (user == null || user.groups().stream().noneMatch(userGroups::contains))) {
            return false;
        }
        if (!verbs.isEmpty() && !verbs.contains(verb)) {
            return false;
        }
        if (!namespaces.isEmpty() || !resources.isEmpty()) {
            return matchesResource(info);
        }
        if (!nonResourceURLs.isEmpty()) {
            return !info.resourceRequest() && nonResourceURLs.stream().anyMatch(spec -> pathMatches(info.path(), spec));
        }
        return true;
    }

    private static boolean pathMatches(String path, String spec) {
        return spec.equals("*") || spec.equals(path)
                || (spec.endsWith("*") && path.startsWith(spec.substring(0, spec.length() - 1)));
    }

    private boolean matchesResource(RequestInfo info) {
        if (!info.resourceRequest()) {
            return false;
        }
        if (!namespaces.isEmpty() && !namespaces.contains(info.namespace())) {
            return false;
        }
        if (resources.isEmpty()) {
            return true;
        }
        String subresource = Events.subresource(info);
        String combined = subresource.isEmpty() ? info.resource() : info.resource() + "/" + subresource;
        for (GroupResources gr : resources) {
            if (!gr.group().equals(info.group())) {
                continue;
            }
            if (gr.resources().isEmpty()) {
                return true;
            }
            if (!gr.resourceNames().isEmpty() && !gr.resourceNames().contains(info.name())) {
                continue;
            }
            for (String res : gr.resources()) {
                if (res.equals(combined) || res.equals("*")
                        || (!subresource.isEmpty() && res.startsWith("*/") && subresource.equals(res.substring(2)))
                        || (res.endsWith("/*") && info.resource().equals(res.substring(0, res.length() - 2)))) {
                    return true;
                }
            }
        }
        return false;
    }
}
