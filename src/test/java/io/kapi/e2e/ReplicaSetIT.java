package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The replicaset and replicationcontroller controllers ({@code --controllers=*}) with the real kubectl: Pods
 * from the template, owned and named as kube names them, scaled both ways, status counted from the Pods as
 * they are (Pending: no kubelet), events as kube words them; under RBAC, so the controllers act with kube's
 * bootstrap roles.
 */
@DisplayName("replicaset controller")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class ReplicaSetIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--controllers=*", "--authorization-mode=Node,RBAC");

    static final Await WAIT = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(100));
    private static final String NS = "e2e-rs";

    @BeforeAll
    static void namespace() {
        kubectl("create", "namespace", NS).assertOk();
    }

    static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().run(args);
    }

    static String get(String what, String jsonpath) {
        return KAPI.kubectl().jsonpath(NS, what, jsonpath);
    }

    static List<String> pods(String selector) {
        String out = kubectl("get", "pods", "-n", NS, "-l", selector, "-o",
                "jsonpath={.items[*].metadata.name}").assertOk().stdout().strip();
        return out.isEmpty() ? List.of() : List.of(out.split(" "));
    }

    private static void replicaSet(String name, int replicas) {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"%s"},"spec":{"replicas":%d,\
                "selector":{"matchLabels":{"app":"%s"}},"template":{"metadata":{"labels":{"app":"%s","tier":"web"}},\
                "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}""".formatted(name, replicas, name, name),
                "create", "-n", NS, "-f", "-").assertOk();
    }

    /** Marks {@code pod} Ready with {@code ip} through its status subresource, as a kubelet would. */
    static void markReady(String pod, String ip) {
        kubectl("patch", "pod", pod, "-n", NS, "--subresource=status", "--type=merge", "-p", """
                {"status":{"phase":"Running","podIP":"%s","podIPs":[{"ip":"%s"}],"conditions":[{"type":"Ready",\
                "status":"True","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}""".formatted(ip, ip)).assertOk();
    }

    @Test
    @DisplayName("a ReplicaSet of 3 gets 3 Pods named <rs>-<random>, controlled by it, with the template's labels")
    void createsPods() throws InterruptedException {
        replicaSet("three", 3);
        WAIT.until("3 pods", () -> pods("app=three").size() == 3);
        String uid = get("replicaset/three", "{.metadata.uid}");
        for (String pod : pods("app=three")) {
            assertTrue(pod.matches("three-[bcdfghjklmnpqrstvwxz2456789]{5}"), pod);
            assertEquals("ReplicaSet/three/" + uid + "/true/true", get("pod/" + pod,
                    "{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}/"
                            + "{.metadata.ownerReferences[0].uid}/{.metadata.ownerReferences[0].controller}/"
                            + "{.metadata.ownerReferences[0].blockOwnerDeletion}"));
            assertEquals("web", get("pod/" + pod, "{.metadata.labels.tier}"));
        }
        WAIT.until("status replicas 3, none ready", () -> get("replicaset/three",
                "{.status.replicas}/{.status.fullyLabeledReplicas}/{.status.readyReplicas}/{.status.observedGeneration}")
                .equals("3/3//1"));
        Thread.sleep(500);
        assertEquals(3, pods("app=three").size(), "never more Pods than replicas");
        String events = kubectl("get", "events", "-n", NS, "--field-selector", "involvedObject.name=three", "-o",
                "jsonpath={range .items[*]}{.reason} {.source.component} {.message}{\"\\n\"}{end}").assertOk().stdout();
        assertTrue(events.matches("(?s)(SuccessfulCreate replicaset-controller Created pod: three-\\w{5}\\n){3}"), events);
    }

    @Test
    @DisplayName("readyReplicas and availableReplicas follow the Pods' Ready condition")
    void readiness() throws InterruptedException {
        replicaSet("ready", 2);
        WAIT.until("2 pods", () -> pods("app=ready").size() == 2);
        markReady(pods("app=ready").getFirst(), "10.244.0.5");
        WAIT.until("one ready and available", () -> get("replicaset/ready",
                "{.status.readyReplicas}/{.status.availableReplicas}").equals("1/1"));
    }

    @Test
    @DisplayName("kubectl scale down deletes the Pods not ready first, with SuccessfulDelete events; up creates again")
    void scale() throws InterruptedException {
        replicaSet("scaled", 3);
        WAIT.until("3 pods", () -> pods("app=scaled").size() == 3);
        String keep = pods("app=scaled").getFirst();
        markReady(keep, "10.244.0.6");
        kubectl("scale", "replicaset/scaled", "-n", NS, "--replicas=1").assertOk();
        WAIT.until("1 pod", () -> pods("app=scaled").size() == 1);
        assertEquals(List.of(keep), pods("app=scaled"), "the ready Pod is kept");
        WAIT.until("2 SuccessfulDelete events", () -> kubectl("get", "events", "-n", NS, "--field-selector",
                "involvedObject.name=scaled,reason=SuccessfulDelete", "-o", "name").assertOk().stdout().lines().count() == 2);
        kubectl("scale", "replicaset/scaled", "-n", NS, "--replicas=4").assertOk();
        WAIT.until("4 pods", () -> pods("app=scaled").size() == 4);
    }

    @Test
    @DisplayName("an orphan Pod the selector matches is adopted; a Pod relabelled out is released and replaced")
    void adoptAndRelease() throws InterruptedException {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"orphan","labels":{"app":"adopt"}},\
                "spec":{"containers":[{"name":"c","image":"nginx"}]}}""", "create", "-n", NS, "-f", "-").assertOk();
        replicaSet("adopt", 2);
        WAIT.until("2 pods", () -> pods("app=adopt").size() == 2);
        WAIT.until("orphan adopted", () -> get("pod/orphan", "{.metadata.ownerReferences[0].name}").equals("adopt"));
        kubectl("label", "pod", "orphan", "-n", NS, "app=gone", "--overwrite").assertOk();
        WAIT.until("orphan released", () -> get("pod/orphan", "{.metadata.ownerReferences}").isEmpty());
        WAIT.until("replaced", () -> pods("app=adopt").size() == 2);
    }

    @Test
    @DisplayName("a ReplicationController gets its Pods the same way, with the replication-controller's events")
    void replicationController() throws InterruptedException {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"rc"},"spec":{"replicas":2,\
                "selector":{"app":"rc"},"template":{"metadata":{"labels":{"app":"rc"}},\
                "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}""", "create", "-n", NS, "-f", "-").assertOk();
        WAIT.until("2 pods", () -> pods("app=rc").size() == 2);
        assertEquals("ReplicationController", get("pod/" + pods("app=rc").getFirst(), "{.metadata.ownerReferences[0].kind}"));
        WAIT.until("status", () -> get("rc/rc", "{.status.replicas}/{.status.fullyLabeledReplicas}").equals("2/2"));
        WAIT.until("events", () -> get("events", "{.items[?(@.involvedObject.name==\"rc\")].source.component}")
                .equals("replication-controller replication-controller"));
        kubectl("scale", "rc/rc", "-n", NS, "--replicas=0").assertOk();
        WAIT.until("no pod", () -> pods("app=rc").isEmpty());
    }
}
