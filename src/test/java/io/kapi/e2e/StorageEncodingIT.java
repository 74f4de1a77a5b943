package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.kapi.storage.etcd.EtcdCluster;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code bin/kapi --etcd-servers=...} stores built-in kinds as kube-apiserver does (protobuf by default):
 * the raw values, read with {@code etcdctl}, decode with client-java-proto's types; a value put with
 * {@code etcdctl} as kube-apiserver writes it is served; the same etcd served with JSON storage after a
 * restart keeps every object, and writes JSON again.
 */
final class StorageEncodingIT {

    @RegisterExtension
    static final EtcdCluster ETCD = EtcdCluster.single();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] MAGIC = {'k', '8', 's', 0};

    @Test
    @DisplayName("etcdctl reads protobuf values that client-java-proto decodes; kube-written values are served; JSON after a restart")
    void rawValues() throws Exception {
        try (KapiProcess kapi = new KapiProcess("storage-encoding", List.of("--etcd-servers=" + ETCD.servers(),
                "--storage-media-type=application/vnd.kubernetes.protobuf"))) {
            kapi.start();
            try (ApiClient api = ApiClient.of(kapi.kubeconfig())) {
                assertEquals(201, api.post("/api/v1/namespaces/default/configmaps", """
                        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"k":"v"}}""").status());
                assertEquals(201, api.post("/api/v1/namespaces/default/secrets", """
                        {"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"k":"dmFsdWU="}}""").status());

                byte[] value = etcdctlGet("/registry/configmaps/default/cm");
                assertArrayEquals(MAGIC, Arrays.copyOf(value, 4));
                Runtime.Unknown unknown = Runtime.Unknown.parseFrom(Arrays.copyOfRange(value, 4, value.length));
                assertEquals("v1", unknown.getTypeMeta().getApiVersion());
                assertEquals("ConfigMap", unknown.getTypeMeta().getKind());
                assertEquals("v", V1.ConfigMap.parseFrom(unknown.getRaw()).getDataOrThrow("k"));
                byte[] secret = etcdctlGet("/registry/secrets/default/s");
                V1.Secret s = V1.Secret.parseFrom(Runtime.Unknown.parseFrom(Arrays.copyOfRange(secret, 4, secret.length))
                        .getRaw());
                assertEquals("value", s.getDataOrThrow("k").toStringUtf8());

                V1.ConfigMap kube = V1.ConfigMap.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder()
                        .setName("kube").setNamespace("default").setGenerateName("").setSelfLink("")
                        .setUid("0b0c6f1e-7a39-4a67-9d5a-3e0b2c1d4e5f").setResourceVersion("").setGeneration(0)
                        .setCreationTimestamp(Meta.Time.newBuilder().setSeconds(1_700_000_000L)))
                        .putData("from", "kube-apiserver").build();
                etcdctlPut("/registry/configmaps/default/kube", kubeValue("v1", "ConfigMap", kube.toByteArray()));
                JsonNode got = eventually(api, "/api/v1/namespaces/default/configmaps/kube");
                assertEquals("kube-apiserver", got.at("/data/from").asText());
                assertEquals("2023-11-14T22:13:20Z", got.at("/metadata/creationTimestamp").asText());
            }
            kapi.stop();
        }
        try (KapiProcess kapi = new KapiProcess("storage-encoding-json", List.of("--etcd-servers=" + ETCD.servers(),
                "--storage-media-type=application/json"))) {
            kapi.start();
            try (ApiClient api = ApiClient.of(kapi.kubeconfig())) {
                assertEquals("v", eventually(api, "/api/v1/namespaces/default/configmaps/cm").at("/data/k").asText());
                assertEquals("kube-apiserver",
                        eventually(api, "/api/v1/namespaces/default/configmaps/kube").at("/data/from").asText());
                assertEquals(200, api.send("PATCH", "/api/v1/namespaces/default/configmaps/cm", "{\"data\":{\"k\":\"w\"}}",
                        "application/merge-patch+json").status());
                String json = new String(etcdctlGet("/registry/configmaps/default/cm"), StandardCharsets.UTF_8);
                assertTrue(json.startsWith("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\""), json);
            }
        }
    }

    private static JsonNode eventually(ApiClient api, String path) throws Exception {
        for (int i = 0; ; i++) {
            ApiClient.Response r = api.get(path);
            if (r.status() == 200 || i == 100) {
                assertEquals(200, r.status(), path + ": " + r.body());
                return JSON.readTree(r.body());
            }
            Thread.sleep(50);
        }
    }

    private static byte[] kubeValue(String apiVersion, String kind, byte[] raw) {
        byte[] unknown = Runtime.Unknown.newBuilder()
                .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
                .setRaw(ByteString.copyFrom(raw)).setContentEncoding("").setContentType("").build().toByteArray();
        byte[] out = Arrays.copyOf(MAGIC, 4 + unknown.length);
        System.arraycopy(unknown, 0, out, 4, unknown.length);
        return out;
    }

    /** The raw value of {@code key}, as {@code etcdctl get --print-value-only} prints it (then a newline). */
    private static byte[] etcdctlGet(String key) throws Exception {
        byte[] out = etcdctl(null, "get", key, "--print-value-only");
        assertTrue(out.length > 0 && out[out.length - 1] == '\n', "etcdctl printed " + out.length + " bytes");
        return Arrays.copyOf(out, out.length - 1);
    }

    /** {@code etcdctl put key} with the value on standard input. */
    private static void etcdctlPut(String key, byte[] value) throws Exception {
        etcdctl(value, "put", key);
    }

    private static byte[] etcdctl(byte[] input, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("etcdctl", "--endpoints=" + ETCD.servers()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        if (input != null) {
            p.getOutputStream().write(input);
        }
        p.getOutputStream().close();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.getInputStream().transferTo(out);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "etcdctl " + String.join(" ", args));
        return out.toByteArray();
    }
}
