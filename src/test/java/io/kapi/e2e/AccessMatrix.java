package io.kapi.e2e;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What kube-apiserver 1.34 with {@code --authorization-mode=Node,RBAC} and its bootstrap policy answers to
 * {@code kubectl auth can-i VERB RESOURCE -n matrix} for the identities of the authorization matrix,
 * derived from kube's rules (not from Kapi's answers):
 * <ul>
 *   <li>{@code admin} is in {@code system:masters}: every request is allowed before any mode is asked.</li>
 *   <li>{@code node} ({@code system:node:n1} in {@code system:nodes}, nothing bound to n1): the Node
 *       authorizer allows pod create and delete (mirror pods) and node create; a get without a name of
 *       secrets, configmaps, pods is refused ("No Object name found"), lists without a selector too,
 *       secret and configmap writes ("can only read resources of this type"); deployments and cluster
 *       roles are not in the node rules and RBAC binds nothing to {@code system:nodes}.</li>
 *   <li>{@code robot} ({@code system:serviceaccount:matrix:robot}) has the {@code edit} ClusterRole through
 *       a RoleBinding in {@code matrix}: pods, secrets, configmaps and apps deployments, every verb asked;
 *       nothing cluster-scoped (a RoleBinding grants in its namespace only).</li>
 *   <li>{@code rita} has a Role in {@code matrix} (configmaps get, list) and a ClusterRole through a
 *       ClusterRoleBinding (nodes get, list).</li>
 * </ul>
 * An anonymous user may not even ask: {@code selfsubjectaccessreviews} is granted by
 * {@code system:basic-user} to {@code system:authenticated} only.
 */
final class AccessMatrix {

    static final List<String> VERBS = List.of("get", "list", "create", "delete");
    static final List<String> RESOURCES = List.of("pods", "secrets", "configmaps", "nodes", "deployments.apps",
            "clusterroles.rbac.authorization.k8s.io");
    private static final Set<String> ALL = Set.copyOf(VERBS);

    /** identity -> resource -> the verbs allowed. */
    static final Map<String, Map<String, Set<String>>> EXPECTED = Map.of(
            "admin", Map.of("pods", ALL, "secrets", ALL, "configmaps", ALL, "nodes", ALL, "deployments.apps", ALL,
                    "clusterroles.rbac.authorization.k8s.io", ALL),
            "node", Map.of("pods", Set.of("create", "delete"), "nodes", Set.of("create")),
            "robot", Map.of("pods", ALL, "secrets", ALL, "configmaps", ALL, "deployments.apps", ALL),
            "rita", Map.of("configmaps", Set.of("get", "list"), "nodes", Set.of("get", "list")));

    private AccessMatrix() {
    }

    static boolean allowed(String identity, String verb, String resource) {
        return EXPECTED.get(identity).getOrDefault(resource, Set.of()).contains(verb);
    }
}
