package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.registry.KindValidator;
import io.kapi.registry.Strategy;
import java.util.Map;

/**
 * The entry points of kube-apiserver's hand-written validation and spec/status split for the built-in kinds.
 *
 * <ul>
 *   <li>{@link #forKind} — the kind's {@link KindValidator} (field paths and messages as kube 1.34's
 *       {@code pkg/apis/<group>/validation}), {@link KindValidator#NONE} for kinds without rules. ObjectMeta
 *       rules are not repeated here: the registry applies them to every kind.</li>
 *   <li>{@link #statusPolicy} / {@link #withStatusSplit} — for kinds whose strategy resets status on create and
 *       keeps it on main-resource updates.</li>
 * </ul>
 */
public final class BuiltinValidation {

    /** "group/Kind" (core group "") → rules. */
    private static final Map<String, KindValidator> VALIDATORS = Map.ofEntries(
            Map.entry("/Pod", Pods.RULES),
            Map.entry("/PodTemplate", Rules.of((o, e) -> PodSpecs.template(GoValues.at(o, "template"), "template", e))),
            Map.entry("/ReplicationController", Workloads.REPLICATION_CONTROLLER),
            Map.entry("/Service", Services.RULES),
            Map.entry("/Endpoints", EndpointRules.ENDPOINTS),
            Map.entry("discovery.k8s.io/EndpointSlice", EndpointRules.ENDPOINT_SLICE),
            Map.entry("/ConfigMap", ConfigData.CONFIG_MAP),
            Map.entry("/Secret", ConfigData.SECRET),
            Map.entry("apps/Deployment", Workloads.DEPLOYMENT),
            Map.entry("apps/ReplicaSet", Workloads.REPLICA_SET),
            Map.entry("apps/StatefulSet", Workloads.STATEFUL_SET),
            Map.entry("apps/DaemonSet", Workloads.DAEMON_SET),
            Map.entry("batch/Job", Batch.JOB),
            Map.entry("batch/CronJob", Batch.CRON_JOB),
            Map.entry("/PersistentVolumeClaim", Storage.PVC),
            Map.entry("/PersistentVolume", Storage.PV),
            Map.entry("storage.k8s.io/StorageClass", Storage.STORAGE_CLASS),
            Map.entry("storage.k8s.io/CSIDriver", StorageKinds.CSI_DRIVER),
            Map.entry("storage.k8s.io/CSINode", StorageKinds.CSI_NODE),
            Map.entry("storage.k8s.io/CSIStorageCapacity", StorageKinds.CSI_STORAGE_CAPACITY),
            Map.entry("storage.k8s.io/VolumeAttachment", VolumeAttachments.RULES),
            Map.entry("storage.k8s.io/VolumeAttributesClass", StorageKinds.VOLUME_ATTRIBUTES_CLASS),
            Map.entry("/Namespace", Cluster.NAMESPACE),
            Map.entry("/Node", Cluster.NODE),
            Map.entry("/Event", Cluster.EVENT),
            Map.entry("events.k8s.io/Event", EventRules.STRICT),
            Map.entry("coordination.k8s.io/Lease", Cluster.LEASE),
            Map.entry("scheduling.k8s.io/PriorityClass", Cluster.PRIORITY_CLASS),
            Map.entry("/LimitRange", ClusterKinds.LIMIT_RANGE),
            Map.entry("/ResourceQuota", Quotas.RULES),
            Map.entry("apiregistration.k8s.io/APIService", ApiServices.RULES),
            Map.entry("networking.k8s.io/IngressClass", ClusterKinds.INGRESS_CLASS),
            Map.entry("node.k8s.io/RuntimeClass", ClusterKinds.RUNTIME_CLASS),
            Map.entry("rbac.authorization.k8s.io/Role", Rbac.ROLE),
            Map.entry("rbac.authorization.k8s.io/ClusterRole", Rbac.CLUSTER_ROLE),
            Map.entry("rbac.authorization.k8s.io/RoleBinding", Rbac.ROLE_BINDING),
            Map.entry("rbac.authorization.k8s.io/ClusterRoleBinding", Rbac.CLUSTER_ROLE_BINDING),
            Map.entry("policy/PodDisruptionBudget", Scaling.PDB),
            Map.entry("autoscaling/HorizontalPodAutoscaler", Scaling.HPA),
            Map.entry("networking.k8s.io/Ingress", Networking.INGRESS),
            Map.entry("networking.k8s.io/NetworkPolicy", Networking.NETWORK_POLICY),
            Map.entry("admissionregistration.k8s.io/ValidatingAdmissionPolicy", AdmissionPolicies.POLICY),
            Map.entry("admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding", AdmissionPolicies.BINDING),
            Map.entry("admissionregistration.k8s.io/MutatingAdmissionPolicy", MutatingPolicies.POLICY),
            Map.entry("admissionregistration.k8s.io/MutatingAdmissionPolicyBinding", MutatingPolicies.BINDING),
            Map.entry("admissionregistration.k8s.io/ValidatingWebhookConfiguration", AdmissionPolicies.WEBHOOKS),
            Map.entry("admissionregistration.k8s.io/MutatingWebhookConfiguration", AdmissionPolicies.WEBHOOKS),
            Map.entry("certificates.k8s.io/CertificateSigningRequest", Certificates.CSR),
            Map.entry("apps/ControllerRevision", MoreKinds.CONTROLLER_REVISION),
            Map.entry("networking.k8s.io/IPAddress", MoreKinds.IP_ADDRESS),
            Map.entry("networking.k8s.io/ServiceCIDR", MoreKinds.SERVICE_CIDR),
            Map.entry("flowcontrol.apiserver.k8s.io/FlowSchema", FlowControl.FLOW_SCHEMA),
            Map.entry("flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration", FlowControl.PRIORITY_LEVEL),
            Map.entry("resource.k8s.io/DeviceClass", DeviceClasses.RULES),
            Map.entry("resource.k8s.io/ResourceClaim", ResourceClaims.CLAIM),
            Map.entry("resource.k8s.io/ResourceClaimTemplate", ResourceClaims.TEMPLATE),
            Map.entry("resource.k8s.io/ResourceSlice", ResourceSlices.RULES));

