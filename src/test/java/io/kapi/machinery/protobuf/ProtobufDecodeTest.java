package io.kapi.machinery.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kubernetes.client.proto.IntStr.IntOrString;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource.Quantity;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Rbac;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ProtobufDecodeTest {

    static final GroupVersionKind CONFIG_MAP = new GroupVersionKind("", "v1", "ConfigMap");
    static final GroupVersionKind SECRET = new GroupVersionKind("", "v1", "Secret");
    static final GroupVersionKind SERVICE = new GroupVersionKind("", "v1", "Service");
    static final GroupVersionKind DEPLOYMENT = new GroupVersionKind("apps", "v1", "Deployment");
    static final GroupVersionKind JOB = new GroupVersionKind("batch", "v1", "Job");
    static final GroupVersionKind ROLE = new GroupVersionKind("rbac.authorization.k8s.io", "v1", "Role");

    /** The body client-go sends: prefix, then runtime.Unknown with every non-pointer field written. */
    static byte[] envelope(String apiVersion, String kind, Message object) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0x6b, 0x38, 0x73, 0x00});
        out.writeBytes(Runtime.Unknown.newBuilder()
                .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
                .setRaw(object.toByteString())
                .setContentEncoding("")
                .setContentType("")
                .build().toByteArray());
        return out.toByteArray();
    }

    /** ObjectMeta as client-go writes a new object's: all non-pointer fields, zero time included. */
    static Meta.ObjectMeta.Builder newMeta(String name) {
        return Meta.ObjectMeta.newBuilder().setName(name).setGenerateName("").setNamespace("").setSelfLink("")
                .setUid("").setResourceVersion("").setGeneration(0)
                .setCreationTimestamp(Meta.Time.getDefaultInstance());
    }

    static JsonNode tree(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Compares by JSON text, so that int and long nodes of the same number are equal. */
    static void assertTree(String expected, JsonNode actual) {
        assertEquals(tree(expected), tree(actual.toString()));
    }

    @Test
    @DisplayName("a ConfigMap as kubectl create configmap sends it decodes to kubectl's JSON body")
    void configMap() {
        V1.ConfigMap cm = V1.ConfigMap.newBuilder()
                .setMetadata(newMeta("c1"))
                .putData("b", "2").putData("a", "1")
                .putBinaryData("bin", ByteString.copyFrom(new byte[] {0, 1, 2, (byte) 255}))
                .build();
        assertTree("""
                {"apiVersion":"v1","kind":"ConfigMap",
                 "metadata":{"name":"c1","creationTimestamp":null},
                 "data":{"a":"1","b":"2"},"binaryData":{"bin":"AAEC/w=="}}""",
                ProtobufCodec.decode(envelope("v1", "ConfigMap", cm), CONFIG_MAP));
    }

    @Test
    @DisplayName("Secret data bytes become base64 strings, stringData and type stay strings")
    void secret() {
        V1.Secret s = V1.Secret.newBuilder()
                .setMetadata(newMeta("s1").setNamespace("ns1"))
                .putData("password", ByteString.copyFrom("hunter2", StandardCharsets.UTF_8))
                .putStringData("user", "admin")
                .setType("Opaque")
                .build();
        assertTree("""
                {"apiVersion":"v1","kind":"Secret",
                 "metadata":{"name":"s1","namespace":"ns1","creationTimestamp":null},
                 "data":{"password":"aHVudGVyMg=="},"stringData":{"user":"admin"},"type":"Opaque"}""",
                ProtobufCodec.decode(envelope("v1", "Secret", s), SECRET));
    }

    static V1Apps.Deployment deploymentMessage() {
        V1.Container container = V1.Container.newBuilder()
                .setName("web").setImage("nginx:1.27").setWorkingDir("").setTerminationMessagePath("")
                .setImagePullPolicy("").setStdin(false).setStdinOnce(false).setTty(false)
                .addPorts(V1.ContainerPort.newBuilder().setContainerPort(80).setProtocol("TCP").setHostPort(0))
                .setResources(V1.ResourceRequirements.newBuilder()
                        .putLimits("cpu", Quantity.newBuilder().setString("500m").build())
                        .putRequests("memory", Quantity.newBuilder().setString("128Mi").build()))
                .setReadinessProbe(V1.Probe.newBuilder()
                        .setHandler(V1.ProbeHandler.newBuilder().setHttpGet(V1.HTTPGetAction.newBuilder()
                                .setPath("/healthz").setPort(IntOrString.newBuilder().setType(1).setStrVal("http"))))
                        .setInitialDelaySeconds(0).setPeriodSeconds(5))
                .addVolumeMounts(V1.VolumeMount.newBuilder().setName("cfg").setMountPath("/etc/cfg").setReadOnly(true))
                .build();
        V1.PodSpec pod = V1.PodSpec.newBuilder()
                .addContainers(container)
                .setRestartPolicy("").setDnsPolicy("").setHostNetwork(false)
                .setTerminationGracePeriodSeconds(0)
                .addVolumes(V1.Volume.newBuilder().setName("cfg").setVolumeSource(V1.VolumeSource.newBuilder()
                        .setConfigMap(V1.ConfigMapVolumeSource.newBuilder()
                                .setLocalObjectReference(V1.LocalObjectReference.newBuilder().setName("c1"))
                                .setDefaultMode(420))))
                .build();
        return V1Apps.Deployment.newBuilder()
                .setMetadata(newMeta("web").putLabels("app", "web")
                        .setCreationTimestamp(Meta.Time.newBuilder().setSeconds(1_700_000_000L)))
                .setSpec(V1Apps.DeploymentSpec.newBuilder()
                        .setReplicas(0)
                        .setSelector(Meta.LabelSelector.newBuilder().putMatchLabels("app", "web"))
                        .setTemplate(V1.PodTemplateSpec.newBuilder()
                                .setMetadata(newMeta("").putLabels("app", "web")).setSpec(pod))
                        .setStrategy(V1Apps.DeploymentStrategy.newBuilder().setType("RollingUpdate")
                                .setRollingUpdate(V1Apps.RollingUpdateDeployment.newBuilder()
                                        .setMaxSurge(IntOrString.newBuilder().setType(1).setStrVal("25%"))
                                        .setMaxUnavailable(IntOrString.newBuilder().setType(0).setIntVal(1))))
                        .setMinReadySeconds(0).setPaused(false))
                .setStatus(V1Apps.DeploymentStatus.newBuilder().setObservedGeneration(0).setReplicas(0))
                .build();
    }

    static final String DEPLOYMENT_JSON = """
            {"apiVersion":"apps/v1","kind":"Deployment",
             "metadata":{"name":"web","creationTimestamp":"2023-11-14T22:13:20Z","labels":{"app":"web"}},
             "spec":{"replicas":0,"selector":{"matchLabels":{"app":"web"}},
               "template":{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},
                 "spec":{"volumes":[{"name":"cfg","configMap":{"name":"c1","defaultMode":420}}],
                   "containers":[{"name":"web","image":"nginx:1.27",
                     "ports":[{"containerPort":80,"protocol":"TCP"}],
                     "resources":{"limits":{"cpu":"500m"},"requests":{"memory":"128Mi"}},
                     "volumeMounts":[{"name":"cfg","readOnly":true,"mountPath":"/etc/cfg"}],
                     "readinessProbe":{"httpGet":{"path":"/healthz","port":"http"},"periodSeconds":5}}],
                   "terminationGracePeriodSeconds":0}},
               "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":"25%"}}},
             "status":{}}""";

    @Test
    @DisplayName("a Deployment decodes int-or-string, quantities, times, inlined volume sources and probe handlers")
    void deployment() {
        assertTree(DEPLOYMENT_JSON, ProtobufCodec.decode(envelope("apps/v1", "Deployment", deploymentMessage()), DEPLOYMENT));
    }

    @Test
    @DisplayName("a Service's targetPort decodes as a number or a string; port is kept, a zero nodePort dropped")
    void service() {
        V1.Service svc = V1.Service.newBuilder()
                .setMetadata(newMeta("svc"))
                .setSpec(V1.ServiceSpec.newBuilder()
                        .addPorts(V1.ServicePort.newBuilder().setName("http").setProtocol("TCP").setPort(80)
                                .setTargetPort(IntOrString.newBuilder().setType(0).setIntVal(8080)).setNodePort(0))
                        .addPorts(V1.ServicePort.newBuilder().setName("https").setPort(443)
                                .setTargetPort(IntOrString.newBuilder().setType(1).setStrVal("https")))
                        .putSelector("app", "web").setType("ClusterIP"))
                .build();
        assertTree("""
                {"apiVersion":"v1","kind":"Service","metadata":{"name":"svc","creationTimestamp":null},
                 "spec":{"ports":[{"name":"http","protocol":"TCP","port":80,"targetPort":8080},
                                  {"name":"https","port":443,"targetPort":"https"}],
                         "selector":{"app":"web"},"type":"ClusterIP"}}""",
                ProtobufCodec.decode(envelope("v1", "Service", svc), SERVICE));
    }

    @Test
    @DisplayName("a Job keeps a zero backoffLimit (a pointer) and its pod template")
    void job() {
        V1Batch.Job job = V1Batch.Job.newBuilder()
                .setMetadata(newMeta("j1"))
                .setSpec(V1Batch.JobSpec.newBuilder().setBackoffLimit(0).setCompletions(3).setParallelism(1)
                        .setTemplate(V1.PodTemplateSpec.newBuilder().setMetadata(newMeta(""))
                                .setSpec(V1.PodSpec.newBuilder().setRestartPolicy("Never")
                                        .addContainers(V1.Container.newBuilder().setName("j1").setImage("busybox")
                                                .addCommand("date")))))
                .build();
        assertTree("""
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j1","creationTimestamp":null},
                 "spec":{"parallelism":1,"completions":3,"backoffLimit":0,
                   "template":{"metadata":{"creationTimestamp":null},
                     "spec":{"containers":[{"name":"j1","image":"busybox","command":["date"]}],
                             "restartPolicy":"Never"}}}}""",
                ProtobufCodec.decode(envelope("batch/v1", "Job", job), JOB));
    }

    @Test
    @DisplayName("a Role's rules decode, the empty core group included")
    void role() {
        V1Rbac.Role role = V1Rbac.Role.newBuilder()
                .setMetadata(newMeta("r1"))
                .addRules(V1Rbac.PolicyRule.newBuilder().addApiGroups("").addResources("pods")
                        .addVerbs("get").addVerbs("list"))
                .build();
        assertTree("""
                {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role",
                 "metadata":{"name":"r1","creationTimestamp":null},
                 "rules":[{"verbs":["get","list"],"apiGroups":[""],"resources":["pods"]}]}""",
                ProtobufCodec.decode(envelope("rbac.authorization.k8s.io/v1", "Role", role), ROLE));
    }

    @Test
    @DisplayName("ObjectMeta: labels, annotations, owner references, finalizers, managed fields with FieldsV1")
    void objectMeta() {
        V1.ConfigMap cm = V1.ConfigMap.newBuilder()
                .setMetadata(newMeta("c1").setNamespace("default").setUid("u-1").setResourceVersion("42")
                        .setGeneration(3)
                        .setCreationTimestamp(Meta.Time.newBuilder().setSeconds(0))
                        .setDeletionTimestamp(Meta.Time.newBuilder().setSeconds(1_700_000_000L).setNanos(5))
                        .setDeletionGracePeriodSeconds(0)
                        .putLabels("z", "1").putLabels("a", "")
                        .putAnnotations("note", "hi")
                        .addOwnerReferences(Meta.OwnerReference.newBuilder().setApiVersion("apps/v1")
                                .setKind("ReplicaSet").setName("rs").setUid("u-0").setController(true)
                                .setBlockOwnerDeletion(false))
                        .addFinalizers("example.com/f")
                        .addManagedFields(Meta.ManagedFieldsEntry.newBuilder().setManager("kubectl")
                                .setOperation("Apply").setApiVersion("v1")
                                .setTime(Meta.Time.newBuilder().setSeconds(1_700_000_000L))
                                .setFieldsType("FieldsV1")
                                .setFieldsV1(Meta.FieldsV1.newBuilder().setRaw(ByteString.copyFromUtf8(
                                        "{\"f:data\":{\"f:a\":{}}}")))
                                .setSubresource("")))
                .build();
        assertTree("""
                {"apiVersion":"v1","kind":"ConfigMap",
                 "metadata":{"name":"c1","namespace":"default","uid":"u-1","resourceVersion":"42","generation":3,
                   "creationTimestamp":"1970-01-01T00:00:00Z","deletionTimestamp":"2023-11-14T22:13:20Z",
                   "deletionGracePeriodSeconds":0,"labels":{"a":"","z":"1"},"annotations":{"note":"hi"},
                   "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u-0",
                                       "controller":true,"blockOwnerDeletion":false}],
                   "finalizers":["example.com/f"],
                   "managedFields":[{"manager":"kubectl","operation":"Apply","apiVersion":"v1",
                     "time":"2023-11-14T22:13:20Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{}}}}]}}""",
                ProtobufCodec.decode(envelope("v1", "ConfigMap", cm), CONFIG_MAP));
    }

    @Test
    @DisplayName("a RawExtension holds embedded JSON, or an object encoded in protobuf, as an object")
    void rawExtension() {
        V1.ConfigMap inner = V1.ConfigMap.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("in")).build();
        for (ByteString data : List.of(ByteString.copyFromUtf8("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                        + "\"metadata\":{\"name\":\"in\"}}"),
                ByteString.copyFrom(envelope("v1", "ConfigMap", inner)))) {
            V1Apps.ControllerRevision rev = V1Apps.ControllerRevision.newBuilder()
                    .setMetadata(Meta.ObjectMeta.newBuilder().setName("rev"))
                    .setData(Runtime.RawExtension.newBuilder().setRaw(data)).setRevision(1).build();
            assertTree("""
                    {"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"rev"},
                     "data":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"in"}},"revision":1}""",
                    ProtobufCodec.decode(envelope("apps/v1", "ControllerRevision", rev),
                            new GroupVersionKind("apps", "v1", "ControllerRevision")));
        }
    }

    @Test
    @DisplayName("an envelope without apiVersion and kind takes the endpoint's, as kube-apiserver defaults them")
    void defaultsFromEndpoint() {
        V1.ConfigMap cm = V1.ConfigMap.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("c1")).build();
        assertTree("""
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c1"}}""",
                ProtobufCodec.decode(envelope("", "", cm), CONFIG_MAP));
    }

    @Test
    @DisplayName("an envelope of another known kind decodes as that kind, for the handler's type check")
    void otherKind() {
        V1.Secret s = V1.Secret.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("s1")).build();
        assertTree("""
                {"apiVersion":"v1","kind":"Secret","metadata":{"name":"s1"}}""",
                ProtobufCodec.decode(envelope("v1", "Secret", s), CONFIG_MAP));
    }
}
