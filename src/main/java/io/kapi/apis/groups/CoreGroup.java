package io.kapi.apis.groups;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.NamespaceStrategy;
import io.kapi.apis.PodStrategy;
import io.kapi.apis.defaults.CoreDefaults;
import io.kapi.apis.validation.Cluster;
import io.kapi.apis.validation.ClusterKinds;
import io.kapi.apis.validation.ConfigData;
import io.kapi.apis.validation.EndpointRules;
import io.kapi.apis.validation.Pods;
import io.kapi.apis.validation.Quotas;
import io.kapi.apis.validation.Services;
import io.kapi.apis.validation.StatusPolicy;
import io.kapi.apis.validation.Storage;
import io.kapi.apis.validation.Workloads;
import io.kapi.endpoint.table.CorePrinters;
import io.kapi.endpoint.table.Events;
import io.kapi.endpoint.table.Volumes;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.Json;
import java.util.List;

/** The kinds of the core group ({@code v1}), as kube's {@code pkg/registry/core}. */
final class CoreGroup {

    private static final GroupVersion V1 = new GroupVersion("", "v1");
    private static final JsonNodeFactory F = Json.NODES;
    /** A new Service's (and Ingress's) status: an empty {@code loadBalancer}. */
    static final StatusPolicy LOAD_BALANCER = o -> {
        ObjectNode s = F.objectNode();
        s.putObject("loadBalancer");
        return s;
    };

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "Binding"),
            BuiltinKind.of(V1, "ComponentStatus")
                    .printer(CorePrinters::componentStatuses),
            BuiltinKind.of(V1, "ConfigMap")
                    .validation(ConfigData.CONFIG_MAP)
                    .printer(CorePrinters::configMaps),
            BuiltinKind.of(V1, "Endpoints")
                    .defaults(CoreDefaults::endpoints)
                    .validation(EndpointRules.ENDPOINTS)
                    .printer(CorePrinters::endpoints),
            BuiltinKind.of(V1, "Event")
                    .validation(Cluster.EVENT)
                    .printer(Events::coreEvents),
            BuiltinKind.of(V1, "LimitRange")
                    .defaults(CoreDefaults::limitRange)
                    .validation(ClusterKinds.LIMIT_RANGE),
            BuiltinKind.of(V1, "Namespace")
                    .defaults(CoreDefaults::namespace)
                    .validation(Cluster.NAMESPACE)
                    .strategy((base, server) -> new NamespaceStrategy(base))
                    .printer(CorePrinters::namespaces),
            BuiltinKind.of(V1, "Node")
                    .defaults(CoreDefaults::node)
                    .validation(Cluster.NODE)
                    .printer(CorePrinters::nodes),
            BuiltinKind.of(V1, "PersistentVolumeClaim")
                    .defaults(CoreDefaults::persistentVolumeClaim)
                    .validation(Storage.PVC)
                    .status(StatusPolicy.EMPTY)
                    .printer(Volumes::persistentVolumeClaims),
            BuiltinKind.of(V1, "PersistentVolume")
                    .defaults(CoreDefaults::persistentVolume)
                    .validation(Storage.PV)
                    .status(o -> F.objectNode().put("phase", "Pending"))
                    .printer(Volumes::persistentVolumes),
            BuiltinKind.of(V1, "Pod")
                    .defaults(CoreDefaults::pod)
                    .validation(Pods.RULES)
                    .status(Pods::initialStatus)
                    .strategy((base, server) -> new PodStrategy(base))
                    .printer(CorePrinters::pods),
            BuiltinKind.of(V1, "PodTemplate")
                    .defaults(CoreDefaults::podTemplate)
                    .validation(Workloads.POD_TEMPLATE)
                    .printer(CorePrinters::podTemplates)
                    .podTemplate("template"),
            BuiltinKind.of(V1, "ReplicationController")
                    .defaults(CoreDefaults::replicationController)
                    .validation(Workloads.REPLICATION_CONTROLLER)
                    .status(o -> F.objectNode().put("replicas", 0))
                    .printer(CorePrinters::replicationControllers)
                    .podTemplate("spec", "template"),
            BuiltinKind.of(V1, "ResourceQuota")
                    .defaults(CoreDefaults::resourceQuota)
                    .validation(Quotas.RULES)
                    .status(StatusPolicy.EMPTY)
                    .printer(CorePrinters::resourceQuotas),
            BuiltinKind.of(V1, "Secret")
                    .defaults(CoreDefaults::secret)
                    .validation(ConfigData.SECRET)
                    .printer(CorePrinters::secrets),
            BuiltinKind.of(V1, "ServiceAccount")
                    .printer(CorePrinters::serviceAccounts),
            BuiltinKind.of(V1, "Service")
                    .defaults(CoreDefaults::service)
                    .validation(Services.RULES)
                    .status(LOAD_BALANCER)
                    .strategy((base, server) -> server.services().apply(base))
                    .printer(CorePrinters::services));

    private CoreGroup() {
    }
}
