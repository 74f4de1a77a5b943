package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import io.kapi.assembly.ApiConfig;
import io.kapi.harness.ApiHarness;
import io.kapi.machinery.Json;
import io.kapi.storage.KeyValue;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values at rest as kube-apiserver keeps them ({@code --storage-media-type}), read with the Kubernetes
 * protobuf definitions of {@code io.kubernetes:client-java-proto}: what Kapi writes decodes with them, what
 * they build (as kube-apiserver builds its values) is served, and a data directory changes media type both
 * ways without losing an object.
 */
class StorageEncodingTest {

    private static final byte[] MAGIC = {'k', '8', 's', 0};

    private static ApiConfig config(String mediaType, String backend, Path dir) {
        return ApiConfig.builder().dataDir(dir).storageBackend(backend).storageMediaType(mediaType)
                .admission(ApiConfig.Admission.DEFAULT.bare()).build();
    }

    private static byte[] raw(ApiHarness api, String key) {
        return api.assembly().storage().get(key).map(KeyValue::value).orElseThrow(() -> new AssertionError(key));
    }

    private static Runtime.Unknown envelope(byte[] value) throws Exception {
        assertArrayEquals(MAGIC, Arrays.copyOf(value, 4), "the k8s\\0 prefix");
        return Runtime.Unknown.parseFrom(Arrays.copyOfRange(value, 4, value.length));
    }

    @Test
    @DisplayName("a configmap and a pod are stored as k8s\\0 and a runtime.Unknown that client-java-proto decodes")
    void envelope() throws Exception {
        try (ApiHarness api = new ApiHarness(config(AtRest.PROTOBUF, "memory", Path.of("target/unused")))) {
            assertEquals(201, api.post("/api/v1/namespaces/default/configmaps", """
                    {"metadata":{"name":"cm","labels":{"a":"b"}},"data":{"k":"v"},"binaryData":{"b":"AAEC"}}""").code());
            Runtime.Unknown unknown = envelope(raw(api, "/registry/configmaps/default/cm"));
            assertEquals("v1", unknown.getTypeMeta().getApiVersion());
            assertEquals("ConfigMap", unknown.getTypeMeta().getKind());
            assertEquals("", unknown.getContentEncoding());
            assertEquals("", unknown.getContentType());
            // the envelope's fields in kube's order: typeMeta (1), raw (2), contentEncoding (3), contentType (4)
            byte[] value = raw(api, "/registry/configmaps/default/cm");
            assertEquals(0x0a, value[4]);
            V1.ConfigMap cm = V1.ConfigMap.parseFrom(unknown.getRaw());
            assertEquals("cm", cm.getMetadata().getName());
            assertEquals("default", cm.getMetadata().getNamespace());
            assertEquals("b", cm.getMetadata().getLabelsOrThrow("a"));
            assertEquals("v", cm.getDataOrThrow("k"));
            assertEquals(ByteString.copyFrom(new byte[] {0, 1, 2}), cm.getBinaryDataOrThrow("b"));
            assertEquals("", cm.getMetadata().getResourceVersion(), "the resource version is the key's revision");
            assertTrue(cm.getMetadata().getCreationTimestamp().getSeconds() > 0);
            assertFalse(cm.getMetadata().getUid().isEmpty());

            assertEquals(201, api.post("/api/v1/namespaces/default/pods", """
                    {"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"nginx:1",
                     "resources":{"limits":{"cpu":"500m"}},"livenessProbe":{"httpGet":{"port":"http"}}}]}}""").code());
            Runtime.Unknown pod = envelope(raw(api, "/registry/pods/default/p"));
            assertEquals("Pod", pod.getTypeMeta().getKind());
            V1.Container c = V1.Pod.parseFrom(pod.getRaw()).getSpec().getContainers(0);
            assertEquals("nginx:1", c.getImage());
            assertEquals("500m", c.getResources().getLimitsOrThrow("cpu").getString());
            assertEquals("http", c.getLivenessProbe().getHandler().getHttpGet().getPort().getStrVal());
            assertEquals("Always", V1.Pod.parseFrom(pod.getRaw()).getSpec().getRestartPolicy(), "defaulted, then stored");
        }
    }

