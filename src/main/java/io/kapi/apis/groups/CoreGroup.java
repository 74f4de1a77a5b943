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
import io.kapi.apis.validation.Storage;
import io.kapi.apis.validation.Workloads;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/** The kinds of the core group ({@code v1}), as kube's {@code pkg/registry/core}. */
final class CoreGroup {

    private static final GroupVersion V1 = new GroupVersion("", "v1");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "Binding"),
            BuiltinKind.of(V1, "ComponentStatus"),
            BuiltinKind.of(V1, "ConfigMap")
                    .validation(ConfigData.CONFIG_MAP),
            BuiltinKind.of(V1, "Endpoints")
                    .defaults(CoreDefaults::endpoints)
                    .validation(EndpointRules.ENDPOINTS),
            BuiltinKind.of(V1, "Event")
                    .validation(Cluster.EVENT),
            BuiltinKind.of(V1, "LimitRange")
                    .defaults(CoreDefaults::limitRange)
                    .validation(ClusterKinds.LIMIT_RANGE),
            BuiltinKind.of(V1, "Namespace")
                    .defaults(CoreDefaults::namespace)
                    .validation(Cluster.NAMESPACE)
                    .strategy((base, server) -> new NamespaceStrategy(base)),
            BuiltinKind.of(V1, "Node")
                    .defaults(CoreDefaults::node)
                    .validation(Cluster.NODE),
            BuiltinKind.of(V1, "PersistentVolumeClaim")
                    .defaults(CoreDefaults::persistentVolumeClaim)
                    .validation(Storage.PVC)
                    .status(o -> F.objectNode()),
            BuiltinKind.of(V1, "PersistentVolume")
                    .defaults(CoreDefaults::persistentVolume)
                    .validation(Storage.PV)
                    .status(o -> F.objectNode().put("phase", "Pending")),
            BuiltinKind.of(V1, "Pod")
                    .defaults(CoreDefaults::pod)
                    .validation(Pods.RULES)
                    .status(Pods::initialStatus)
                    .strategy((base, server) -> new PodStrategy(base)),
            BuiltinKind.of(V1, "PodTemplate")
                    .defaults(CoreDefaults::podTemplate)
                    .validation(Workloads.POD_TEMPLATE),
            BuiltinKind.of(V1, "ReplicationController")
                    .defaults(CoreDefaults::replicationController)
                    .validation(Workloads.REPLICATION_CONTROLLER)
                    .status(o -> F.objectNode().put("replicas", 0)),
            BuiltinKind.of(V1, "ResourceQuota")
                    .defaults(CoreDefaults::resourceQuota)
                    .validation(Quotas.RULES)
                    .status(o -> F.objectNode()),
            BuiltinKind.of(V1, "Secret")
                    .defaults(CoreDefaults::secret)
                    .validation(ConfigData.SECRET),
            BuiltinKind.of(V1, "ServiceAccount"),
            BuiltinKind.of(V1, "Service")
                    .defaults(CoreDefaults::service)
                    .validation(Services.RULES)
                    .status(o -> loadBalancerStatus())
                    .strategy((base, server) -> server.services().apply(base)));

    private CoreGroup() {
    }

    /** A new Service's (and Ingress's) status: an empty {@code loadBalancer}. */
    static ObjectNode loadBalancerStatus() {
        ObjectNode s = F.objectNode();
        s.putObject("loadBalancer");
        return s;
    }
}
