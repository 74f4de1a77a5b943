package io.kapi.apis.groups;

import io.kapi.apis.validation.ClusterKinds;
import io.kapi.endpoint.table.PolicyPrinters;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code node.k8s.io}. */
final class NodeGroup {

    private static final GroupVersion V1 = new GroupVersion("node.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "RuntimeClass")
                    .validation(ClusterKinds.RUNTIME_CLASS)
                    .printer(PolicyPrinters::runtimeClasses));

    private NodeGroup() {
    }
}
