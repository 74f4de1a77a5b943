package io.kapi.apis.groups;

import io.kapi.apis.defaults.PolicyDefaults;
import io.kapi.apis.validation.FlowControl;
import io.kapi.endpoint.table.ControlPlanePrinters;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of {@code flowcontrol.apiserver.k8s.io} (API Priority and Fairness). */
final class FlowControlGroup {

    private static final GroupVersion V1 = new GroupVersion("flowcontrol.apiserver.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "FlowSchema")
                    .defaults(PolicyDefaults::flowSchema)
                    .validation(FlowControl.FLOW_SCHEMA)
                    .printer(ControlPlanePrinters::flowSchemas),
            BuiltinKind.of(V1, "PriorityLevelConfiguration")
                    .defaults(PolicyDefaults::priorityLevelConfiguration)
                    .validation(FlowControl.PRIORITY_LEVEL)
                    .printer(ControlPlanePrinters::priorityLevelConfigurations));

    private FlowControlGroup() {
    }
}
