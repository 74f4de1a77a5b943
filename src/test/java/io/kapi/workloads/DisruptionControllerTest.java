package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.fixtures.Await;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ObjectMeta;
import io.kapi.user.SystemUsers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The disruption controller's stale-DisruptionTarget worker, against the API in memory with a short timeout. */
class DisruptionControllerTest {

    private static final String PODS = "/api/v1/namespaces/default/pods";

    @InMemoryApi
    private ApiHarness api;

    private void pod(String name, String reason) {
        assertEquals(201, api.post(PODS, """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s"},"spec":{"containers":[{"name":"c",\
                "image":"nginx"}]}}""".formatted(name)).code());
        assertEquals(200, api.patch(PODS + "/" + name + "/status", "application/merge-patch+json", """
                {"status":{"phase":"Running","conditions":[{"type":"DisruptionTarget","status":"True","reason":"%s",\
                "message":"evicting","lastTransitionTime":"%s"}]}}""".formatted(reason,
                ObjectMeta.format(Instant.now()))).code());
    }

    private JsonNode condition(String name) {
        for (JsonNode c : api.get(PODS + "/" + name).body().path("status").path("conditions")) {
            if (c.path("type").asText().equals("DisruptionTarget")) {
                return c;
            }
        }
        return null;
    }

    @Test
    @DisplayName("a DisruptionTarget left on a Pod not being deleted goes back to False after the timeout; the kubelet's stays")
    void staleDisruptionTarget() throws Exception {
        pod("evicted", "EvictionByEvictionAPI");
        pod("kubelet", "TerminationByKubelet");
        try (SharedInformers informers = new SharedInformers(api.assembly().registry()::store)) {
            DisruptionController controller = new DisruptionController(api.assembly().loopback().as(
                    SystemUsers.controller("disruption-controller"), "kube-controller-manager"), informers,
                    Clock.systemUTC(), Duration.ofMillis(500));
            informers.start();
            controller.run();
            try {
                Await.atMost(Duration.ofSeconds(15)).until("reset to False",
                        () -> condition("evicted").path("status").asText().equals("False"));
                JsonNode reset = condition("evicted");
                assertEquals("", reset.path("reason").asText(""), reset.toString());
                assertEquals("True", condition("kubelet").path("status").asText());
            } finally {
                controller.close();
            }
        }
    }
}
