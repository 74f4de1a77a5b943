package io.kapi.apis.groups;

import io.kapi.apis.defaults.PolicyDefaults;
import io.kapi.apis.validation.Rbac;
import io.kapi.endpoint.table.RbacPrinters;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code rbac.authorization.k8s.io} (escalation checks are an admission step: {@link io.kapi.apis.rbac.RbacEscalation}). */
final class RbacGroup {

    private static final GroupVersion V1 = new GroupVersion("rbac.authorization.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "ClusterRoleBinding")
                    .defaults(PolicyDefaults::binding)
                    .validation(Rbac.CLUSTER_ROLE_BINDING)
                    .printer(RbacPrinters::clusterRoleBindings),
            BuiltinKind.of(V1, "ClusterRole")
                    .validation(Rbac.CLUSTER_ROLE),
            BuiltinKind.of(V1, "RoleBinding")
                    .defaults(PolicyDefaults::binding)
                    .validation(Rbac.ROLE_BINDING)
                    .printer(RbacPrinters::roleBindings),
            BuiltinKind.of(V1, "Role")
                    .validation(Rbac.ROLE));

    private RbacGroup() {
    }
}