    @Test
    @DisplayName("custom resources and CRDs are stored as JSON under protobuf storage, as kube-apiserver stores them")
    void customResourcesAsJson() throws Exception {
        try (ApiHarness api = new ApiHarness(config(AtRest.PROTOBUF, "memory", Path.of("target/unused")))) {
            StoredSamples.create(api);
            for (int i = 0; i < 100 && api.get("/apis/example.com/v1/namespaces/rt/widgets").code() != 200; i++) {
                Thread.sleep(50);
            }
            assertEquals(201, api.post("/apis/example.com/v1/namespaces/rt/widgets",
                    "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},\"spec\":{}}").code());
            String value = new String(raw(api, "/registry/example.com/widgets/rt/w"), StandardCharsets.UTF_8);
            assertTrue(value.startsWith("{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\""), value);
            byte[] crd = raw(api, "/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.example.com");
            assertEquals('{', crd[0], "CRDs as JSON, as kube-apiserver's apiextensions server stores them");
            JsonNode stored = Json.MAPPER.readTree(crd);
            assertEquals("apiextensions.k8s.io/v1beta1", stored.path("apiVersion").asText(), "in kube's storage version");
            assertEquals("widgets", stored.at("/spec/names/plural").asText());
            assertEquals("widgets.example.com", api.get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"
                    + "widgets.example.com").body().at("/metadata/name").asText());
        }
    }

    @Test
    @DisplayName("values built as kube-apiserver builds them (client-java-proto messages in the envelope) are served, under either media type")
    void valuesKubeWrote() throws Exception {
        for (String mediaType : List.of(AtRest.PROTOBUF, AtRest.JSON)) {
            try (ApiHarness api = new ApiHarness(config(mediaType, "memory", Path.of("target/unused")))) {
                // gogo-protobuf writes every non-pointer field, zero or not; resourceVersion is cleared
                Meta.ObjectMeta meta = Meta.ObjectMeta.newBuilder().setName("from-kube").setGenerateName("")
                        .setNamespace("default").setSelfLink("").setUid("0b0c6f1e-7a39-4a67-9d5a-3e0b2c1d4e5f")
                        .setResourceVersion("").setGeneration(0)
                        .setCreationTimestamp(Meta.Time.newBuilder().setSeconds(1_700_000_000L).setNanos(0))
                        .putLabels("app", "web").build();
                V1.ConfigMap cm = V1.ConfigMap.newBuilder().setMetadata(meta).putData("k", "v").build();
                api.assembly().storage().create("/registry/configmaps/default/from-kube",
                        kubeValue("v1", "ConfigMap", cm.toByteArray()));
                V1Apps.Deployment d = V1Apps.Deployment.newBuilder()
                        .setMetadata(meta.toBuilder().setName("web").setGeneration(1))
                        .setSpec(V1Apps.DeploymentSpec.newBuilder().setReplicas(0).setPaused(false)
                                .setSelector(Meta.LabelSelector.newBuilder().putMatchLabels("app", "web"))
                                .setTemplate(V1.PodTemplateSpec.newBuilder()
                                        .setMetadata(Meta.ObjectMeta.newBuilder().putLabels("app", "web"))
                                        .setSpec(V1.PodSpec.newBuilder().setRestartPolicy("Always")
                                                .setHostNetwork(false).setDnsPolicy("ClusterFirst")
                                                .addContainers(V1.Container.newBuilder().setName("c")
                                                        .setImage("nginx:1").setTty(false)
                                                        .setResources(V1.ResourceRequirements.newBuilder()
                                                                .putRequests("cpu", Resource.Quantity.newBuilder()
                                                                        .setString("100m").build()))))))
                        .setStatus(V1Apps.DeploymentStatus.newBuilder().setObservedGeneration(0).setReplicas(0))
                        .build();
                api.assembly().storage().create("/registry/deployments/default/web",
                        kubeValue("apps/v1", "Deployment", d.toByteArray()));

                JsonNode got = eventually(api, "/api/v1/namespaces/default/configmaps/from-kube");
                assertEquals("v", got.at("/data/k").asText(), mediaType);
                assertEquals("web", got.at("/metadata/labels/app").asText());
                assertEquals("2023-11-14T22:13:20Z", got.at("/metadata/creationTimestamp").asText());
                assertFalse(got.path("metadata").has("generateName"), "zero values Go leaves out: " + got);
                assertFalse(got.path("metadata").has("generation"), got.toString());
                assertFalse(got.path("metadata").path("resourceVersion").asText().isEmpty());

                JsonNode dep = eventually(api, "/apis/apps/v1/namespaces/default/deployments/web");
                assertEquals(0, dep.at("/spec/replicas").asInt(-1), "a pointer's zero stays: " + dep);
                assertTrue(dep.at("/spec/replicas").isNumber());
                assertFalse(dep.at("/spec/template/spec").has("hostNetwork"), dep.toString());
                assertFalse(dep.at("/spec").has("paused"), dep.toString());
                assertEquals("100m", dep.at("/spec/template/spec/containers/0/resources/requests/cpu").asText());

                assertEquals(200, api.patch("/api/v1/namespaces/default/configmaps/from-kube",
                        "application/merge-patch+json", "{\"data\":{\"k\":\"w\"}}").code());
                byte[] rewritten = raw(api, "/registry/configmaps/default/from-kube");
                assertEquals(mediaType.equals(AtRest.PROTOBUF), Arrays.equals(MAGIC, Arrays.copyOf(rewritten, 4)),
                        "an update writes the current media type");
            }
        }
    }

    @Test
    @DisplayName("an embedded data directory written as JSON is served after a restart with protobuf, and back")
    void restartBetweenMediaTypes(@TempDir Path dir) throws Exception {
        List<String[]> creates = StoredSamples.CREATES;
        try (ApiHarness api = new ApiHarness(config(AtRest.JSON, "embedded", dir))) {
            StoredSamples.create(api);
            assertEquals('{', raw(api, "/registry/configmaps/rt/cm")[0]);
        }
        try (ApiHarness api = new ApiHarness(config(AtRest.PROTOBUF, "embedded", dir))) {
            assertEverySampleServed(api, creates);
            assertEquals(200, api.patch("/api/v1/namespaces/rt/configmaps/cm", "application/merge-patch+json",
                    "{\"data\":{\"k\":\"pb\"}}").code());
            assertArrayEquals(MAGIC, Arrays.copyOf(raw(api, "/registry/configmaps/rt/cm"), 4));
            assertEquals(201, api.post("/api/v1/namespaces/rt/secrets", """
                    {"metadata":{"name":"s2"},"data":{"k":"dmFsdWU="}}""").code());
        }
        try (ApiHarness api = new ApiHarness(config(AtRest.JSON, "embedded", dir))) {
            assertEverySampleServed(api, creates);
            assertEquals("pb", api.get("/api/v1/namespaces/rt/configmaps/cm").body().at("/data/k").asText());
            assertEquals("dmFsdWU=", api.get("/api/v1/namespaces/rt/secrets/s2").body().at("/data/k").asText());
        }
        assertTrue(Files.isDirectory(dir));
    }

    private static void assertEverySampleServed(ApiHarness api, List<String[]> creates) throws Exception {
        for (String[] c : creates) {
            JsonNode body = Json.MAPPER.readTree(c[1]);
            String name = body.at("/metadata/name").asText();
            ApiHarness.Reply reply = api.get(c[0] + "/" + name);
            assertEquals(200, reply.code(), c[0] + "/" + name + ": " + reply.text());
            assertEquals(body.path("kind").asText(), reply.body().path("kind").asText());
        }
        assertEquals(0, api.get("/api/v1/namespaces/rt/pods/p").body().at("/status/containerStatuses/0/restartCount")
                .asInt(-1));
    }

    /** A value as kube-apiserver's storage codec writes it: the prefix, then a runtime.Unknown. */
    static byte[] kubeValue(String apiVersion, String kind, byte[] raw) {
        byte[] unknown = Runtime.Unknown.newBuilder()
                .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
                .setRaw(ByteString.copyFrom(raw)).setContentEncoding("").setContentType("").build().toByteArray();
        byte[] out = Arrays.copyOf(MAGIC, 4 + unknown.length);
        System.arraycopy(unknown, 0, out, 4, unknown.length);
        return out;
    }

    private static JsonNode eventually(ApiHarness api, String path) throws InterruptedException {
        for (int i = 0; ; i++) {
            ApiHarness.Reply r = api.get(path);
            if (r.code() == 200 || i == 100) {
                assertEquals(200, r.code(), path + ": " + r.text());
                return r.body();
            }
            Thread.sleep(20);
        }
    }
}
