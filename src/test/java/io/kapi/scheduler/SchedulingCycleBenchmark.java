package io.kapi.scheduler;

import io.kapi.machinery.labels.LabelSelector;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One scheduling cycle (filters and scores of the default profile, no API call) on {@code nodes} Nodes holding
 * 30 Pods each (of 50 ReplicaSets, ten zones): a plain Pod, one spread over zones by a DoNotSchedule
 * constraint, and one with required anti-affinity; the scheduler's CPU bound on Pods per second. Run:
 * {@code mvn -q test-compile && java -cp target/test-classes:target/classes:target/lib/* org.openjdk.jmh.Main
 * SchedulingCycle}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class SchedulingCycleBenchmark {

    @Param({"1000"})
    public int nodes;

    private final SchedulerCache cache = new SchedulerCache();
    private final Algorithm algorithm = new Algorithm(Algorithm.DEFAULT_PROFILE);
    private PodInfo plain;
    private PodInfo spread;
    private PodInfo anti;

    @Setup
    public void setUp() {
        for (int n = 0; n < nodes; n++) {
            NodeInfo node = Fixtures.node("node-" + n, "32", "128Gi", "zone-" + (n % 10), "");
            cache.putNode(node.node());
            for (int p = 0; p < 30; p++) {
                PodInfo pod = Fixtures.pod("p-" + n + "-" + p, "\"app\":\"app-" + (p + n) % 50 + "\"",
                        Fixtures.containers("10m", "16Mi"));
                ((com.fasterxml.jackson.databind.node.ObjectNode) pod.pod().get("spec")).put("nodeName", node.name());
                cache.putPod(pod.pod());
            }
        }
        plain = Fixtures.pod("new", "\"app\":\"app-1\"", Fixtures.containers("10m", "16Mi"));
        spread = Fixtures.pod("spread", "\"app\":\"app-2\"", Fixtures.containers("10m", "16Mi") + """
                ,"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone",
                  "whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"app-2"}}}]""");
        anti = Fixtures.pod("anti", "\"app\":\"solo\"", Fixtures.containers("10m", "16Mi") + """
                ,"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
                  {"labelSelector":{"matchLabels":{"app":"solo"}},"topologyKey":"kubernetes.io/hostname"}]}}""");
    }

    private Decision schedule(PodInfo pod) {
        return cache.cycle((list, index) -> algorithm.schedule(new Cycle(pod, list, index, ns -> Map.of(),
                p -> LabelSelector.fromSet(Map.of("app", p.labels().get("app"))))));
    }

    @Benchmark
    public Decision plainPod() {
        return schedule(plain);
    }

    @Benchmark
    public Decision spreadPod() {
        return schedule(spread);
    }

    @Benchmark
    public Decision antiAffinityPod() {
        return schedule(anti);
    }
}
