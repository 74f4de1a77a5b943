package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.fixtures.Await;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Durability of the embedded store across a graceful restart and across kill -9. */
@DisplayName("restart and crash of a server with the embedded store")
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a hung request or watch fails one test, not the suite
final class RestartIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--storage-backend=embedded");

    @Test
    @DisplayName("objects survive a graceful restart, unchanged, and resourceVersions keep growing")
    void gracefulRestart() throws IOException {
        Kubectl k = KAPI.kubectl();
        k.runWithInput(Manifests.namespace("durable"), "create", "-f", "-").assertOk();
        k.runWithInput(Manifests.configMap("keep", "a", "b"), "create", "-n", "durable", "-f", "-").assertOk();
        k.runWithInput(Manifests.read("deployment.yaml"), "create", "-n", "durable", "-f", "-").assertOk();
        // by name: controllers may add objects of their own (kube-root-ca.crt) at any time
        JsonNode before = Json.MAPPER.readTree(k.run("get", "cm/keep", "deploy/web", "-n", "durable", "-o", "json")
                .assertOk().stdout());
        long maxBefore = maxResourceVersion(before);

        KAPI.kapi().restart();

        JsonNode after = Json.MAPPER.readTree(k.run("get", "cm/keep", "deploy/web", "-n", "durable", "-o", "json")
                .assertOk().stdout());
        assertEquals(before.path("items"), after.path("items"), "the same objects, same uid and resourceVersion");
        assertEquals("Active", k.run("get", "ns", "durable", "-o", "jsonpath={.status.phase}").assertOk().stdout());
        k.runWithInput(Manifests.configMap("newer", "a", "b"), "create", "-n", "durable", "-f", "-").assertOk();
        long newRv = Long.parseLong(k.run("get", "cm", "newer", "-n", "durable", "-o",
                "jsonpath={.metadata.resourceVersion}").assertOk().stdout());
        assertTrue(newRv > maxBefore, "resourceVersion after restart " + newRv + " > before " + maxBefore);
    }

    @Test
    @DisplayName("kill -9 during a stream of creates: every acknowledged (201) configmap is there after restart")
    void killDuringWrites() throws Exception {
        KAPI.kubectl().runWithInput(Manifests.namespace("crash"), "create", "-f", "-").assertOk();
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        int writers = 16;
        try (ApiClient client = KAPI.client(); ExecutorService pool = Executors.newFixedThreadPool(writers)) {
            for (int w = 0; w < writers; w++) {
                int writer = w;
                pool.submit(() -> {
                    for (int i = 0; i < 5_000 && !stop.get(); i++) {
                        String name = "ack-" + writer + "-" + i;
                        try {
                            ApiClient.Response r = client.post("/api/v1/namespaces/crash/configmaps",
                                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                                            + "\"},\"data\":{\"i\":\"" + i + "\"}}");
                            if (r.status() == 201) {
                                acknowledged.add(name);
                            }
                        } catch (RuntimeException connectionLost) {
                            return;
                        }
                    }
                });
            }
            Await.atMost(Duration.ofSeconds(20)).every(Duration.ofMillis(10)).poll(acknowledged::size, n -> n >= 300);
            KAPI.kapi().kill();
            stop.set(true);
        }
        assertTrue(acknowledged.size() >= 100, "the stream got going before the kill: " + acknowledged.size());

        KAPI.kapi().start();

        Set<String> stored = new HashSet<>();
        try (ApiClient client = KAPI.client()) {
            ApiClient.Response list = client.get("/api/v1/namespaces/crash/configmaps");
            assertEquals(200, list.status(), list.toString());
            list.json().path("items").forEach(item -> stored.add(item.path("metadata").path("name").asText()));
        }
        Set<String> lost = new TreeSet<>(acknowledged);
        lost.removeAll(stored);
        assertTrue(lost.isEmpty(), lost.size() + " of " + acknowledged.size() + " acknowledged creates lost, e.g. "
                + List.copyOf(lost).subList(0, Math.min(10, lost.size())));
    }

    private static long maxResourceVersion(JsonNode list) {
        long max = 0;
        for (JsonNode item : list.path("items")) {
            max = Math.max(max, Long.parseLong(item.path("metadata").path("resourceVersion").asText()));
        }
        return max;
    }
}
