package io.kapi.scheduler;

import static io.kapi.scheduler.Fixtures.containers;
import static io.kapi.scheduler.Fixtures.json;
import static io.kapi.scheduler.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.labels.LabelSelector;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("scheduler cache")
final class SchedulerCacheTest {

    private final SchedulerCache cache = new SchedulerCache();

    private static ObjectNode bound(String name, String node, String phase) {
        PodInfo p = pod(name, "\"app\":\"w\"", containers("1", "1Gi"));
        ((ObjectNode) p.pod().get("spec")).put("nodeName", node);
        p.pod().putObject("status").put("phase", phase);
        return p.pod();
    }

    private long requestedCpu(String node) {
        return cache.cycle((list, index) -> list.stream().filter(n -> n.name().equals(node)).findFirst().orElseThrow()
                .requested.milliCpu);
    }

    @Test
    @DisplayName("bound Pods count on their Node until they terminate or go; an assumed Pod until its binding fails")
    void accounting() {
        cache.putNode(json("""
                {"metadata":{"name":"n1","labels":{"topology.kubernetes.io/zone":"z"}},
                 "status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"}}}"""));
        cache.putPod(bound("a", "n1", "Running"));
        assertEquals(1000, requestedCpu("n1"));
        cache.putPod(bound("a", "n1", "Succeeded"));
        assertEquals(0, requestedCpu("n1"), "a terminated Pod frees its requests");
        PodInfo b = pod("b", "\"app\":\"w\"", containers("2", "1Gi"));
        cache.assume(b, "n1");
        assertEquals(2000, requestedCpu("n1"));
        cache.putPod(b.pod()); // the informer's older, unbound copy does not undo the assumption
        assertTrue(cache.isAssumedOrBound("ns/b"));
        cache.forget("ns/b");
        assertFalse(cache.isAssumedOrBound("ns/b"));
        assertEquals(0, requestedCpu("n1"));
    }

    @Test
    @DisplayName("the label index counts what the Nodes hold, one selector match per label set")
    void index() {
        for (String n : new String[] {"n1", "n2"}) {
            cache.putNode(json("""
                    {"metadata":{"name":"%s"},"status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"}}}"""
                    .formatted(n)));
        }
        cache.putPod(bound("a", "n1", "Running"));
        cache.putPod(bound("b", "n1", "Running"));
        cache.putPod(bound("c", "n2", "Pending"));
        cache.removePod("ns/b");
        Map<String, Integer> counts = cache.cycle((list, index) -> {
            Map<String, Integer> out = new java.util.TreeMap<>();
            index.matching("ns", LabelSelector.fromSet(Map.of("app", "w"))).forEach((n, c) -> out.put(n.name(), c));
            return out;
        });
        assertEquals(Map.of("n1", 1, "n2", 1), counts);
    }
}
