package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DaemonSetRolloutTest {

    private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");

    private static ObjectNode json(String text) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(text);
    }

    private static ObjectNode ds(String rollingUpdate) throws Exception {
        return json("""
                {"metadata":{"name":"ds","generation":2},"spec":{"updateStrategy":{"type":"RollingUpdate",
                 "rollingUpdate":%s},"template":{"spec":{}}}}""".formatted(rollingUpdate));
    }

    private static ObjectNode pod(String name, String hash, boolean ready) throws Exception {
        return json("""
                {"metadata":{"name":"%s","labels":{"controller-revision-hash":"%s"}},
                 "status":{"phase":"Running","conditions":[{"type":"Ready","status":"%s",
                 "lastTransitionTime":"2026-01-01T00:00:00Z"}]}}""".formatted(name, hash, ready ? "True" : "False"));
    }

    private static List<ObjectNode> nodes(int n) throws Exception {
        List<ObjectNode> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add(json("{\"metadata\":{\"name\":\"n" + i + "\"}}"));
        }
        return nodes;
    }

    private static List<String> names(List<ObjectNode> pods) {
        return pods.stream().map(p -> ObjectMeta.of(p).name()).toList();
    }

    @Test
    @DisplayName("maxUnavailable 1: one available old Pod deleted at a time; none while a new one is not yet available")
    void maxUnavailable() throws Exception {
        Map<String, List<ObjectNode>> byNode = new TreeMap<>();
        byNode.put("n0", List.of(pod("a", "old", true)));
        byNode.put("n1", List.of(pod("b", "old", true)));
        byNode.put("n2", List.of(pod("c", "old", true)));
        DaemonSetRollout.Plan plan = DaemonSetRollout.plan(ds("{\"maxUnavailable\":1,\"maxSurge\":0}"), nodes(3), byNode, "new", NOW);
        assertEquals(List.of("a"), names(plan.delete()));
        assertEquals(List.of(), plan.create());
        byNode.put("n0", List.of(pod("a2", "new", false)));
        assertEquals(List.of(), names(DaemonSetRollout.plan(ds("{\"maxUnavailable\":1,\"maxSurge\":0}"), nodes(3), byNode,
                "new", NOW).delete()), "the new Pod not available uses the budget");
        assertEquals(List.of("b"), names(DaemonSetRollout.plan(ds("{\"maxUnavailable\":\"50%\",\"maxSurge\":0}"), nodes(3),
                byNode, "new", NOW).delete()), "50% of 3 rounds up to 2");
    }

    @Test
    @DisplayName("a Pod counts as updated by its hash or by the template generation, read from kube's annotation when there")
    void templateGeneration() throws Exception {
        ObjectNode annotated = json("""
                {"metadata":{"generation":5,"annotations":{"deprecated.daemonset.template.generation":"3"}}}""");
        assertEquals(3, DaemonSetController.templateGeneration(annotated));
        assertEquals(2, DaemonSetController.templateGeneration(ds("{}")));
        ObjectNode pod = json("{\"metadata\":{\"labels\":{\"pod-template-generation\":\"3\",\"controller-revision-hash\":\"old\"}}}");
        assertEquals(true, DaemonSetController.updated(pod, "new", 3));
        assertEquals(false, DaemonSetController.updated(pod, "new", 2));
    }

    @Test
    @DisplayName("an old Pod that is not available is replaced whatever the budget")
    void unavailableOld() throws Exception {
        Map<String, List<ObjectNode>> byNode = new TreeMap<>();
        byNode.put("n0", List.of(pod("a", "old", false)));
        byNode.put("n1", List.of(pod("b", "old", false)));
        assertEquals(List.of("a", "b"), names(DaemonSetRollout.plan(ds("{\"maxUnavailable\":1,\"maxSurge\":0}"), nodes(2),
                byNode, "new", NOW).delete()));
    }

    @Test
    @DisplayName("maxSurge 1: a new Pod beside one available old Pod; the old one goes once the new one is available")
    void maxSurge() throws Exception {
        Map<String, List<ObjectNode>> byNode = new TreeMap<>();
        byNode.put("n0", List.of(pod("a", "old", true)));
        byNode.put("n1", List.of(pod("b", "old", true)));
        ObjectNode ds = ds("{\"maxUnavailable\":0,\"maxSurge\":1}");
        DaemonSetRollout.Plan plan = DaemonSetRollout.plan(ds, nodes(2), byNode, "new", NOW);
        assertEquals(List.of("n0"), plan.create());
        assertEquals(List.of(), plan.delete());
        byNode.put("n0", List.of(pod("a", "old", true), pod("a2", "new", false)));
        plan = DaemonSetRollout.plan(ds, nodes(2), byNode, "new", NOW);
        assertEquals(List.of(), plan.create(), "the surge is used by n0");
        byNode.put("n0", List.of(pod("a", "old", true), pod("a2", "new", true)));
        plan = DaemonSetRollout.plan(ds, nodes(2), byNode, "new", NOW);
        assertEquals(List.of("a"), names(plan.delete()));
    }
}
