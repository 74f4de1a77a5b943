package io.kapi.apis.validation;

import static io.kapi.apis.validation.Fixtures.DEPLOYMENT;
import static io.kapi.apis.validation.Fixtures.POD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Updates: immutable fields with kube's paths and messages. */
class UpdateValidationTest {

    static final String JOB = """
            apiVersion: batch/v1
            kind: Job
            metadata: {name: j, namespace: default}
            spec:
              completions: 1
              manualSelector: true
              selector: {matchLabels: {job: j}}
              template:
                metadata: {labels: {job: j}}
                spec:
                  restartPolicy: Never
                  containers: [{name: c, image: busybox}]
            """;

    static final String SERVICE = """
            apiVersion: v1
            kind: Service
            metadata: {name: s, namespace: default}
            spec:
              type: ClusterIP
              clusterIP: 10.96.0.10
              clusterIPs: [10.96.0.10]
              ports: [{port: 80, protocol: TCP, targetPort: 8080}]
            """;

    static final String CONFIG_MAP = """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: c, namespace: default}
            immutable: true
            data: {a: "1"}
            """;

    static final String STATEFUL_SET = """
            apiVersion: apps/v1
            kind: StatefulSet
            metadata: {name: db, namespace: default}
            spec:
              serviceName: db
              replicas: 1
              selector: {matchLabels: {app: db}}
              template:
                metadata: {labels: {app: db}}
                spec:
                  containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /var/lib}]}]
              volumeClaimTemplates:
              - metadata: {name: data}
                spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
            """;

    static final String ROLE_BINDING = """
            apiVersion: rbac.authorization.k8s.io/v1
            kind: RoleBinding
            metadata: {name: b, namespace: default}
            roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
            subjects: [{kind: User, name: alice}]
            """;

    @ParameterizedTest(name = "{0}")
    @DisplayName("an update of an immutable field is refused with kube's message")
    @MethodSource("updates")
    void updates(String name, String now, String old, List<String> expected) {
        assertEquals(expected, Fixtures.update(now, old));
    }

