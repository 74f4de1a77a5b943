package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.encryption.TestKmsPlugin;
import io.kapi.storage.Storage;
import io.kapi.storage.backends.Storages;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A server with a KMS v2 provider, its plugin the tests' own gRPC server on a unix socket. */
@DisplayName("encryption at rest with a KMS v2 plugin")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class EncryptionKmsIT {

    @TempDir
    Path dir;

    @Test
    @DisplayName("secrets are k8s:enc:kms:v2:<name>: at rest and readable; /healthz and /livez have kms-provider-0")
    void kms() throws Exception {
        try (TestKmsPlugin plugin = new TestKmsPlugin(dir)) {
            Path config = dir.resolve("encryption.yaml");
            Files.writeString(config, """
                    apiVersion: apiserver.config.k8s.io/v1
                    kind: EncryptionConfiguration
                    resources:
                      - resources: [secrets]
                        providers:
                          - kms:
                              apiVersion: v2
                              name: plugin1
                              endpoint: %s
                              timeout: 3s
                          - identity: {}
                    """.formatted(plugin.endpoint()));
            KapiProcess kapi = new KapiProcess("EncryptionKmsIT", List.of("--storage-backend=embedded",
                    "--encryption-provider-config=" + config));
            try (kapi) {
                kapi.start();
                Kubectl k = new Kubectl(Kubectl.DEFAULT, kapi.kubeconfigPath(), Files.createDirectories(dir.resolve("cache")));
                k.run("create", "secret", "generic", "s1", "--from-literal=password=kms-protected").assertOk();
                assertEquals("a21zLXByb3RlY3RlZA==", k.run("get", "secret", "s1", "-o", "jsonpath={.data.password}")
                        .assertOk().stdout());
                try (ApiClient api = ApiClient.of(kapi.kubeconfig())) {
                    assertEquals(200, api.get("/healthz/kms-provider-0").status());
                    assertEquals(200, api.get("/livez/kms-provider-0").status());
                    assertTrue(api.get("/healthz?verbose").body().contains("[+]kms-provider-0 ok"));
                }
                kapi.stop();
                try (Storage store = Storages.embedded(kapi.dataDir().resolve("store"))) {
                    String raw = new String(store.get("/registry/secrets/default/s1").orElseThrow().value(),
                            StandardCharsets.ISO_8859_1);
                    assertTrue(raw.startsWith("k8s:enc:kms:v2:plugin1:"), raw);
                    assertTrue(!raw.contains("kms-protected"), raw);
                }
                kapi.start(); // a restarted server decrypts the seed through the plugin again
                assertEquals("a21zLXByb3RlY3RlZA==", k.run("get", "secret", "s1", "-o", "jsonpath={.data.password}")
                        .assertOk().stdout());
            }
        }
    }
}
