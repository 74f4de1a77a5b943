package io.kapi.scheduler;

import static io.kapi.scheduler.Fixtures.containers;
import static io.kapi.scheduler.Fixtures.cycle;
import static io.kapi.scheduler.Fixtures.node;
import static io.kapi.scheduler.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the FailedScheduling message")
final class FitMessageTest {

    @Test
    @DisplayName("reasons counted and sorted as strings, then DynamicResources' and DefaultPreemption's messages")
    void sorted() {
        Map<String, Rejection> r = new LinkedHashMap<>();
        r.put("a", Rejection.unschedulable("NodeResourcesFit", "Insufficient cpu"));
        r.put("b", Rejection.unresolvable("TaintToleration", "node(s) had untolerated taint {dedicated: gpu}"));
        r.put("c", Rejection.unschedulable("NodeResourcesFit", "Insufficient cpu", "Insufficient memory"));
        Map<String, Rejection> preemption = new LinkedHashMap<>();
        preemption.put("a", Rejection.unresolvable("DefaultPreemption", Preemption.NO_VICTIMS));
        preemption.put("b", Rejection.unresolvable("DefaultPreemption", Preemption.NOT_HELPFUL));
        preemption.put("c", Rejection.unresolvable("DefaultPreemption", Preemption.NO_VICTIMS));
        assertEquals("0/3 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {dedicated: gpu}, "
                + "2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: "
                + "1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
                FitMessage.of(3, r, FitMessage.postFilter(FitMessage.of(3, preemption, null))));
    }

    @Test
    @DisplayName("no Node at all: kube's ErrNoNodesAvailable")
    void noNodes() {
        assertEquals("no nodes available to schedule pods", FitMessage.of(0, Map.of(), null));
    }

    @Test
    @DisplayName("a Pod too big for two Nodes, one tainted: the whole message as kube-scheduler 1.34 writes it")
    void endToEnd() {
        NodeInfo a = node("a", "1", "1Gi", "z", "");
        NodeInfo b = node("b", "1", "1Gi", "z", "");
        NodeInfo t = node("t", "8", "8Gi", "z", "\"taints\":[{\"key\":\"k\",\"value\":\"v\",\"effect\":\"NoSchedule\"}]");
        Cycle cycle = cycle(pod("big", "", containers("2", "100Mi")), a, b, t);
        Algorithm algorithm = new Algorithm(Algorithm.DEFAULT_PROFILE);
        Decision.Unfit unfit = (Decision.Unfit) algorithm.schedule(cycle);
        Preemption.Outcome p = Preemption.preempt(algorithm, cycle, unfit, List.of());
        assertEquals("0/3 nodes are available: 1 node(s) had untolerated taint {k: v}, 2 Insufficient cpu. "
                + "no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful "
                + "for scheduling, 2 No preemption victims found for incoming pod.",
                FitMessage.of(unfit.allNodes(), unfit.rejections(), FitMessage.postFilter(p.message())));
    }
}
