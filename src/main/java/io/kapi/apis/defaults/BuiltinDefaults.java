package io.kapi.apis.defaults;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.registry.Defaulter;
import java.util.HashMap;
import java.util.Map;

/**
 * The defaulting of every built-in kind, as kube-apiserver 1.34's {@code SetObjectDefaults_*}
 * functions (the generated {@code zz_generated.defaults.go} plus each group's hand-written
 * {@code defaults.go}), including the pod templates nested in workloads.
 *
 * <p>Each {@link Defaulter} fills only what is unset in Go's sense (see {@link Fields}), so applying
 * it twice changes nothing the second time. What admission plugins add (ServiceAccount, Priority,
 * DefaultTolerationSeconds, ...) is not here: {@link io.kapi.assembly.AdmissionPlugins}.
 */
public final class BuiltinDefaults {

    private static final Map<GroupVersionKind, Defaulter> DEFAULTERS = build();

    private BuiltinDefaults() {
    }

    /** The defaulter of {@code gvk}, or {@link Defaulter#NONE} for kinds without defaults. */
    public static Defaulter forKind(GroupVersionKind gvk) {
        return DEFAULTERS.getOrDefault(gvk, Defaulter.NONE);
    }

    private static Map<GroupVersionKind, Defaulter> build() {
        Map<GroupVersionKind, Defaulter> map = new HashMap<>();
        put(map, "", "v1", "Pod", BuiltinDefaults::pod);
        put(map, "", "v1", "PodTemplate", CoreDefaults::podTemplate);
        put(map, "", "v1", "ReplicationController", CoreDefaults::replicationController);
        put(map, "", "v1", "Service", CoreDefaults::service);
        put(map, "", "v1", "PersistentVolume", CoreDefaults::persistentVolume);
        put(map, "", "v1", "PersistentVolumeClaim", CoreDefaults::persistentVolumeClaim);
        put(map, "", "v1", "Secret", CoreDefaults::secret);
        put(map, "", "v1", "Endpoints", CoreDefaults::endpoints);
        put(map, "", "v1", "Namespace", CoreDefaults::namespace);
        put(map, "", "v1", "Node", CoreDefaults::node);
        put(map, "", "v1", "LimitRange", CoreDefaults::limitRange);
        put(map, "", "v1", "ResourceQuota", CoreDefaults::resourceQuota);
        put(map, "apps", "v1", "Deployment", WorkloadDefaults::deployment);
        put(map, "apps", "v1", "ReplicaSet", WorkloadDefaults::replicaSet);
        put(map, "apps", "v1", "StatefulSet", WorkloadDefaults::statefulSet);
        put(map, "apps", "v1", "DaemonSet", WorkloadDefaults::daemonSet);
        put(map, "batch", "v1", "Job", WorkloadDefaults::job);
        put(map, "batch", "v1", "CronJob", WorkloadDefaults::cronJob);
        put(map, "autoscaling", "v1", "HorizontalPodAutoscaler", AutoscalingDefaults::v1);
        put(map, "autoscaling", "v2", "HorizontalPodAutoscaler", AutoscalingDefaults::v2);
        put(map, "networking.k8s.io", "v1", "NetworkPolicy", NetworkingDefaults::networkPolicy);
        put(map, "networking.k8s.io", "v1", "IngressClass", NetworkingDefaults::ingressClass);
        put(map, "discovery.k8s.io", "v1", "EndpointSlice", NetworkingDefaults::endpointSlice);
        put(map, "rbac.authorization.k8s.io", "v1", "RoleBinding", PolicyDefaults::binding);
        put(map, "rbac.authorization.k8s.io", "v1", "ClusterRoleBinding", PolicyDefaults::binding);
        put(map, "scheduling.k8s.io", "v1", "PriorityClass", PolicyDefaults::priorityClass);
        put(map, "admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration",
                o -> PolicyDefaults.webhookConfiguration(o, false));
        put(map, "admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration",
                o -> PolicyDefaults.webhookConfiguration(o, true));
        put(map, "admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy",
                PolicyDefaults::validatingAdmissionPolicy);
        put(map, "admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicyBinding",
                PolicyDefaults::validatingAdmissionPolicyBinding);
        put(map, "admissionregistration.k8s.io", "v1beta1", "ValidatingAdmissionPolicy",
                PolicyDefaults::validatingAdmissionPolicy);
        put(map, "admissionregistration.k8s.io", "v1beta1", "ValidatingAdmissionPolicyBinding",
                PolicyDefaults::validatingAdmissionPolicyBinding);
        for (String version : java.util.List.of("v1beta1", "v1alpha1")) {
            put(map, "admissionregistration.k8s.io", version, "MutatingAdmissionPolicy",
                    PolicyDefaults::validatingAdmissionPolicy);
            put(map, "admissionregistration.k8s.io", version, "MutatingAdmissionPolicyBinding",
                    PolicyDefaults::validatingAdmissionPolicyBinding);
        }
        put(map, "flowcontrol.apiserver.k8s.io", "v1", "FlowSchema", PolicyDefaults::flowSchema);
        put(map, "flowcontrol.apiserver.k8s.io", "v1", "PriorityLevelConfiguration",
                PolicyDefaults::priorityLevelConfiguration);
        put(map, "storage.k8s.io", "v1", "StorageClass", StorageDefaults::storageClass);
        put(map, "storage.k8s.io", "v1", "CSIDriver", StorageDefaults::csiDriver);
        put(map, "storage.k8s.io", "v1", "VolumeAttachment", StorageDefaults::volumeAttachment);
        put(map, "resource.k8s.io", "v1", "ResourceClaim", ExtensionDefaults::resourceClaim);
        put(map, "resource.k8s.io", "v1", "ResourceClaimTemplate", ExtensionDefaults::resourceClaimTemplate);
        put(map, "resource.k8s.io", "v1", "ResourceSlice", ExtensionDefaults::resourceSlice);
        put(map, "apiextensions.k8s.io", "v1", "CustomResourceDefinition",
                ExtensionDefaults::customResourceDefinition);
        put(map, "apiregistration.k8s.io", "v1", "APIService", ExtensionDefaults::apiService);
        return Map.copyOf(map);
    }

    private static void pod(ObjectNode pod) {
        PodSpecs.pod(pod);
    }

    private static void put(Map<GroupVersionKind, Defaulter> map, String group, String version, String kind,
                            Defaulter defaulter) {
        map.put(new GroupVersionKind(group, version, kind), defaulter);
    }
}
