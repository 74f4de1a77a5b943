package io.kapi.scheduler;

import static io.kapi.scheduler.Fixtures.containers;
import static io.kapi.scheduler.Fixtures.cycle;
import static io.kapi.scheduler.Fixtures.node;
import static io.kapi.scheduler.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.machinery.labels.LabelSelector;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("scheduler scores")
final class ScoresTest {

    private static long[] scores(Plugin plugin, Cycle cycle) {
        plugin.preScore(cycle, cycle.nodes());
        long[] s = new long[cycle.nodes().size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = plugin.score(cycle, cycle.nodes().get(i));
        }
        plugin.normalize(cycle, s);
        return s;
    }

    @Test
    @DisplayName("LeastAllocated: the free share of cpu and memory, averaged; BalancedAllocation: 100 less half the gap")
    void resources() {
        NodeInfo empty = node("empty", "4", "4Gi", "z", "");
        NodeInfo busy = node("busy", "4", "4Gi", "z", "");
        busy.addPod(pod("b", "", containers("2", "1Gi")));
        Cycle cycle = cycle(pod("p", "", containers("1", "1Gi")), empty, busy);
        // empty: cpu (4-1)/4=75, memory (4-1)/4=75; busy: cpu 25, memory 50 -> 37
        assertArrayEquals(new long[] {75, 37}, scores(new NodeResourcesFit(), cycle));
        // empty: 0.25/0.25 -> 100; busy: 0.75/0.5 -> 100 - 12.5
        assertArrayEquals(new long[] {100, 87}, scores(new BalancedAllocation(), cycle));
    }

    @Test
    @DisplayName("TaintToleration: fewer untolerated PreferNoSchedule taints rank higher; NodeAffinity: preferred weights")
    void preferences() {
        NodeInfo plain = node("plain", "4", "4Gi", "z1", "");
        NodeInfo tainted = node("tainted", "4", "4Gi", "z2",
                "\"taints\":[{\"key\":\"spot\",\"effect\":\"PreferNoSchedule\"}]");
        Cycle cycle = cycle(pod("p", "", """
                "affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[
                  {"weight":20,"preference":{"matchExpressions":[{"key":"topology.kubernetes.io/zone","operator":"In","values":["z2"]}]}}]}}"""),
                plain, tainted);
        assertArrayEquals(new long[] {100, 0}, scores(new TaintToleration(), cycle));
        assertArrayEquals(new long[] {0, 100}, scores(new NodeAffinity(), cycle));
    }

    @Test
    @DisplayName("default spreading: the Node holding fewer Pods of the same ReplicaSet ranks higher")
    void defaultSpreading() {
        NodeInfo a = node("a", "4", "4Gi", "z1", "");
        NodeInfo b = node("b", "4", "4Gi", "z2", "");
        a.addPod(pod("w1", "\"app\":\"w\"", ""));
        a.addPod(pod("w2", "\"app\":\"w\"", ""));
        Cycle cycle = new Cycle(pod("w3", "\"app\":\"w\"", ""), List.of(a, b), ns -> Map.of(),
                p -> LabelSelector.fromSet(Map.of("app", "w")));
        long[] s = scores(new PodTopologySpread(), cycle);
        assertEquals(100, s[1]);
        assertEquals(true, s[0] < s[1], "a holds two of them: " + s[0]);
    }

    @Test
    @DisplayName("percentageOfNodesToScore: every Node below 100, then 50% less 1% per 125 Nodes, at least 5% and 100")
    void nodesToFind() {
        assertEquals(3, Algorithm.nodesToFind(3));
        assertEquals(100, Algorithm.nodesToFind(150));
        assertEquals(420, Algorithm.nodesToFind(1000));
        assertEquals(500, Algorithm.nodesToFind(10000));
    }
}
