package io.kapi.scheduler;

import static io.kapi.scheduler.Fixtures.containers;
import static io.kapi.scheduler.Fixtures.cycle;
import static io.kapi.scheduler.Fixtures.json;
import static io.kapi.scheduler.Fixtures.node;
import static io.kapi.scheduler.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("preemption")
final class PreemptionTest {

    private static PodInfo withPriority(String name, int priority, String cpu) {
        return pod(name, "\"app\":\"" + name + "\"", containers(cpu, "100Mi") + ",\"priority\":" + priority);
    }

    private static Preemption.Outcome preempt(PodInfo pod, List<com.fasterxml.jackson.databind.node.ObjectNode> budgets,
                                              NodeInfo... nodes) {
        Cycle cycle = cycle(pod, nodes);
        Algorithm algorithm = new Algorithm(Algorithm.DEFAULT_PROFILE);
        Decision.Unfit unfit = (Decision.Unfit) algorithm.schedule(cycle);
        return Preemption.preempt(algorithm, cycle, unfit, budgets);
    }

    @Test
    @DisplayName("the fewest, least important victims: only as many lower-priority Pods as make room")
    void fewest() {
        NodeInfo a = node("a", "2", "4Gi", "z", "");
        a.addPod(withPriority("low-1", 1, "1"));
        a.addPod(withPriority("low-2", 2, "1"));
        NodeInfo b = node("b", "2", "4Gi", "z", "");
        b.addPod(withPriority("high", 100, "2"));
        Preemption.Outcome o = preempt(withPriority("p", 50, "1"), List.of(), a, b);
        assertEquals("a", o.node().name());
        assertEquals(List.of("low-1"), o.victims().stream().map(PodInfo::name).toList());
        assertNull(o.message());
    }

    @Test
    @DisplayName("a Node whose victims a PodDisruptionBudget protects is chosen last")
    void budgets() {
        NodeInfo a = node("a", "1", "4Gi", "z", "");
        a.addPod(withPriority("guarded", 1, "1"));
        NodeInfo b = node("b", "1", "4Gi", "z", "");
        b.addPod(withPriority("free", 1, "1"));
        var pdb = json("""
                {"metadata":{"name":"pdb","namespace":"ns"},"spec":{"selector":{"matchLabels":{"app":"guarded"}}},
                 "status":{"disruptionsAllowed":0}}""");
        assertEquals("b", preempt(withPriority("p", 10, "1"), List.of(pdb), a, b).node().name());
    }

    @Test
    @DisplayName("preemptionPolicy Never, and no lower-priority Pod: kube's messages")
    void refused() {
        NodeInfo a = node("a", "1", "4Gi", "z", "");
        a.addPod(withPriority("low", 1, "1"));
        PodInfo never = pod("n", "", containers("1", "1Mi") + ",\"priority\":10,\"preemptionPolicy\":\"Never\"");
        assertEquals(Preemption.NEVER, preempt(never, List.of(), a).message());
        assertEquals("0/1 nodes are available: 1 No preemption victims found for incoming pod.",
                preempt(withPriority("p", 0, "1"), List.of(), a).message());
    }

    @Test
    @DisplayName("a Pod nominated to a Node keeps its room there from Pods of no higher priority")
    void nominated() {
        NodeInfo a = node("a", "2", "4Gi", "z", "");
        Nominations nominations = new Nominations();
        nominations.set(withPriority("preemptor", 100, "1500m"), "a");
        Algorithm algorithm = new Algorithm(Algorithm.DEFAULT_PROFILE);
        Cycle low = cycle(withPriority("low", 0, "1"), a).withNominations(nominations);
        Algorithm.DEFAULT_PROFILE.forEach(p -> p.preFilter(low));
        assertEquals(List.of("Insufficient cpu"), algorithm.filter(low, a).reasons());
        Cycle higher = cycle(withPriority("higher", 200, "1"), a).withNominations(nominations);
        Algorithm.DEFAULT_PROFILE.forEach(p -> p.preFilter(higher));
        assertNull(algorithm.filter(higher, a));
        Cycle itself = cycle(withPriority("preemptor", 100, "1500m"), a).withNominations(nominations);
        Algorithm.DEFAULT_PROFILE.forEach(p -> p.preFilter(itself));
        assertNull(algorithm.filter(itself, a), "its own nomination does not count against it");
        nominations.remove("ns/preemptor");
        assertNull(algorithm.filter(low, a));
    }
}
