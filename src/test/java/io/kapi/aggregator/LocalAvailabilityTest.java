package io.kapi.aggregator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.harness.ApiHarness;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Local APIServices (no {@code spec.service}) as kube-aggregator keeps them: Available=True, reason Local, from
 * their creation (the strategy) and whatever is written to their status later (the local availability controller).
 */
@DisplayName("apiservice-status-local-available-controller: a local APIService is always available")
class LocalAvailabilityTest {

    private static final String PATH = "/apis/apiregistration.k8s.io/v1/apiservices";
    private static ApiHarness api;

    @BeforeAll
    static void start() {
        api = new ApiHarness();
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    private static String apiService(String version, String service, String status) {
        return "{\"apiVersion\":\"apiregistration.k8s.io/v1\",\"kind\":\"APIService\",\"metadata\":{\"name\":\""
                + version + ".local.example.com\"},\"spec\":{\"group\":\"local.example.com\",\"version\":\"" + version
                + "\",\"groupPriorityMinimum\":1000,\"versionPriority\":15" + service + "}" + status + "}";
    }

    private static JsonNode available(JsonNode apiService) {
        for (JsonNode c : apiService.path("status").path("conditions")) {
            if (c.path("type").asText().equals("Available")) {
                return c;
            }
        }
        return null;
    }

    private static boolean isLocal(JsonNode condition) {
        return condition != null && condition.path("status").asText().equals("True")
                && condition.path("reason").asText().equals("Local")
                && condition.path("message").asText().equals("Local APIServices are always available");
    }

    private static JsonNode await(String name, Predicate<JsonNode> until) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        JsonNode current = api.get(PATH + "/" + name).body();
        while (!until.test(current) && System.nanoTime() < end) {
            Thread.sleep(20);
            current = api.get(PATH + "/" + name).body();
        }
        return current;
    }

    @Test
    @DisplayName("created local: Available=True/Local at its creation time, whatever status the client sent")
    void createdAvailable() {
        ApiHarness.Reply created = api.post(PATH, apiService("v1", "", ",\"status\":{\"conditions\":[{\"type\":"
                + "\"Available\",\"status\":\"False\",\"reason\":\"Mine\",\"message\":\"no\"}]}"));
        assertEquals(201, created.code(), created.text());
        JsonNode condition = available(created.body());
        assertTrue(isLocal(condition), created.text());
        assertEquals(created.body().path("metadata").path("creationTimestamp").asText(),
                condition.path("lastTransitionTime").asText());
        assertEquals(1, created.body().path("status").path("conditions").size(), created.text());
    }

    @Test
    @DisplayName("created remote: no status from the client or the strategy (the remote controller's to write)")
    void createdRemote() {
        ApiHarness.Reply created = api.post(PATH, apiService("v2", ",\"service\":{\"namespace\":\"default\","
                + "\"name\":\"nowhere\"}", ",\"status\":{\"conditions\":[{\"type\":\"Available\",\"status\":\"True\","
                + "\"reason\":\"Local\",\"message\":\"forged\"}]}"));
        assertEquals(201, created.code(), created.text());
        assertNull(available(created.body()), created.text());
    }

    @Test
    @DisplayName("a status written unavailable is set back; a remote one made local becomes available")
    void keptAvailable() throws Exception {
        assertEquals(201, api.post(PATH, apiService("v3", "", "")).code());
        JsonNode current = api.get(PATH + "/v3.local.example.com").body();
        ApiHarness.Reply unavailable = api.put(PATH + "/v3.local.example.com/status", withStatus(current, "False", "Broken"));
        assertEquals(200, unavailable.code(), unavailable.text());
        assertTrue(isLocal(available(await("v3.local.example.com", o -> isLocal(available(o))))));

        assertEquals(201, api.post(PATH, apiService("v4", ",\"service\":{\"namespace\":\"default\",\"name\":"
                + "\"nowhere\"}", "")).code());
        // a merge patch, as kubectl patch sends it: the remote controller writes this APIService's status meanwhile,
        // which a PUT of the object read before would meet as a conflict
        ApiHarness.Reply updated = api.patch(PATH + "/v4.local.example.com", "application/merge-patch+json",
                "{\"spec\":{\"service\":null}}");
        assertEquals(200, updated.code(), updated.text());
        assertTrue(isLocal(available(await("v4.local.example.com", o -> isLocal(available(o))))));
    }

    private static String withStatus(JsonNode apiService, String status, String reason) {
        ObjectNode copy = apiService.deepCopy();
        ObjectNode c = copy.withObject("/status").putArray("conditions").addObject();
        c.put("type", "Available").put("status", status).put("reason", reason).put("message", "x")
                .put("lastTransitionTime", "2020-01-01T00:00:00Z");
        return copy.toString();
    }
}
