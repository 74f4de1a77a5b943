package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.fixtures.Await;
import io.kapi.storage.KeyValue;
import io.kapi.storage.Storage;
import io.kapi.storage.backends.Storages;
import io.kapi.storage.etcd.EtcdCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --encryption-provider-config} as a new user meets it: kube's documented example (aescbc first,
 * identity second) keeps secrets unreadable in the raw store (the embedded store opened directly;
 * {@code etcdctl get} on etcd) and readable through the API; the documented key rotation, step by step
 * with automatic reload, leaves no value under the old key.
 */
@DisplayName("encryption at rest")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
final class EncryptionAtRestIT {

    private static final String KEY1 = "c2VjcmV0IGlzIHNlY3VyZSwgb3IgaXMgaXQ/IDEyMzQ=";
    private static final String KEY2 = "dGhpcyBpcyBwYXNzd29yZCBpcyBzZWN1cmUgYXMgdyE=";
    private static final String SECRET = "topsecret-value";

    @TempDir
    Path dir;

    @Test
    @DisplayName("embedded store: a secret is aescbc under key1 at rest, readable through the API; configmaps stay plain")
    void embedded() throws Exception {
        Path config = write(keys("key1"));
        KapiProcess kapi = new KapiProcess("EncryptionAtRestIT-embedded", List.of("--storage-backend=embedded",
                "--encryption-provider-config=" + config));
        try (kapi) {
            kapi.start();
            Kubectl k = new Kubectl(Kubectl.DEFAULT, kapi.kubeconfigPath(), Files.createDirectories(dir.resolve("cache")));
            k.run("create", "secret", "generic", "s1", "--from-literal=password=" + SECRET).assertOk();
            k.run("create", "configmap", "c1", "--from-literal=k=plain-value").assertOk();
            assertEquals(SECRET, decode(k.run("get", "secret", "s1", "-o", "jsonpath={.data.password}").assertOk().stdout()));
            kapi.stop();
            try (Storage store = Storages.embedded(kapi.dataDir().resolve("store"))) {
                String raw = raw(store.get("/registry/secrets/default/s1").orElseThrow());
                assertTrue(raw.startsWith("k8s:enc:aescbc:v1:key1:"), raw);
                assertFalse(raw.contains(SECRET) || raw.contains(base64(SECRET)), raw);
                assertTrue(raw(store.get("/registry/configmaps/default/c1").orElseThrow()).contains("plain-value"));
            }
            kapi.start();
            assertEquals(SECRET, decode(k.run("get", "secret", "s1", "-o", "jsonpath={.data.password}").assertOk().stdout()));
        }
    }

    @Test
    @DisplayName("a value no provider opens: GET and LIST answer kube's internal errors (the LIST naming the key), other objects still served")
    void unreadable() throws Exception {
        // podtemplates: a resource none of the server's own informers lists (a secret's would hold back readiness)
        Path config = write(keys("key1").replace("- secrets", "- podtemplates"));
        KapiProcess kapi = new KapiProcess("EncryptionAtRestIT-unreadable", List.of("--storage-backend=embedded",
                "--encryption-provider-config=" + config));
        try (kapi) {
            kapi.start();
            Kubectl k = new Kubectl(Kubectl.DEFAULT, kapi.kubeconfigPath(), Files.createDirectories(dir.resolve("cache")));
            k.runWithInput(podTemplate("lost"), "create", "-f", "-").assertOk();
            kapi.stop();
            Files.writeString(config, keys("key2").replace("- secrets", "- podtemplates")); // key1 lost
            kapi.start();
            k.runWithInput(podTemplate("kept"), "create", "-n", "kube-public", "-f", "-").assertOk();
            Kubectl.Result get = k.run("get", "podtemplate", "lost").assertFailed();
            // kube's store without the AllowUnsafeMalformedObjectDeletion gate: a GET answers the transformer's
            // error as an internal error, a LIST names the key it could not transform
            assertTrue(get.stderr().contains("Error from server (InternalError): Internal error occurred: identity "
                    + "transformer tried to read encrypted data"), get.stderr());
            Kubectl.Result list = k.run("get", "podtemplates", "-n", "default").assertFailed();
            assertTrue(list.stderr().contains("Error from server (InternalError): Internal error occurred: unable to "
                    + "transform key \"/registry/podtemplates/default/lost\": identity transformer tried to read "
                    + "encrypted data"), list.stderr());
            k.run("get", "podtemplate", "kept", "-n", "kube-public").assertOk();
            k.run("get", "configmaps", "-A").assertOk();
        }
    }

    private static String podTemplate(String name) {
        return """
                {"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "%s"},
                 "template": {"spec": {"containers": [{"name": "c", "image": "busybox"}]}}}
                """.formatted(name);
    }

