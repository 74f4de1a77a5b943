package io.kapi.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

final class NodeResourcesTest {

    static com.fasterxml.jackson.databind.node.ObjectNode pod(String cpu, String memory) {
        return PodStagesTest.pod("""
                {"spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"%s","memory":"%s"}}}]}}"""
                .formatted(cpu, memory));
    }

    @Test
    @DisplayName("Pods are admitted while they fit allocatable; the next is rejected with kubelet's reason and message")
    void outOfCpu() {
        NodeResources node = new NodeResources(new NodeShape("4", "16Gi", 3, "100Gi", null, null, null, Map.of(),
                List.of()));
        assertNull(node.admit("a", pod("3", "1Gi")));
        assertNull(node.admit("a", pod("3", "1Gi")));
        NodeResources.Rejection r = node.admit("b", pod("1500m", "1Gi"));
        assertEquals("OutOfcpu", r.reason());
        assertEquals("Pod was rejected: Node didn't have enough resource: cpu, requested: 1500, used: 3000, "
                + "capacity: 4000", r.message());
        node.release("a");
        assertNull(node.admit("b", pod("1500m", "1Gi")));
        assertEquals("OutOfmemory", node.admit("c", pod("1", "16Gi")).reason());
        assertNull(node.admit("c", pod("0", "1Gi")));
        assertNull(node.admit("d", pod("0", "1Gi")));
        assertEquals("Pod was rejected: Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3",
                node.admit("e", pod("0", "1Gi")).message());
    }

    @Test
    @DisplayName("a Pod's requests: containers summed, an init container's when larger, plus overhead")
    void requests() {
        var p = PodStagesTest.pod("""
                {"spec":{"initContainers":[{"name":"i","resources":{"requests":{"cpu":"2"}}}],
                 "containers":[{"name":"a","resources":{"requests":{"cpu":"500m","memory":"1Mi"}}},
                 {"name":"b","resources":{"requests":{"cpu":"500m"}}}],"overhead":{"cpu":"100m"}}}""");
        assertEquals(Map.of("cpu", 2100L, "memory", 1048576L), NodeResources.requests(p));
    }
}
