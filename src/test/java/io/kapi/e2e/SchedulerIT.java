package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kapi's scheduler ({@code --scheduler=true}) with the real kubectl, no kubelet: three Nodes the admin
 * creates (Ready, 2 CPUs each, one per zone, the third tainted {@code dedicated=gpu:NoSchedule}); Pods
 * bound by nodeSelector, taints, requests, anti-affinity and spread; an unschedulable Pod's condition and
 * event as kube-scheduler 1.34 words them; preemption; another scheduler's Pod left alone; and what
 * system:kube-scheduler may not do. Each test's Pods are force-deleted after it (no kubelet finishes them).
 */
@DisplayName("scheduler")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
final class SchedulerIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--scheduler=true", "--authorization-mode=Node,RBAC");

    private static final Await WAIT = Await.atMost(Duration.ofSeconds(20)).every(Duration.ofMillis(50));
    private static final String NS = "e2e-sched";

    @BeforeAll
    static void cluster() {
        KAPI.kubectl().run("create", "namespace", NS).assertOk();
        node("n1", "z1", "\"disk\":\"ssd\"", "[]");
        node("n2", "z2", "\"disk\":\"hdd\"", "[]");
        node("n3", "z3", "\"disk\":\"hdd\"", "[{\"key\":\"dedicated\",\"value\":\"gpu\",\"effect\":\"NoSchedule\"}]");
    }

    /** A Node as a kubelet would have registered it: labels, taints, then Ready with 2 CPUs, 4Gi, 110 pods. */
    private static void node(String name, String zone, String labels, String taints) {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"v1","kind":"Node","metadata":{"name":"%s","labels":{"kubernetes.io/hostname":"%s",\
                "topology.kubernetes.io/zone":"%s",%s}},"spec":{"taints":%s}}"""
                .formatted(name, name, zone, labels, taints), "create", "-f", "-").assertOk();
        KAPI.kubectl().run("patch", "node", name, "--subresource=status", "--type=merge", "-p", """
                {"status":{"capacity":{"cpu":"2","memory":"4Gi","pods":"110"},\
                "allocatable":{"cpu":"2","memory":"4Gi","pods":"110"},\
                "conditions":[{"type":"Ready","status":"True","reason":"KubeletReady","message":"kubelet is posting ready status",\
                "lastHeartbeatTime":"2026-01-01T00:00:00Z","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}""").assertOk();
        KAPI.kubectl().run("taint", "node", name, "node.kubernetes.io/not-ready:NoSchedule-");
    }

    @AfterEach
    void cleanUp() {
        kubectl("delete", "pods", "--all", "--grace-period=0", "--force").assertOk();
    }

    private static Kubectl.Result kubectl(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "-n";
        all[args.length + 1] = NS;
        return KAPI.kubectl().run(all);
    }

    /** A Pod with {@code spec} members beside its one container (requesting {@code cpu}). */
    private static void pod(String name, String labels, String cpu, String spec) {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","labels":{%s}},"spec":{%s\
                "containers":[{"name":"c","image":"nginx","resources":{"requests":{"cpu":"%s"}}}]}}"""
                .formatted(name, labels, spec.isEmpty() ? "" : spec + ",", cpu), "create", "-n", NS, "-f", "-").assertOk();
    }

    private static String get(String pod, String jsonpath) {
        return kubectl("get", "pod", pod, "-o", "jsonpath=" + jsonpath).assertOk().stdout().strip();
    }

    private static String boundNode(String pod) {
        String[] node = new String[1];
        WAIT.until(pod + " bound", () -> !(node[0] = get(pod, "{.spec.nodeName}")).isEmpty());
        return node[0];
    }

    @Test
    @DisplayName("nodeSelector, a tolerated taint and requests choose the Node; Scheduled is recorded as kube-scheduler does")
    void placement() {
        pod("ssd", "", "100m", "\"nodeSelector\":{\"disk\":\"ssd\"}");
        pod("gpu", "", "100m", """
                "nodeSelector":{"topology.kubernetes.io/zone":"z3"},\
                "tolerations":[{"key":"dedicated","operator":"Equal","value":"gpu","effect":"NoSchedule"}]""");
        assertEquals("n1", boundNode("ssd"));
        assertEquals("n3", boundNode("gpu"));
        assertEquals("True", get("ssd", "{.status.conditions[?(@.type==\"PodScheduled\")].status}"));
        WAIT.until("the Scheduled event", () -> kubectl("get", "events", "--field-selector",
                "involvedObject.name=ssd,reason=Scheduled", "-o", "jsonpath={.items[*].message}").assertOk().stdout()
                .contains("Successfully assigned e2e-sched/ssd to n1"));
        String event = KAPI.kubectl().run("get", "events.v1.events.k8s.io", "-n", NS, "--field-selector",
                "regarding.name=ssd", "-o", "jsonpath={.items[0].reportingController}/{.items[0].action}").assertOk()
                .stdout();
        assertEquals("default-scheduler/Binding", event);

        pod("big-1", "", "1500m", "");
        pod("big-2", "", "1500m", "");
        assertNotEquals(boundNode("big-1"), boundNode("big-2"), "1500m each, 2 CPUs per Node");
        Set<String> nodes = new TreeSet<>(Set.of(boundNode("big-1"), boundNode("big-2")));
        assertEquals(Set.of("n1", "n2"), nodes, "n3's taint is not tolerated");
    }

    @Test
    @DisplayName("required anti-affinity per hostname and a zone spread constraint put the Pods on different Nodes")
    void affinityAndSpread() {
        String anti = """
                "affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[\
                {"labelSelector":{"matchLabels":{"app":"anti"}},"topologyKey":"kubernetes.io/hostname"}]}}""";
        pod("anti-1", "\"app\":\"anti\"", "10m", anti);
        pod("anti-2", "\"app\":\"anti\"", "10m", anti);
        assertNotEquals(boundNode("anti-1"), boundNode("anti-2"));
        pod("anti-3", "\"app\":\"anti\"", "10m", anti);
        WAIT.until("anti-3 unschedulable", () -> get("anti-3", "{.status.conditions[?(@.type==\"PodScheduled\")].message}")
                .startsWith("0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, "
                        + "2 node(s) didn't match pod anti-affinity rules."));

        String affinity = """
                "affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[\
                {"labelSelector":{"matchLabels":{"app":"db"}},"topologyKey":"topology.kubernetes.io/zone"}]}}""";
        pod("follower", "\"app\":\"web\"", "10m", affinity);
        WAIT.until("follower waits for its db", () -> get("follower",
                "{.status.conditions[?(@.type==\"PodScheduled\")].reason}").equals("Unschedulable"));
        pod("db", "\"app\":\"db\"", "10m", "\"nodeSelector\":{\"topology.kubernetes.io/zone\":\"z2\"}");
        assertEquals("n2", boundNode("db"));
        assertEquals("n2", boundNode("follower"), "moved on when db was bound, before its backoff ran out");

        String spread = """
                "tolerations":[{"key":"dedicated","operator":"Exists"}],\
                "topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone",\
                "whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"spread"}}}]""";
        Set<String> zones = new TreeSet<>();
        for (int i = 1; i <= 3; i++) {
            pod("spread-" + i, "\"app\":\"spread\"", "10m", spread);
            zones.add(boundNode("spread-" + i)); // one at a time: each sees the ones before
        }
        assertEquals(Set.of("n1", "n2", "n3"), zones);
    }

    @Test
    @DisplayName("a Pod no Node fits: PodScheduled=False Unschedulable and a FailedScheduling event, worded as kube's")
    void unschedulable() {
        pod("huge", "", "3", "");
        String expected = "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu. "
                + "no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful "
                + "for scheduling, 2 No preemption victims found for incoming pod.";
        WAIT.until("the condition", () -> expected.equals(
                get("huge", "{.status.conditions[?(@.type==\"PodScheduled\")].message}")));
        assertEquals("False/Unschedulable", get("huge",
                "{.status.conditions[?(@.type==\"PodScheduled\")].status}/{.status.conditions[?(@.type==\"PodScheduled\")].reason}"));
        WAIT.until("the event", () -> kubectl("describe", "pod", "huge").assertOk().stdout().contains("FailedScheduling"));
        String described = kubectl("describe", "pod", "huge").assertOk().stdout();
        assertTrue(described.contains("default-scheduler"), described);
        assertTrue(described.replaceAll("\\s+", " ").contains(expected), described);
        assertTrue(described.contains("PodScheduled      False") || described.contains("PodScheduled   False")
                || described.matches("(?s).*PodScheduled\\s+False.*"), described);
    }

    @Test
    @DisplayName("a higher-priority Pod preempts a lower one: DisruptionTarget, deletion, nominatedNodeName, then bound")
    void preemption() {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"e2e-high"},"value":1000}""",
                "apply", "-f", "-").assertOk();
        pod("low", "", "1500m", "\"nodeSelector\":{\"disk\":\"ssd\"}");
        assertEquals("n1", boundNode("low"));
        pod("high", "", "1500m", "\"nodeSelector\":{\"disk\":\"ssd\"},\"priorityClassName\":\"e2e-high\"");
        WAIT.until("the victim marked and deleted", () -> !get("low", "{.metadata.deletionTimestamp}").isEmpty());
        assertEquals("True/PreemptionByScheduler", get("low",
                "{.status.conditions[?(@.type==\"DisruptionTarget\")].status}/{.status.conditions[?(@.type==\"DisruptionTarget\")].reason}"));
        WAIT.until("nominated", () -> get("high", "{.status.nominatedNodeName}").equals("n1"));
        pod("sneaky", "", "1500m", "\"nodeSelector\":{\"disk\":\"ssd\"}"); // no priority: must not take the room
        kubectl("delete", "pod", "low", "--grace-period=0", "--force").assertOk(); // the kubelet would finish it
        assertEquals("n1", boundNode("high"));
        WAIT.until("sneaky unschedulable", () -> get("sneaky",
                "{.status.conditions[?(@.type==\"PodScheduled\")].reason}").equals("Unschedulable"));
        assertEquals("", get("sneaky", "{.spec.nodeName}"));
    }

    @Test
    @DisplayName("a Pod naming another scheduler stays Pending, untouched")
    void otherScheduler() throws InterruptedException {
        pod("mine", "", "10m", "\"schedulerName\":\"my-scheduler\"");
        pod("probe", "", "10m", "");
        boundNode("probe"); // the scheduler has had its chance
        Thread.sleep(500);
        assertEquals("", get("mine", "{.spec.nodeName}"));
        assertEquals("", get("mine", "{.status.conditions}"));
    }

    @Test
    @DisplayName("system:kube-scheduler binds only through pods/binding: it may not set nodeName, create Pods or change Nodes")
    void identity() {
        pod("target", "", "10m", "\"schedulerName\":\"my-scheduler\"");
        Kubectl.Result r = kubectl("patch", "pod", "target", "--as=system:kube-scheduler", "--type=merge", "-p",
                "{\"spec\":{\"nodeName\":\"n1\"}}").assertFailed();
        assertTrue(r.stderr().contains("Forbidden") || r.stderr().contains("forbidden"), r.stderr());
        for (String[] denied : new String[][] {{"update", "pods"}, {"create", "pods"}, {"patch", "nodes"},
                {"get", "secrets"}, {"delete", "nodes"}}) {
            assertEquals("no", KAPI.kubectl().run("auth", "can-i", denied[0], denied[1], "-n", NS,
                    "--as=system:kube-scheduler").stdout().strip(), String.join(" ", denied));
        }
        for (String[] allowed : new String[][] {{"create", "pods", "--subresource=binding"},
                {"patch", "pods", "--subresource=status"}, {"delete", "pods"}, {"create", "events.events.k8s.io"}}) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("auth", "can-i"));
            args.addAll(java.util.List.of(allowed));
            args.addAll(java.util.List.of("-n", NS, "--as=system:kube-scheduler"));
            assertEquals("yes", KAPI.kubectl().run(args.toArray(String[]::new)).stdout().strip(),
                    String.join(" ", allowed));
        }
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"v1","kind":"Binding","metadata":{"name":"target"},"target":{"kind":"Node","name":"n2"}}""",
                "create", "-n", NS, "--as=system:kube-scheduler", "--raw",
                "/api/v1/namespaces/" + NS + "/pods/target/binding", "-f", "-").assertOk();
        assertEquals("n2", get("target", "{.spec.nodeName}"));
    }
}
