package io.kapi.scheduler;

import static io.kapi.scheduler.Fixtures.containers;
import static io.kapi.scheduler.Fixtures.cycle;
import static io.kapi.scheduler.Fixtures.filter;
import static io.kapi.scheduler.Fixtures.fitting;
import static io.kapi.scheduler.Fixtures.node;
import static io.kapi.scheduler.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("scheduler filters")
final class FiltersTest {

    @Test
    @DisplayName("requests: containers summed, an init container's max, the overhead, pod-level requests")
    void requests() {
        PodInfo p = pod("p", "", """
                "initContainers":[{"name":"i","resources":{"requests":{"cpu":"3","memory":"1Gi"}}}],
                "containers":[{"name":"a","resources":{"requests":{"cpu":"500m","memory":"1Gi"}}},
                              {"name":"b","resources":{"requests":{"cpu":"1","example.com/gpu":"1"}}}],
                "overhead":{"cpu":"100m"}""");
        assertEquals(3100, p.requests().milliCpu);
        assertEquals(1L << 30, p.requests().memory);
        assertEquals(1, p.requests().scalar("example.com/gpu"));
        assertEquals(3100, p.nonZero().milliCpu);
        assertEquals((1L << 30) + PodRequests.DEFAULT_MEMORY, pod("q", "", """
                "containers":[{"name":"a","resources":{"requests":{"memory":"1Gi"}}},{"name":"b"}]""")
                .nonZero().memory);
        PodInfo sidecar = pod("s", "", """
                "initContainers":[{"name":"log","restartPolicy":"Always","resources":{"requests":{"cpu":"1"}}},
                                  {"name":"setup","resources":{"requests":{"cpu":"2"}}}],
                "containers":[{"name":"a","resources":{"requests":{"cpu":"1"}}}]""");
        assertEquals(3000, sidecar.requests().milliCpu, "setup runs beside the sidecar: 2 + 1");
    }

    @Test
    @DisplayName("NodeResourcesFit: what bound Pods request is taken from allocatable; each short resource is a reason")
    void resources() {
        NodeInfo n = node("n1", "2", "4Gi", "a", "");
        n.addPod(pod("bound", "", containers("1500m", "1Gi")));
        PodInfo p = pod("p", "", """
                "containers":[{"name":"a","resources":{"requests":{"cpu":"1","memory":"4Gi","example.com/gpu":"2"}}}]""");
        Rejection r = filter(cycle(p, n)).get("n1");
        assertEquals(List.of("Insufficient cpu", "Insufficient memory", "Insufficient example.com/gpu"), r.reasons());
        assertEquals(false, r.unresolvable());
        assertNull(filter(cycle(pod("small", "", containers("500m", "1Gi")), n)).get("n1"));
    }

    @Test
    @DisplayName("NodeResourcesFit: a Node at its pods allocatable says Too many pods")
    void tooManyPods() {
        NodeInfo n = new NodeInfo("full");
        n.setNode(Fixtures.json("""
                {"metadata":{"name":"full"},"status":{"allocatable":{"cpu":"4","memory":"4Gi","pods":"1"}}}"""));
        n.addPod(pod("a", "", ""));
        assertEquals(List.of("Too many pods"), filter(cycle(pod("b", "", ""), n)).get("full").reasons());
    }

    @Test
    @DisplayName("TaintToleration: an untolerated NoSchedule taint is named with its key and value; Exists tolerates")
    void taints() {
        NodeInfo n = node("n1", "4", "8Gi", "a", """
                "taints":[{"key":"dedicated","value":"gpu","effect":"NoSchedule"}]""");
        Rejection r = filter(cycle(pod("p", "", ""), n)).get("n1");
        assertEquals(List.of("node(s) had untolerated taint {dedicated: gpu}"), r.reasons());
        assertTrue(r.unresolvable());
        assertNull(filter(cycle(pod("t", "", """
                "tolerations":[{"key":"dedicated","operator":"Exists"}]"""), n)).get("n1"));
        assertNull(filter(cycle(pod("v", "", """
                "tolerations":[{"key":"dedicated","value":"gpu","effect":"NoSchedule"}]"""), n)).get("n1"));
    }

    @Test
    @DisplayName("NodeUnschedulable: a cordoned Node, unless the Pod tolerates node.kubernetes.io/unschedulable")
    void cordoned() {
        NodeInfo n = node("n1", "4", "8Gi", "a", "\"unschedulable\":true");
        assertEquals(List.of(NodeUnschedulable.REASON), filter(cycle(pod("p", "", ""), n)).get("n1").reasons());
        assertNull(filter(cycle(pod("t", "", """
                "tolerations":[{"key":"node.kubernetes.io/unschedulable","operator":"Exists","effect":"NoSchedule"}]"""),
                n)).get("n1"));
    }

