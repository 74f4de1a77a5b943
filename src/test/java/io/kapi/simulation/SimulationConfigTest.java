package io.kapi.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kapi.machinery.Json;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

final class SimulationConfigTest {

    @Test
    @DisplayName("--simulated-nodes=N alone: N default nodes named kapi-node-0 …")
    void count() {
        SimulationConfig c = SimulationConfig.of(3, null);
        assertEquals(List.of("kapi-node-0", "kapi-node-1", "kapi-node-2"), c.nodeNames());
        assertEquals(NodeShape.DEFAULT, c.groups().getFirst().shape());
    }

    @Test
    @DisplayName("the YAML file: named and prefixed groups over defaults, timings, then the flag's nodes")
    void file() throws Exception {
        SimulationConfig c = SimulationConfig.parse(Json.yaml().readTree("""
                namePrefix: w-
                zones: [z1]
                defaults: {cpu: "8", memory: 32Gi}
                nodes:
                  - {namePrefix: big-, count: 2, cpu: "16", labels: {node.kubernetes.io/pool: big},
                     taints: [{key: dedicated, value: big, effect: NoSchedule}]}
                  - {name: edge, pods: 20}
                jobRunFor: 3s
                stopDelay: 0s
                """));
        assertEquals(List.of("big-0", "big-1", "edge"), c.nodeNames());
        NodeShape big = c.groups().getFirst().shape();
        assertEquals("16 32Gi 110", big.cpu() + " " + big.memory() + " " + big.pods());
        assertEquals(new NodeShape.Taint("dedicated", "big", "NoSchedule"), big.taints().getFirst());
        assertEquals("8 20", c.groups().get(1).shape().cpu() + " " + c.groups().get(1).shape().pods());
        assertEquals(Duration.ofSeconds(3), c.jobRunFor());
        assertEquals(Duration.ZERO, c.stopDelay());
        assertEquals(List.of("z1"), c.zones());
    }

    @Test
    @DisplayName("a file with an unknown field or a bad quantity is refused, naming it")
    void refused() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> SimulationConfig.parse(Json.yaml().readTree("nodes: [{name: a, cpus: 4}]")));
        assertEquals("unknown field nodes[0].cpus", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> SimulationConfig.parse(Json.yaml().readTree("defaults: {memory: lots}")));
        assertEquals("defaults.memory: not a quantity: lots", e.getMessage());
    }
}
