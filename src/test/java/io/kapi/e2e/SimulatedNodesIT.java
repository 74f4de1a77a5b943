package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --simulated-nodes=3} under Node,RBAC and NodeRestriction, with kubectl: nodes registered Ready by
 * their kubelets (as {@code system:node:<name>}) and renewing their Leases; Pods given a {@code nodeName}
 * run, become Ready (readiness gates honoured), finish when told, and go away gracefully; a node cannot
 * touch another's objects; logs answer that no container runs; with the workload controllers, a Deployment
 * pinned to a node rolls out and a Job pinned to one completes (no scheduler here: Pods name their node).
 */
@DisplayName("simulated nodes and kubelets")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
final class SimulatedNodesIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--simulated-nodes=3", "--controllers=*", "--authorization-mode=Node,RBAC",
            "--enable-admission-plugins=NodeRestriction");

    static final Await WAIT = Await.atMost(Duration.ofSeconds(20)).every(Duration.ofMillis(100));
    private static final String NS = "e2e-sim";

    @BeforeAll
    static void namespace() {
        kubectl("create", "namespace", NS).assertOk();
    }

    static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().run(args);
    }

    static void pod(String name, String node, String annotations, String spec) {
        String json = """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","annotations":{%s}},"spec":{"nodeName":"%s",%s\
                "containers":[{"name":"c","image":"nginx"}]}}""".formatted(name, annotations, node, spec);
        KAPI.kubectl().runWithInput(json, "create", "-n", NS, "-f", "-").assertOk();
    }

    static JsonNode get(String what) {
        return kubectl("get", what, "-n", NS, "-o", "json").json();
    }

    @Test
    @DisplayName("the nodes are Ready, with kubelet's labels, addresses and Pod CIDRs, and renew their Leases")
    void nodesReady() {
        kubectl("wait", "--for=condition=Ready", "node", "--all", "--timeout=20s").assertOk();
        JsonNode node = kubectl("get", "node", "kapi-node-1", "-o", "json", "--show-managed-fields").json();
        assertEquals("kapi-node-1", node.path("metadata").path("labels").path("kubernetes.io/hostname").asText());
        assertEquals("kapi-zone-b", node.path("metadata").path("labels").path("topology.kubernetes.io/zone").asText());
        assertEquals("10.244.1.0/24", node.path("spec").path("podCIDR").asText());
        assertTrue(node.path("spec").path("taints").isMissingNode(), "the not-ready taint is gone: " + node);
        assertEquals("KubeletReady", node.path("status").path("conditions").get(3).path("reason").asText());
        assertEquals("110", node.path("status").path("allocatable").path("pods").asText());
        assertEquals("kubelet", node.path("metadata").path("managedFields").get(0).path("manager").asText());
        String first = kubectl("get", "lease", "kapi-node-1", "-n", "kube-node-lease", "-o",
                "jsonpath={.spec.renewTime}").assertOk().stdout();
        Await.atMost(Duration.ofSeconds(15)).every(Duration.ofMillis(500)).until("the lease is renewed",
                () -> !kubectl("get", "lease", "kapi-node-1", "-n", "kube-node-lease", "-o",
                        "jsonpath={.spec.renewTime}").assertOk().stdout().equals(first));
    }

    @Test
    @DisplayName("a Node created with KWOK's annotation is taken over: Pod CIDR, Ready, Lease; a Pod on it runs")
    void adoption() {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"v1","kind":"Node","metadata":{"name":"extra","annotations":{"kwok.x-k8s.io/node":"fake"}},\
                "status":{"capacity":{"cpu":"2","memory":"4Gi","pods":"10"}}}""", "create", "-f", "-").assertOk();
        kubectl("wait", "--for=condition=Ready", "node/extra", "--timeout=20s").assertOk();
        WAIT.until("the node's Lease", () -> kubectl("get", "lease", "extra", "-n", "kube-node-lease").exitCode() == 0);
        JsonNode node = kubectl("get", "node", "extra", "-o", "json").json();
        assertEquals("10.244.3.0/24", node.path("spec").path("podCIDR").asText());
        assertEquals("extra", node.path("metadata").path("labels").path("kubernetes.io/hostname").asText());
        pod("on-extra", "extra", "", "");
        kubectl("wait", "--for=condition=Ready", "pod/on-extra", "-n", NS, "--timeout=20s").assertOk();
        kubectl("delete", "pod", "on-extra", "-n", NS, "--timeout=20s").assertOk();
        kubectl("delete", "node", "extra").assertOk();
    }

    @Test
    @DisplayName("a Pod asking for more than its node's allocatable is rejected as kubelet rejects it")
    void outOfCpu() {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"greedy"},"spec":{"nodeName":"kapi-node-2",\
                "containers":[{"name":"c","image":"nginx","resources":{"requests":{"cpu":"5"}}}]}}""",
                "create", "-n", NS, "-f", "-").assertOk();
        kubectl("wait", "--for=jsonpath={.status.phase}=Failed", "pod/greedy", "-n", NS, "--timeout=20s").assertOk();
        JsonNode status = get("pod/greedy").path("status");
        assertEquals("OutOfcpu Pod was rejected: Node didn't have enough resource: cpu, requested: 5000, used: 0, "
                + "capacity: 4000", status.path("reason").asText() + " " + status.path("message").asText());
    }

    @Test
    @DisplayName("with the workload controllers: a Deployment pinned to a node rolls out, a Job pinned to one completes")
    void workloads() {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3,\
                "selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},\
                "spec":{"nodeName":"kapi-node-1","containers":[{"name":"c","image":"nginx"}]}}}}""",
                "create", "-n", NS, "-f", "-").assertOk();
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"batch"},"spec":{"completions":2,\
                "template":{"spec":{"nodeName":"kapi-node-2","restartPolicy":"Never",\
                "containers":[{"name":"c","image":"busybox"}]}}}}""", "create", "-n", NS, "-f", "-").assertOk();
        kubectl("rollout", "status", "deployment/web", "-n", NS, "--timeout=30s").assertOk();
        kubectl("wait", "--for=condition=Complete", "job/batch", "-n", NS, "--timeout=30s").assertOk();
        assertEquals("3", kubectl("get", "deployment", "web", "-n", NS, "-o", "jsonpath={.status.availableReplicas}")
                .assertOk().stdout().strip());
    }

    @Test
    @DisplayName("a Pod bound to a node runs and becomes Ready, with kubelet's statuses and an IP of the node's CIDR")
    void podRuns() {
        pod("web", "kapi-node-0", "", "");
        kubectl("wait", "--for=condition=Ready", "pod/web", "-n", NS, "--timeout=20s").assertOk();
        JsonNode status = get("pod/web").path("status");
        assertEquals("Running", status.path("phase").asText());
        assertTrue(status.path("podIP").asText().startsWith("10.244.0."), status.toString());
        assertEquals("172.18.0.2", status.path("hostIP").asText());
        JsonNode c = status.path("containerStatuses").get(0);
        assertEquals("docker.io/library/nginx:latest", c.path("image").asText());
        assertTrue(c.path("containerID").asText().startsWith("containerd://"), c.toString());
        assertTrue(c.path("state").path("running").has("startedAt"), c.toString());
        assertEquals("PodReadyToStartContainers,Initialized,Ready,ContainersReady,PodScheduled",
                types(status.path("conditions")));

        var logs = kubectl("logs", "web", "-n", NS).assertFailed();
        assertTrue(logs.stderr().contains("container runtime is down: node \"kapi-node-0\" is simulated by Kapi"),
                logs.toString());
    }

    @Test
    @DisplayName("a Pod told to run for a second with restartPolicy Never Succeeds; one told to exit 1 Fails")
    void podsFinish() {
        pod("done", "kapi-node-1", "\"kapi.dev/simulate-run-for\":\"1s\"", "\"restartPolicy\":\"Never\",");
        pod("broken", "kapi-node-2", "\"kapi.dev/simulate-run-for\":\"1s\",\"kapi.dev/simulate-exit-code\":\"1\"",
                "\"restartPolicy\":\"Never\",");
        kubectl("wait", "--for=jsonpath={.status.phase}=Succeeded", "pod/done", "-n", NS, "--timeout=20s").assertOk();
        kubectl("wait", "--for=jsonpath={.status.phase}=Failed", "pod/broken", "-n", NS, "--timeout=20s").assertOk();
        JsonNode t = get("pod/done").path("status").path("containerStatuses").get(0).path("state").path("terminated");
        assertEquals("0 Completed", t.path("exitCode").asText() + " " + t.path("reason").asText());
        t = get("pod/broken").path("status").path("containerStatuses").get(0).path("state").path("terminated");
        assertEquals("1 Error", t.path("exitCode").asText() + " " + t.path("reason").asText());
    }

    @Test
    @DisplayName("a Pod with a readiness gate stays not Ready until its condition is True")
    void readinessGate() {
        pod("gated", "kapi-node-1", "", "\"readinessGates\":[{\"conditionType\":\"example.com/gate\"}],");
        kubectl("wait", "--for=condition=ContainersReady", "pod/gated", "-n", NS, "--timeout=20s").assertOk();
        JsonNode ready = condition(get("pod/gated"), "Ready");
        assertEquals("False ReadinessGatesNotReady corresponding condition of pod readiness gate \"example.com/gate\" "
                + "does not exist.", ready.path("status").asText() + " " + ready.path("reason").asText() + " "
                + ready.path("message").asText());
        kubectl("patch", "pod", "gated", "-n", NS, "--subresource=status", "--type=strategic", "-p",
                "{\"status\":{\"conditions\":[{\"type\":\"example.com/gate\",\"status\":\"True\"}]}}").assertOk();
        kubectl("wait", "--for=condition=Ready", "pod/gated", "-n", NS, "--timeout=20s").assertOk();
    }

    @Test
    @DisplayName("a deleted Pod's containers stop and its kubelet removes it")
    void gracefulDeletion() {
        pod("leaving", "kapi-node-2", "", "");
        kubectl("wait", "--for=condition=Ready", "pod/leaving", "-n", NS, "--timeout=20s").assertOk();
        long start = System.nanoTime();
        kubectl("delete", "pod", "leaving", "-n", NS, "--timeout=20s").assertOk();
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "deleted within 10 s");
        kubectl("get", "pod", "leaving", "-n", NS).assertFailed();
    }

    @Test
    @DisplayName("a node cannot change another node's Node, Lease or Pods (NodeRestriction, Node authorizer)")
    void nodeRestriction() {
        pod("victim", "kapi-node-0", "", "");
        kubectl("wait", "--for=condition=Ready", "pod/victim", "-n", NS, "--timeout=20s").assertOk();
        String[] as = {"--as=system:node:kapi-node-1", "--as-group=system:nodes"};
        var read = kubectl(concat(as, "patch", "node", "kapi-node-0", "--type=merge", "-p",
                "{\"metadata\":{\"labels\":{\"node.kubernetes.io/pool\":\"a\"}}}")).assertFailed();
        assertTrue(read.stderr().contains("node 'kapi-node-1' cannot read 'kapi-node-0', only its own Node object"),
                read.toString());
        var write = KAPI.kubectl().runWithInput("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":"
                + "\"kapi-node-0\"}}", concat(as, "create", "--raw", "/api/v1/nodes", "-f", "-")).assertFailed();
        assertTrue(write.stderr().contains("node \\\"kapi-node-1\\\" is not allowed to modify node \\\"kapi-node-0\\\"")
                || write.stderr().contains("node \"kapi-node-1\" is not allowed to modify node \"kapi-node-0\""),
                write.toString());
        var lease = kubectl(concat(as, "patch", "lease", "kapi-node-0", "-n", "kube-node-lease", "--type=merge",
                "-p", "{\"spec\":{\"holderIdentity\":\"kapi-node-1\"}}")).assertFailed();
        assertTrue(lease.stderr().contains("Forbidden"), lease.toString());
        var pod = kubectl(concat(as, "patch", "pod", "victim", "-n", NS, "--subresource=status", "--type=merge",
                "-p", "{\"status\":{\"phase\":\"Failed\"}}")).assertFailed();
        assertTrue(pod.stderr().contains("Forbidden") || pod.stderr().contains("forbidden"), pod.toString());
        kubectl(concat(as, "patch", "node", "kapi-node-1", "--type=merge", "-p",
                "{\"metadata\":{\"labels\":{\"node.kubernetes.io/pool\":\"a\"}}}")).assertOk();
    }

    private static String[] concat(String[] first, String... rest) {
        String[] all = new String[first.length + rest.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(rest, 0, all, first.length, rest.length);
        return all;
    }

    private static JsonNode condition(JsonNode pod, String type) {
        for (JsonNode c : pod.path("status").path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private static String types(JsonNode conditions) {
        StringBuilder b = new StringBuilder();
        conditions.forEach(c -> b.append(b.isEmpty() ? "" : ",").append(c.path("type").asText()));
        return b.toString();
    }
}
