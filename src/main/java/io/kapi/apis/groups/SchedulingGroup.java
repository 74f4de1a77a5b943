package io.kapi.apis.groups;

import io.kapi.apis.defaults.PolicyDefaults;
import io.kapi.apis.validation.Cluster;
import io.kapi.endpoint.table.PolicyPrinters;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code scheduling.k8s.io}. */
final class SchedulingGroup {

    private static final GroupVersion V1 = new GroupVersion("scheduling.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "PriorityClass")
                    .defaults(PolicyDefaults::priorityClass)
                    .validation(Cluster.PRIORITY_CLASS)
                    .printer(PolicyPrinters::priorityClasses));

    private SchedulingGroup() {
    }
}