    @Test
    @DisplayName("etcd: etcdctl sees k8s:enc:aescbc:v1:key1:; the documented rotation to key2 with automatic reload leaves no value under key1")
    void etcdRotation() throws Exception {
        Path config = write(keys("key1"));
        EtcdCluster etcd = EtcdCluster.single().start("EncryptionAtRestIT");
        try (KapiProcess kapi = new KapiProcess("EncryptionAtRestIT-etcd", List.of("--etcd-servers=" + etcd.servers(),
                     "--encryption-provider-config=" + config, "--encryption-provider-config-automatic-reload=true"))) {
            kapi.start();
            Kubectl k = new Kubectl(Kubectl.DEFAULT, kapi.kubeconfigPath(), Files.createDirectories(dir.resolve("cache")));
            k.run("create", "namespace", "other").assertOk();
            for (String ns : List.of("default", "other")) {
                for (int i = 0; i < 3; i++) {
                    k.run("create", "secret", "generic", "s" + i, "-n", ns, "--from-literal=password=" + SECRET + i).assertOk();
                }
            }
            String raw = etcdctl(etcd, "get", "/registry/secrets/default/s0", "--print-value-only");
            assertTrue(raw.startsWith("k8s:enc:aescbc:v1:key1:"), raw);
            assertFalse(raw.contains(SECRET), raw);

            // 1. a new key, second: every server can read it before any writes with it
            reload(k, config, keys("key1", "key2"), 1);
            // 2. the new key first: new writes use it
            reload(k, config, keys("key2", "key1"), 2);
            // 3. rewrite every secret with the new key
            String all = k.run("get", "secrets", "-A", "-o", "json").assertOk().stdout();
            k.runWithInput(all, "replace", "-f", "-").assertOk();
            // 4. the old key removed
            reload(k, config, keys("key2"), 3);

            List<String> values = etcdPrefix(etcd, "/registry/secrets/");
            assertTrue(values.size() >= 6, values.toString());
            for (String value : values) {
                assertTrue(value.startsWith("k8s:enc:aescbc:v1:key2:"), "not under key2: " + value);
            }
            kapi.restart(); // reads come from the store again, not the watch cache
            for (String ns : List.of("default", "other")) {
                for (int i = 0; i < 3; i++) {
                    assertEquals(SECRET + i, decode(k.run("get", "secret", "s" + i, "-n", ns, "-o",
                            "jsonpath={.data.password}").assertOk().stdout()));
                }
            }
        } finally {
            etcd.close();
        }
    }

    /** Writes {@code yaml} and waits for the server's {@code success} reload count to reach {@code count}. */
    private void reload(Kubectl k, Path config, String yaml, int count) throws IOException {
        Files.writeString(config, yaml);
        Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(500)).poll(
                () -> k.run("get", "--raw", "/metrics").stdout(),
                metrics -> metrics.lines().anyMatch(l -> l.startsWith("apiserver_encryption_config_controller_automatic_reloads_total")
                        && l.contains("status=\"success\"") && l.endsWith(" " + count + ".0")));
    }

    private Path write(String yaml) throws IOException {
        Path file = dir.resolve("encryption.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    /** kube's documented configuration: aescbc with the given keys in order, then identity. */
    private static String keys(String... names) {
        StringBuilder keys = new StringBuilder();
        for (String name : names) {
            keys.append("            - name: ").append(name).append("\n              secret: ")
                    .append(name.equals("key1") ? KEY1 : KEY2).append('\n');
        }
        return """
                apiVersion: apiserver.config.k8s.io/v1
                kind: EncryptionConfiguration
                resources:
                  - resources:
                      - secrets
                    providers:
                      - aescbc:
                          keys:
                %s      - identity: {}
                """.formatted(keys);
    }

    private static String etcdctl(EtcdCluster etcd, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("etcdctl", "--endpoints=" + etcd.servers()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertEquals(0, p.waitFor(), String.join(" ", command));
        return out;
    }

    /** The values under {@code prefix}, one per key (etcdctl's JSON output, values base64). */
    private static List<String> etcdPrefix(EtcdCluster etcd, String prefix) throws IOException, InterruptedException {
        var json = io.kapi.machinery.Json.MAPPER.readTree(etcdctl(etcd, "get", prefix, "--prefix", "-w", "json"));
        List<String> values = new ArrayList<>();
        json.path("kvs").forEach(kv -> values.add(new String(java.util.Base64.getDecoder().decode(kv.path("value").asText()),
                StandardCharsets.ISO_8859_1)));
        return values;
    }

    private static String raw(KeyValue kv) {
        return new String(kv.value(), StandardCharsets.ISO_8859_1);
    }

    private static String base64(String s) {
        return java.util.Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(String b64) {
        return new String(java.util.Base64.getDecoder().decode(b64.trim()), StandardCharsets.UTF_8);
    }
}