    private static final JsonNodeFactory F = Json.NODES;

    /** "group/Kind" → the status kube's PrepareForCreate leaves (zero-value status as the v1 JSON shows it). */
    private static final Map<String, StatusPolicy> STATUS = Map.ofEntries(
            Map.entry("/Pod", BuiltinValidation::podStatus),
            Map.entry("/ReplicationController", o -> F.objectNode().put("replicas", 0)),
            Map.entry("/Service", o -> {
                ObjectNode s = F.objectNode();
                s.putObject("loadBalancer");
                return s;
            }),
            Map.entry("/PersistentVolumeClaim", o -> F.objectNode()),
            Map.entry("/PersistentVolume", o -> F.objectNode().put("phase", "Pending")),
            Map.entry("/ResourceQuota", o -> F.objectNode()),
            Map.entry("apps/Deployment", o -> F.objectNode()),
            Map.entry("apps/ReplicaSet", o -> F.objectNode().put("replicas", 0)),
            Map.entry("apps/StatefulSet", o -> F.objectNode().put("replicas", 0).put("availableReplicas", 0)),
            Map.entry("apps/DaemonSet", o -> F.objectNode().put("currentNumberScheduled", 0)
                    .put("numberMisscheduled", 0).put("desiredNumberScheduled", 0).put("numberReady", 0)),
            Map.entry("batch/Job", o -> F.objectNode()),
            Map.entry("batch/CronJob", o -> F.objectNode()),
            Map.entry("policy/PodDisruptionBudget", o -> F.objectNode().put("disruptionsAllowed", 0)
                    .put("currentHealthy", 0).put("desiredHealthy", 0).put("expectedPods", 0)),
            Map.entry("networking.k8s.io/Ingress", o -> {
                ObjectNode s = F.objectNode();
                s.putObject("loadBalancer");
                return s;
            }),
            Map.entry("certificates.k8s.io/CertificateSigningRequest", o -> F.objectNode()),
            Map.entry("resource.k8s.io/ResourceClaim", o -> F.objectNode()),
            Map.entry("admissionregistration.k8s.io/ValidatingAdmissionPolicy", o -> F.objectNode()));

    private BuiltinValidation() {
    }

    /**
     * The validation of a built-in kind beyond its schema and ObjectMeta; {@link KindValidator#NONE} if none.
     * The rules check the object as stored: for a kind served in several versions, in its storage
     * version (HorizontalPodAutoscalers as autoscaling/v2, events.k8s.io Events as core/v1 Events).
     */
    public static KindValidator forKind(GroupVersionKind gvk) {
        return VALIDATORS.getOrDefault(gvk.group() + "/" + gvk.kind(), KindValidator.NONE);
    }

    /** The kind's status policy, or null when its main resource does not split spec and status. */
    public static StatusPolicy statusPolicy(GroupVersionKind gvk) {
        if (gvk.group().equals("autoscaling") && gvk.kind().equals("HorizontalPodAutoscaler")) {
            return gvk.version().equals("v1")
                    ? o -> F.objectNode().put("currentReplicas", 0).put("desiredReplicas", 0)
                    : o -> F.objectNode().put("desiredReplicas", 0);
        }
        return STATUS.get(gvk.group() + "/" + gvk.kind());
    }

    /** {@code strategy} wrapped in a {@link SpecStatusStrategy} when the kind has a status policy, else itself. */
    public static Strategy withStatusSplit(Strategy strategy, GroupVersionKind gvk) {
        StatusPolicy policy = statusPolicy(gvk);
        return policy == null ? strategy : new SpecStatusStrategy(strategy, policy);
    }

    /** A new pod: {@code Pending} with its QoS class, as kube's pod strategy PrepareForCreate. */
    private static ObjectNode podStatus(ObjectNode pod) {
        return F.objectNode().put("phase", "Pending").put("qosClass", PodQos.compute(GoValues.at(pod, "spec")));
    }
}
