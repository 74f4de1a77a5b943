package io.kapi.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.assembly.ApiConfig;
import io.kapi.harness.ApiHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service-account controller and the root-CA publisher, event-driven on the shared informers and
 * acting under their own identities with RBAC on, as kube-controller-manager's.
 */
class RootCaPublisherTest {

    private static final String CA = "-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n";
    @TempDir
    static Path dir;
    private static ApiHarness api;

    @BeforeAll
    static void start() throws Exception {
        Files.writeString(dir.resolve("ca.crt"), CA);
        api = new ApiHarness(ApiConfig.builder().dataDir(dir).standalone(true)
                .authorizationModes(List.of("Node", "RBAC")).build());
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    private static long millisUntil(BooleanSupplier condition) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within 10 s");
            Thread.sleep(1);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    @Test
    @DisplayName("a new namespace gets kube-root-ca.crt and the default service account at once, with RBAC on")
    void newNamespace() throws InterruptedException {
        assertEquals(201, api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"fresh\"}}").code());
        long millis = millisUntil(() -> api.get("/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt").code() == 200);
        assertTrue(millis < 2_000, "published after " + millis + " ms");
        ApiHarness.Reply cm = api.get("/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt");
        assertEquals(CA, cm.body().path("data").path("ca.crt").asText());
        assertTrue(cm.body().path("metadata").path("annotations").path("kubernetes.io/description").asText()
                .startsWith("Contains a CA bundle"));
        assertTrue(cm.body().path("metadata").path("managedFields").toString().contains("kube-controller-manager"),
                cm.text());
        millisUntil(() -> api.get("/api/v1/namespaces/fresh/serviceaccounts/default").code() == 200);
    }

    @Test
    @DisplayName("the ConfigMap is put back when deleted or changed, the default account when deleted")
    void mends() throws InterruptedException {
        assertEquals(201, api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"mended\"}}").code());
        String cm = "/api/v1/namespaces/mended/configmaps/kube-root-ca.crt";
        millisUntil(() -> api.get(cm).code() == 200);
        assertEquals(200, api.patch(cm, "application/merge-patch+json", "{\"data\":{\"ca.crt\":\"x\"}}").code());
        millisUntil(() -> api.get(cm).body().path("data").path("ca.crt").asText().equals(CA));
        assertEquals(200, api.delete(cm).code());
        millisUntil(() -> api.get(cm).code() == 200);
        String sa = "/api/v1/namespaces/mended/serviceaccounts/default";
        millisUntil(() -> api.get(sa).code() == 200);
        assertEquals(200, api.delete(sa).code());
        millisUntil(() -> api.get(sa).code() == 200);
    }
}