    @Test
    @DisplayName("NodeAffinity: nodeSelector, matchExpressions (any term) and matchFields on metadata.name")
    void nodeAffinity() {
        NodeInfo a = node("a", "4", "8Gi", "z1", "");
        NodeInfo b = node("b", "4", "8Gi", "z2", "");
        assertEquals(List.of("b"), fitting(cycle(pod("p", "", """
                "nodeSelector":{"topology.kubernetes.io/zone":"z2"}"""), a, b)));
        assertEquals(List.of("a"), fitting(cycle(pod("q", "", """
                "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
                  {"matchExpressions":[{"key":"topology.kubernetes.io/zone","operator":"NotIn","values":["z2"]}]}]}}}"""),
                a, b)));
        assertEquals(List.of("b"), fitting(cycle(pod("r", "", """
                "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
                  {"matchFields":[{"key":"metadata.name","operator":"In","values":["b"]}]}]}}}"""), a, b)));
        assertEquals(List.of(NodeAffinity.REASON), filter(cycle(pod("s", "", """
                "nodeSelector":{"disk":"ssd"}"""), a)).get("a").reasons());
    }

    @Test
    @DisplayName("NodePorts: a host port taken on the Node (same protocol, wildcard IP) turns it down")
    void ports() {
        NodeInfo n = node("n1");
        n.addPod(pod("web", "", "\"containers\":[{\"name\":\"c\",\"ports\":[{\"containerPort\":80,\"hostPort\":8080}]}]"));
        assertEquals(List.of(NodePorts.REASON), filter(cycle(pod("p", "",
                "\"containers\":[{\"name\":\"c\",\"ports\":[{\"containerPort\":80,\"hostPort\":8080,\"hostIP\":\"10.0.0.1\"}]}]"),
                n)).get("n1").reasons());
        assertNull(filter(cycle(pod("u", "",
                "\"containers\":[{\"name\":\"c\",\"ports\":[{\"containerPort\":80,\"hostPort\":8080,\"protocol\":\"UDP\"}]}]"),
                n)).get("n1"));
    }

    @Test
    @DisplayName("InterPodAffinity: required anti-affinity per hostname, existing Pods' anti-affinity, the first of an affinity group")
    void podAffinity() {
        NodeInfo a = node("a");
        NodeInfo b = node("b");
        a.addPod(pod("web-1", "\"app\":\"web\"", ""));
        String anti = """
                "affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
                  {"labelSelector":{"matchLabels":{"app":"web"}},"topologyKey":"kubernetes.io/hostname"}]}}""";
        var rejected = filter(cycle(pod("web-2", "\"app\":\"web\"", anti), a, b));
        assertEquals(List.of(InterPodAffinity.ANTI), rejected.get("a").reasons());
        assertNull(rejected.get("b"));

        assertEquals(List.of(InterPodAffinity.ANTI), filter(cycle(pod("web-9", "\"app\":\"web\"", anti), a)).get("a")
                .reasons(), "its own anti-affinity is told before web-1's (kube's order)");
        a.addPod(pod("web-0", "\"app\":\"web\"", anti));
        assertEquals(List.of(InterPodAffinity.ANTI), filter(cycle(pod("web-8", "\"app\":\"web\"", anti), a)).get("a")
                .reasons());
        NodeInfo c = node("c");
        c.addPod(pod("guard", "", anti));
        assertEquals(List.of(InterPodAffinity.EXISTING_ANTI),
                filter(cycle(pod("web-3", "\"app\":\"web\"", ""), c)).get("c").reasons());

        String affinity = """
                "affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
                  {"labelSelector":{"matchLabels":{"app":"cache"}},"topologyKey":"topology.kubernetes.io/zone"}]}}""";
        NodeInfo d = node("d", "4", "8Gi", "z9", "");
        assertEquals(List.of("a", "d"), fitting(cycle(pod("cache-1", "\"app\":\"cache\"", affinity), a, d)),
                "no Pod matches anywhere: the first of the group goes anywhere");
        d.addPod(pod("cache-1", "\"app\":\"cache\"", ""));
        var second = filter(cycle(pod("cache-2", "\"app\":\"cache\"", affinity), a, d));
        assertEquals(List.of(InterPodAffinity.AFFINITY), second.get("a").reasons());
        assertNull(second.get("d"));
    }

    @Test
    @DisplayName("PodTopologySpread: maxSkew over zones, and a Node without the key is missing the required label")
    void spread() {
        NodeInfo a = node("a", "4", "8Gi", "z1", "");
        NodeInfo b = node("b", "4", "8Gi", "z2", "");
        NodeInfo bare = new NodeInfo("bare");
        bare.setNode(Fixtures.json("""
                {"metadata":{"name":"bare"},"status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"}}}"""));
        a.addPod(pod("w1", "\"app\":\"w\"", ""));
        String spec = """
                "topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone",
                  "whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"w"}}}]""";
        var result = filter(cycle(pod("w2", "\"app\":\"w\"", spec), a, b, bare));
        assertEquals(List.of(PodTopologySpread.REASON), result.get("a").reasons());
        assertNull(result.get("b"));
        assertEquals(List.of(PodTopologySpread.MISSING), result.get("bare").reasons());
        assertTrue(result.get("bare").unresolvable());
    }
}
