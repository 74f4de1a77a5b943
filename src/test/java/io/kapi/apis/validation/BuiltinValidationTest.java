package io.kapi.apis.validation;

import static io.kapi.apis.validation.Fixtures.DEPLOYMENT;
import static io.kapi.apis.validation.Fixtures.POD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.kapi.apis.groups.BuiltinKinds;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.registry.KindValidator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Creates: kube's expected paths and messages (cases after kube's validation_test.go files). */
class BuiltinValidationTest {

    static final String DNS_LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters "
            + "or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
            + "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

    @ParameterizedTest(name = "{0}")
    @DisplayName("a create is refused with kube's field paths and messages")
    @MethodSource("creates")
    void creates(String name, String yaml, List<String> expected) {
        assertEquals(expected, Fixtures.create(yaml));
    }

    static Stream<Arguments> creates() {
        return Stream.of(
                Arguments.of("a valid pod passes", POD, List.of()),
                Arguments.of("a valid deployment passes", DEPLOYMENT, List.of()),
                Arguments.of("pod: no containers", POD.replaceAll("(?s)  containers:.*", "  containers: []\n"),
                        List.of("spec.containers: Required value")),
                Arguments.of("pod: container name, image, port, protocol", POD
                        .replace("name: app", "name: Bad_Name").replace("image: nginx:1.27", "image: \"\"")
                        + "    ports: [{containerPort: 70000, protocol: FOO}, {containerPort: 80, name: http},"
                        + " {containerPort: 81, name: http}]\n",
                        List.of("spec.containers[0].name: Invalid value: \"Bad_Name\": " + DNS_LABEL,
                                "spec.containers[0].image: Required value",
                                "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 "
                                        + "and 65535, inclusive",
                                "spec.containers[0].ports[0].protocol: Unsupported value: \"FOO\": supported values: "
                                        + "\"SCTP\", \"TCP\", \"UDP\"",
                                "spec.containers[0].ports[2].name: Duplicate value: \"http\"")),
                Arguments.of("pod: duplicate container names", POD + "  - {name: app, image: x}\n",
                        List.of("spec.containers[1].name: Duplicate value: \"app\"")),
                Arguments.of("pod: restart and dns policies", POD.replace("restartPolicy: Always", "restartPolicy: Sometimes")
                        .replace("dnsPolicy: ClusterFirst", "dnsPolicy: Bogus"),
                        List.of("spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", "
                                        + "\"OnFailure\", \"Never\"",
                                "spec.dnsPolicy: Unsupported value: \"Bogus\": supported values: "
                                        + "\"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\"")),
                Arguments.of("pod: volumes need one source, unique names; mounts need a volume", POD
                        + "    volumeMounts: [{name: missing, mountPath: /a}, {name: v1, mountPath: /a}]\n"
                        + "  volumes: [{name: v1, emptyDir: {}}, {name: v1, emptyDir: {}}, {name: v2},"
                        + " {name: v3, emptyDir: {}, hostPath: {path: /x}}]\n",
                        List.of("spec.volumes[1].name: Duplicate value: \"v1\"",
                                "spec.volumes[2]: Required value: must specify a volume type",
                                "spec.volumes[3].emptyDir: Forbidden: may not specify more than 1 volume type",
                                "spec.containers[0].volumeMounts[0].name: Not found: \"missing\"",
                                "spec.containers[0].volumeMounts[1].mountPath: Invalid value: \"/a\": must be unique")),
                Arguments.of("pod: requests above limits", POD
                        + "    resources: {requests: {cpu: 2, memory: 1Gi}, limits: {cpu: 500m, memory: 1Gi}}\n",
                        List.of("spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or "
                                + "equal to cpu limit of 500m")),
                Arguments.of("pod: env names and valueFrom", POD
                        + "    env: [{name: \"\"}, {name: \"A=B\"}, {name: X, value: v, valueFrom: {fieldRef: "
                        + "{fieldPath: metadata.name}}}]\n",
                        List.of("spec.containers[0].env[0].name: Required value",
                                "spec.containers[0].env[1].name: Invalid value: \"A=B\": a valid environment variable "
                                        + "name must consist only of printable ASCII characters other than '='",
                                "spec.containers[0].env[2].valueFrom: Invalid value: \"\": may not be specified when "
                                        + "`value` is not empty")),
                Arguments.of("pod: probes need one handler and successThreshold 1", POD
                        + "    livenessProbe: {successThreshold: 2, periodSeconds: -1}\n"
                        + "    readinessProbe: {exec: {command: [x]}, httpGet: {port: 80}}\n",
                        List.of("spec.containers[0].livenessProbe: Required value: must specify a handler type",
                                "spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater "
                                        + "than or equal to 0",
                                "spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1",
                                "spec.containers[0].readinessProbe.httpGet: Forbidden: may not specify more than 1 "
                                        + "handler type")),
                Arguments.of("deployment: selector must match template labels", DEPLOYMENT.replace(
                        "metadata: {labels: {app: web}}", "metadata: {labels: {app: other}}"),
                        List.of("spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"other\"}: "
                                + "`selector` does not match template `labels`")),
                Arguments.of("deployment: missing selector", DEPLOYMENT.replace(
                        "  selector: {matchLabels: {app: web}}\n", ""),
                        List.of("spec.selector: Required value",
                                "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: "
                                        + "`selector` does not match template `labels`")),
                Arguments.of("deployment: replicas, strategy, restart policy", DEPLOYMENT
                        .replace("replicas: 2", "replicas: -1")
                        .replace("maxUnavailable: 25%, maxSurge: 25%", "maxUnavailable: 0, maxSurge: 0")
                        .replace("containers: [{name: web, image: nginx}]",
                                "restartPolicy: Never\n      containers: [{name: web, image: nginx}]"),
                        List.of("spec.replicas: Invalid value: -1: must be greater than or equal to 0",
                                "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: "
                                        + "\"Always\"",
                                "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when "
                                        + "`maxSurge` is 0")),
                Arguments.of("job: restart policy Always is not allowed", """
                        apiVersion: batch/v1
                        kind: Job
                        metadata: {name: j, namespace: default}
                        spec:
                          completions: -1
                          manualSelector: true
                          selector: {matchLabels: {app: j}}
                          template:
                            metadata: {labels: {app: j}}
                            spec:
                              containers: [{name: c, image: busybox}]
                        """,
                        List.of("spec.completions: Invalid value: -1: must be greater than or equal to 0",
                                "spec.template.spec.restartPolicy: Unsupported value: \"Always\": supported values: "
                                        + "\"OnFailure\", \"Never\"")),
                Arguments.of("job: a selector the client wrote, without manualSelector, is refused", """
                        apiVersion: batch/v1
                        kind: Job
                        metadata: {name: j, namespace: default, uid: 7d0c5e0a-0000-4000-8000-000000000001}
                        spec:
                          selector: {matchLabels: {app: j, batch.kubernetes.io/controller-uid: 7d0c5e0a-0000-4000-8000-000000000001}}
                          template:
                            metadata:
                              labels: {app: j, job-name: j, batch.kubernetes.io/job-name: j,
                                       controller-uid: 7d0c5e0a-0000-4000-8000-000000000001,
                                       batch.kubernetes.io/controller-uid: 7d0c5e0a-0000-4000-8000-000000000001}
                            spec:
                              restartPolicy: Never
                              containers: [{name: c, image: busybox}]
                        """,
                        List.of("spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"j\", "
                                + "\"batch.kubernetes.io/controller-uid\":\"7d0c5e0a-0000-4000-8000-000000000001\"}, "
                                + "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated")),
                Arguments.of("job: a generated label the client changed must be the job's", """
                        apiVersion: batch/v1
                        kind: Job
                        metadata: {name: j, namespace: default, uid: 7d0c5e0a-0000-4000-8000-000000000001}
                        spec:
                          selector: {matchLabels: {batch.kubernetes.io/controller-uid: 7d0c5e0a-0000-4000-8000-000000000001}}
                          template:
                            metadata:
                              labels: {job-name: other, batch.kubernetes.io/job-name: j,
                                       controller-uid: 7d0c5e0a-0000-4000-8000-000000000001,
                                       batch.kubernetes.io/controller-uid: 7d0c5e0a-0000-4000-8000-000000000001}
                            spec:
                              restartPolicy: Never
                              containers: [{name: c, image: busybox}]
                        """,
                        List.of("spec.template.metadata.labels[job-name]: Invalid value: map[string]string{"
                                + "\"batch.kubernetes.io/controller-uid\":\"7d0c5e0a-0000-4000-8000-000000000001\", "
                                + "\"batch.kubernetes.io/job-name\":\"j\", \"controller-uid\":\"7d0c5e0a-0000-4000-8000-000000000001\", "
                                + "\"job-name\":\"other\"}: must be 'j'")),
                Arguments.of("cronjob: schedule and time zone", """
                        apiVersion: batch/v1
                        kind: CronJob
                        metadata: {name: cj, namespace: default}
                        spec:
                          schedule: "* * * *"
                          timeZone: Mars/Olympus
                          jobTemplate:
                            spec:
                              template:
                                spec:
                                  restartPolicy: OnFailure
                                  containers: [{name: c, image: busybox}]
                        """,
                        List.of("spec.schedule: Invalid value: \"* * * *\": expected exactly 5 fields, found 4: "
                                        + "[* * * *]",
                                "spec.timeZone: Invalid value: \"Mars/Olympus\": unknown time zone Mars/Olympus")),
                Arguments.of("service: ports required, names when several, type", """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: s, namespace: default}
                        spec:
                          type: Bogus
                          ports: [{port: 80}, {port: 0, name: b}]
                        """,
                        List.of("spec.ports[0].name: Required value",
                                "spec.ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive",
                                "spec.type: Unsupported value: \"Bogus\": supported values: \"ClusterIP\", "
                                        + "\"ExternalName\", \"LoadBalancer\", \"NodePort\"")),
                Arguments.of("service: ExternalName needs externalName", """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: s, namespace: default}
                        spec: {type: ExternalName}
                        """,
                        List.of("spec.externalName: Required value")),
                Arguments.of("service: no ports unless headless", """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: s, namespace: default}
                        spec: {type: ClusterIP}
                        """,
                        List.of("spec.ports: Required value")),
                Arguments.of("configmap: keys", """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata: {name: c, namespace: default}
                        data: {"bad key": x, ok: y}
                        binaryData: {ok: eQ==}
                        """,
                        List.of("data[bad key]: Invalid value: \"bad key\": a valid config key must consist of "
                                        + "alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  "
                                        + "or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
                                "data[ok]: Invalid value: \"ok\": duplicate of key present in binaryData")),
                Arguments.of("secret: tls keys and service account annotation", """
                        apiVersion: v1
                        kind: Secret
                        metadata: {name: s, namespace: default}
                        type: kubernetes.io/tls
                        data: {tls.crt: eA==}
                        """,
                        List.of("data[tls.key]: Required value")),
                Arguments.of("secret: service-account-token needs its annotation", """
                        apiVersion: v1
                        kind: Secret
                        metadata: {name: s, namespace: default}
                        type: kubernetes.io/service-account-token
                        """,
                        List.of("metadata.annotations[kubernetes.io/service-account.name]: Required value")),
                Arguments.of("pvc: access modes and storage", """
                        apiVersion: v1
                        kind: PersistentVolumeClaim
                        metadata: {name: c, namespace: default}
                        spec: {resources: {requests: {}}}
                        """,
                        List.of("spec.accessModes: Required value: at least 1 access mode is required",
                                "spec.resources[storage]: Required value")),
                Arguments.of("role: verbs and resources", """
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: Role
                        metadata: {name: r, namespace: default}
                        rules: [{apiGroups: [""]}, {verbs: [get], nonResourceURLs: [/healthz]}]
                        """,
                        List.of("rules[0].verbs: Required value: verbs must contain at least one value",
                                "rules[0].resources: Required value: resource rules must supply at least one resource",
                                "rules[1].nonResourceURLs: Invalid value: []string{\"/healthz\"}: namespaced rules "
                                        + "cannot apply to non-resource URLs")),
                Arguments.of("clusterrolebinding: roleRef kind and subjects", """
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRoleBinding
                        metadata: {name: b}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
                        subjects: [{kind: ServiceAccount, name: sa}, {kind: Robot, name: x}]
                        """,
                        List.of("roleRef.kind: Unsupported value: \"Role\": supported values: \"ClusterRole\"",
                                "subjects[0].namespace: Required value",
                                "subjects[1].kind: Unsupported value: \"Robot\": supported values: \"ServiceAccount\", "
                                        + "\"User\", \"Group\"")),
                Arguments.of("pdb: minAvailable xor maxUnavailable", """
                        apiVersion: policy/v1
                        kind: PodDisruptionBudget
                        metadata: {name: p, namespace: default}
                        spec: {minAvailable: 1, maxUnavailable: 120%}
                        """,
                        List.of("spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:1, "
                                        + "MaxUnavailable:120%}: minAvailable and maxUnavailable cannot be both set",
                                "spec.maxUnavailable: Invalid value: 120%: must not be greater than 100%")),
                Arguments.of("hpa: replicas bounds and target", """
                        apiVersion: autoscaling/v2
                        kind: HorizontalPodAutoscaler
                        metadata: {name: h, namespace: default}
                        spec: {minReplicas: 3, maxReplicas: 2, scaleTargetRef: {kind: Deployment}}
                        """,
                        List.of("spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`",
                                "spec.scaleTargetRef.name: Required value")),
                Arguments.of("ingress: pathType and backend", """
                        apiVersion: networking.k8s.io/v1
                        kind: Ingress
                        metadata: {name: i, namespace: default}
                        spec:
                          rules:
                          - host: 1.2.3.4
                            http:
                              paths:
                              - {path: foo, pathType: Prefix, backend: {service: {name: web}}}
                              - {path: /, backend: {service: {name: web, port: {number: 80}}}}
                        """,
                        List.of("spec.rules[0].host: Invalid value: \"1.2.3.4\": must be a DNS name, not an IP address",
                                "spec.rules[0].http.paths[0].path: Invalid value: \"foo\": must be an absolute path",
                                "spec.rules[0].http.paths[0].backend.service.port: Required value: port name or number "
                                        + "is required",
                                "spec.rules[0].http.paths[1].pathType: Required value: pathType must be specified")),
                Arguments.of("priorityclass: system- prefix is reserved", """
                        apiVersion: scheduling.k8s.io/v1
                        kind: PriorityClass
                        metadata: {name: system-mine}
                        value: 10
                        """,
                        List.of("metadata.name: Forbidden: priority class names with 'system-' prefix are reserved "
                                + "for system use only. error: system-mine is not a known system priority class")),
                Arguments.of("storageclass: provisioner required", """
                        apiVersion: storage.k8s.io/v1
                        kind: StorageClass
                        metadata: {name: sc}
                        """,
                        List.of("provisioner: Required value")),
                Arguments.of("namespace: finalizer names", """
                        apiVersion: v1
                        kind: Namespace
                        metadata: {name: n}
                        spec: {finalizers: [kubernetes, custom]}
                        """,
                        List.of("spec.finalizers: Invalid value: \"custom\": name is neither a standard finalizer "
                                + "name nor is it fully qualified")),
                Arguments.of("event: involvedObject namespace must match", """
                        apiVersion: v1
                        kind: Event
                        metadata: {name: e, namespace: default}
                        involvedObject: {kind: Pod, name: p, namespace: other}
                        """,
                        List.of("involvedObject.namespace: Invalid value: \"other\": does not match event.namespace")));
    }

    @Test
    @DisplayName("kinds without rules get KindValidator.NONE")
    void none() {
        assertSame(KindValidator.NONE, BuiltinKinds.of(new GroupVersionKind("", "v1", "ServiceAccount")).validation());
    }
}
