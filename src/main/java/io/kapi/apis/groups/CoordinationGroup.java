package io.kapi.apis.groups;

import io.kapi.apis.validation.Cluster;
import io.kapi.endpoint.table.PolicyPrinters;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code coordination.k8s.io}. */
final class CoordinationGroup {

    private static final GroupVersion V1 = new GroupVersion("coordination.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "Lease")
                    .validation(Cluster.LEASE)
                    .printer(PolicyPrinters::leases));

    private CoordinationGroup() {
    }
}