    static Stream<Arguments> updates() {
        return Stream.of(
                Arguments.of("pod: image may change", POD.replace("nginx:1.27", "nginx:1.28"), POD, List.of()),
                Arguments.of("pod: containers may not be added", POD + "  - {name: b, image: x}\n", POD,
                        List.of("spec.containers: Forbidden: pod updates may not add or remove containers")),
                Arguments.of("pod: tolerations may only be added", POD.replace("spec:\n",
                        "spec:\n  tolerations: [{key: a, operator: Exists}]\n"), POD.replace("spec:\n",
                        "spec:\n  tolerations: [{key: b, operator: Exists}]\n"),
                        List.of("spec.tolerations: Forbidden: existing toleration can not be modified except its "
                                + "tolerationSeconds")),
                Arguments.of("deployment: selector is immutable", DEPLOYMENT.replace("app: web", "app: v2"), DEPLOYMENT,
                        List.of("spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"
                                + "\"app\":\"v2\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is "
                                + "immutable")),
                Arguments.of("deployment: replicas may change", DEPLOYMENT.replace("replicas: 2", "replicas: 5"),
                        DEPLOYMENT, List.of()),
                Arguments.of("job: template is immutable", JOB.replace("image: busybox", "image: busybox:2"), JOB,
                        List.of("spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable")),
                Arguments.of("job: completions are immutable", JOB.replace("completions: 1", "completions: 2"), JOB,
                        List.of("spec.completions: Invalid value: 2: field is immutable")),
                Arguments.of("service: clusterIP may not change", SERVICE.replace("10.96.0.10", "10.96.0.11"), SERVICE,
                        List.of("spec.clusterIPs[0]: Invalid value: []string{\"10.96.0.11\"}: may not change once set")),
                Arguments.of("service: clusterIP may be omitted (kept)", SERVICE.replace("  clusterIP: 10.96.0.10\n", "")
                        .replace("  clusterIPs: [10.96.0.10]\n", ""), SERVICE, List.of()),
                Arguments.of("configmap: data immutable when immutable", CONFIG_MAP.replace("\"1\"", "\"2\""), CONFIG_MAP,
                        List.of("data: Forbidden: field is immutable when `immutable` is set")),
                Arguments.of("configmap: immutable can't be unset", CONFIG_MAP.replace("immutable: true", "immutable: false"),
                        CONFIG_MAP, List.of("immutable: Forbidden: field is immutable when `immutable` is set")),
                Arguments.of("secret: unchanged stringData of an immutable secret passes", """
                        apiVersion: v1
                        kind: Secret
                        metadata: {name: s, namespace: default}
                        immutable: true
                        stringData: {a: b}
                        """, """
                        apiVersion: v1
                        kind: Secret
                        metadata: {name: s, namespace: default}
                        immutable: true
                        data: {a: Yg==}
                        """, List.of()),
                Arguments.of("secret: data of an immutable secret is immutable", """
                        apiVersion: v1
                        kind: Secret
                        metadata: {name: s, namespace: default}
                        immutable: true
                        stringData: {a: c}
                        """, """
                        apiVersion: v1
                        kind: Secret
                        metadata: {name: s, namespace: default}
                        immutable: true
                        data: {a: Yg==}
                        """, List.of("data: Forbidden: field is immutable when `immutable` is set")),
                Arguments.of("secret: type is immutable", """
                        apiVersion: v1
                        kind: Secret
                        metadata: {name: s, namespace: default}
                        type: kubernetes.io/basic-auth
                        data: {username: eA==}
                        """, """
                        apiVersion: v1
                        kind: Secret
                        metadata: {name: s, namespace: default}
                        type: Opaque
                        """, List.of("type: Invalid value: \"kubernetes.io/basic-auth\": field is immutable")),
                Arguments.of("statefulset: volumeClaimTemplates are immutable", STATEFUL_SET.replace("1Gi", "2Gi"),
                        STATEFUL_SET, List.of("spec: Forbidden: " + Workloads.STATEFULSET_UPDATABLE)),
                Arguments.of("statefulset: replicas and template may change", STATEFUL_SET.replace("replicas: 1",
                        "replicas: 3").replace("image: postgres", "image: postgres:17"), STATEFUL_SET, List.of()),
                Arguments.of("rolebinding: roleRef is immutable", ROLE_BINDING.replace("name: reader", "name: writer"),
                        ROLE_BINDING, List.of("roleRef: Invalid value: rbac.RoleRef{APIGroup:\"rbac.authorization.k8s.io\", "
                                + "Kind:\"Role\", Name:\"writer\"}: cannot change roleRef")),
                Arguments.of("priorityclass: value is immutable", """
                        apiVersion: scheduling.k8s.io/v1
                        kind: PriorityClass
                        metadata: {name: high}
                        value: 2000
                        """, """
                        apiVersion: scheduling.k8s.io/v1
                        kind: PriorityClass
                        metadata: {name: high}
                        value: 1000
                        """, List.of("value: Forbidden: may not be changed in an update.")),
                Arguments.of("storageclass: parameters are immutable", """
                        apiVersion: storage.k8s.io/v1
                        kind: StorageClass
                        metadata: {name: sc}
                        provisioner: example.com/disk
                        parameters: {type: ssd}
                        """, """
                        apiVersion: storage.k8s.io/v1
                        kind: StorageClass
                        metadata: {name: sc}
                        provisioner: example.com/disk
                        parameters: {type: hdd}
                        """, List.of("parameters: Forbidden: updates to parameters are forbidden.")));
    }

    @Test
    @DisplayName("a pod spec change beyond the mutable fields is refused with kube 1.34's list and a diff")
    void podSpecForbidden() {
        List<String> errors = Fixtures.update(POD.replace("spec:\n", "spec:\n  nodeName: n2\n"),
                POD.replace("spec:\n", "spec:\n  nodeName: n1\n"));
        assertEquals(1, errors.size());
        assertTrue(errors.getFirst().startsWith("spec: Forbidden: pod updates may not change fields other than "
                + "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
                + "`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` "
                + "(allow it to be set to 1 if it was previously negative)\n"), errors.getFirst());
        assertTrue(errors.getFirst().contains("- \tNodeName: \"n1\""), errors.getFirst());
        assertTrue(errors.getFirst().contains("+ \tNodeName: \"n2\""), errors.getFirst());
    }

    @Test
    @DisplayName("a PVC's spec is immutable except its storage request once bound")
    void pvc() {
        String pvc = """
                apiVersion: v1
                kind: PersistentVolumeClaim
                metadata: {name: c, namespace: default}
                spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
                status: {phase: Bound, capacity: {storage: 1Gi}}
                """;
        assertEquals(List.of(), Fixtures.update(pvc.replace("storage: 1Gi}}}", "storage: 2Gi}}}"), pvc));
        List<String> errors = Fixtures.update(pvc.replace("ReadWriteOnce", "ReadWriteMany"), pvc);
        assertEquals(1, errors.size());
        assertTrue(errors.getFirst().startsWith("spec: Forbidden: " + Storage.PVC_IMMUTABLE + "\n"), errors.getFirst());
    }
}
