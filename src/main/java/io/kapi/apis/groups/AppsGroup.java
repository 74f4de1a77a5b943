package io.kapi.apis.groups;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kapi.apis.defaults.WorkloadDefaults;
import io.kapi.apis.validation.MoreKinds;
import io.kapi.apis.validation.StatusPolicy;
import io.kapi.apis.validation.Workloads;
import io.kapi.endpoint.table.AppsPrinters;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.Json;
import java.util.List;

/** The kinds of {@code apps}, as kube's {@code pkg/registry/apps}. */
final class AppsGroup {

    private static final GroupVersion V1 = new GroupVersion("apps", "v1");
    private static final JsonNodeFactory F = Json.NODES;

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "ControllerRevision")
                    .validation(MoreKinds.CONTROLLER_REVISION)
                    .printer(AppsPrinters::controllerRevisions),
            BuiltinKind.of(V1, "DaemonSet")
                    .defaults(WorkloadDefaults::daemonSet)
                    .validation(Workloads.DAEMON_SET)
                    .status(o -> F.objectNode().put("currentNumberScheduled", 0).put("numberMisscheduled", 0)
                            .put("desiredNumberScheduled", 0).put("numberReady", 0))
                    .printer(AppsPrinters::daemonSets)
                    .podTemplate("spec", "template"),
            BuiltinKind.of(V1, "Deployment")
                    .defaults(WorkloadDefaults::deployment)
                    .validation(Workloads.DEPLOYMENT)
                    .status(StatusPolicy.EMPTY)
                    .printer(AppsPrinters::deployments)
                    .podTemplate("spec", "template"),
            BuiltinKind.of(V1, "ReplicaSet")
                    .defaults(WorkloadDefaults::replicaSet)
                    .validation(Workloads.REPLICA_SET)
                    .status(o -> F.objectNode().put("replicas", 0))
                    .printer(AppsPrinters::replicaSets)
                    .podTemplate("spec", "template"),
            BuiltinKind.of(V1, "StatefulSet")
                    .defaults(WorkloadDefaults::statefulSet)
                    .validation(Workloads.STATEFUL_SET)
                    .status(o -> F.objectNode().put("replicas", 0).put("availableReplicas", 0))
                    .printer(AppsPrinters::statefulSets)
                    .podTemplate("spec", "template"));

    private AppsGroup() {
    }
}
