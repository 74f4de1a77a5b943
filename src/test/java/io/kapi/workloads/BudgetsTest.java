package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class BudgetsTest {

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static ObjectNode pod(String name, boolean ready, boolean deleting) {
        return (ObjectNode) json("""
                {"metadata":{"name":"%s"%s},"status":{"conditions":[{"type":"Ready","status":"%s"}]}}"""
                .formatted(name, deleting ? ",\"deletionTimestamp\":\"2026-01-01T00:00:00Z\"" : "",
                        ready ? "True" : "False"));
    }

    @Test
    @DisplayName("an integer minAvailable counts the Pods there are and never asks for the scale")
    void integerMinAvailable() {
        assertEquals(new Budgets.Expected(4, 3), Budgets.expected(json("{\"minAvailable\":3}"), 4, () -> {
            throw new AssertionError("scale asked");
        }));
    }

    @Test
    @DisplayName("percentages round up against the controllers' scale: minAvailable 50% of 3 is 2, maxUnavailable 50% of 3 leaves 1")
    void percentages() {
        assertEquals(new Budgets.Expected(3, 2), Budgets.expected(json("{\"minAvailable\":\"50%\"}"), 1, () -> 3));
        assertEquals(new Budgets.Expected(3, 1), Budgets.expected(json("{\"maxUnavailable\":\"50%\"}"), 1, () -> 3));
        assertEquals(new Budgets.Expected(2, 0), Budgets.expected(json("{\"maxUnavailable\":5}"), 1, () -> 2),
                "desiredHealthy never below 0");
        assertEquals(new Budgets.Expected(0, 0), Budgets.expected(json("{}"), 3, () -> 3));
    }

    @Test
    @DisplayName("disruptionsAllowed: healthy minus desired, 0 when negative or while no Pod is expected")
    void allowed() {
        assertEquals(1, Budgets.disruptionsAllowed(3, 2, 3));
        assertEquals(0, Budgets.disruptionsAllowed(1, 2, 3));
        assertEquals(0, Budgets.disruptionsAllowed(2, 0, 0));
    }

    @Test
    @DisplayName("Pods being deleted and Pods awaiting their eviction are not healthy; expired evictions are dropped")
    void healthyAndDisrupted() {
        Instant now = Instant.parse("2026-01-01T00:10:00Z");
        List<ObjectNode> pods = List.of(pod("a", true, false), pod("b", true, true), pod("c", true, false),
                pod("d", true, false), pod("e", false, false));
        JsonNode status = json("""
                {"disruptedPods":{"b":"2026-01-01T00:09:00Z","c":"2026-01-01T00:09:30Z","d":"2026-01-01T00:07:00Z",\
                "gone":"2026-01-01T00:09:00Z"}}""");
        Budgets.Disrupted disrupted = Budgets.disrupted(status, pods, now);
        assertEquals(Map.of("c", "2026-01-01T00:09:30Z"), disrupted.pods());
        assertEquals(List.of("d"), disrupted.expired());
        assertEquals(Optional.of(Instant.parse("2026-01-01T00:11:30Z")), disrupted.recheck());
        assertEquals(2, Budgets.currentHealthy(pods, disrupted.pods(), now), "a and d");
    }

    @Test
    @DisplayName("the DisruptionAllowed condition moves its transition time only when its status changes")
    void condition() {
        Instant t1 = Instant.parse("2026-01-01T00:00:00Z");
        Instant t2 = Instant.parse("2026-01-01T00:05:00Z");
        ObjectNode status = Budgets.status(json("{}"), 1, 3, new Budgets.Expected(3, 2), Map.of(), t1);
        assertEquals("{\"observedGeneration\":1,\"disruptionsAllowed\":1,\"currentHealthy\":3,\"desiredHealthy\":2,"
                + "\"expectedPods\":3,\"conditions\":[{\"type\":\"DisruptionAllowed\",\"status\":\"True\","
                + "\"observedGeneration\":1,\"lastTransitionTime\":\"2026-01-01T00:00:00Z\",\"reason\":\"SufficientPods\","
                + "\"message\":\"\"}]}", status.toString());
        assertTrue(Budgets.conditionUpToDate(status, 1));
        assertFalse(Budgets.conditionUpToDate(status, 2));
        ObjectNode same = Budgets.status(status, 2, 4, new Budgets.Expected(3, 2), Map.of(), t2);
        assertEquals("2026-01-01T00:00:00Z", same.at("/conditions/0/lastTransitionTime").asText());
        ObjectNode changed = Budgets.status(same, 2, 2, new Budgets.Expected(3, 2), Map.of(), t2);
        assertEquals("False/InsufficientPods/2026-01-01T00:05:00Z", changed.at("/conditions/0/status").asText() + "/"
                + changed.at("/conditions/0/reason").asText() + "/"
                + changed.at("/conditions/0/lastTransitionTime").asText());
    }
}
