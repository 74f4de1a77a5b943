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
 * The deployment controller with the replicaset controller ({@code --controllers=*}, under RBAC) and the
 * real kubectl: create, set image, rollout history and undo, scale. Pods stay Pending (no kubelet): the
 * test marks them Ready through the status subresource where a rollout has to go on.
 */
@DisplayName("deployment controller")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
final class DeploymentIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--controllers=*", "--authorization-mode=Node,RBAC");

    private static final Await WAIT = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(100));
    private static final String NS = "e2e-deploy";
    private static int nextIp = 10;

    @BeforeAll
    static void namespace() {
        kubectl("create", "namespace", NS).assertOk();
    }

    private static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().runIn(NS, args);
    }

    private static String get(String what, String jsonpath) {
        return KAPI.kubectl().jsonpath(NS, what, jsonpath);
    }

    private static List<String> names(String kind, String selector) {
        String out = kubectl("get", kind, "-l", selector, "-o", "jsonpath={.items[*].metadata.name}").assertOk()
                .stdout().strip();
        return out.isEmpty() ? List.of() : List.of(out.split(" "));
    }

    /**
     * Marks every Pod of {@code selector} not yet ready Ready, as a kubelet would; a Pod the controllers delete
     * meanwhile is passed over.
     */
    private static void markAllReady(String selector) {
        String listed = kubectl("get", "pods", "-l", selector, "-o", "jsonpath={range .items[*]}{.metadata.name} "
                + "{.status.conditions[?(@.type==\"Ready\")].status}{\"\\n\"}{end}").assertOk().stdout();
        for (String line : listed.strip().lines().toList()) {
            String[] fields = line.strip().split(" ");
            if (fields.length == 1 && !fields[0].isEmpty()) {
                String ip = "10.244.1." + (nextIp++);
                kubectl("patch", "pod", fields[0], "--subresource=status", "--type=merge", "-p", """
                        {"status":{"phase":"Running","podIP":"%s","podIPs":[{"ip":"%s"}],"conditions":[{"type":"Ready",\
                        "status":"True","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}""".formatted(ip, ip));
            }
        }
    }

    /** Marks the Pods Ready, as a kubelet would, until {@code condition} holds: a rollout goes step by step. */
    private static void readyUntil(String what, String selector, Await.Condition condition) {
        WAIT.until(what, () -> {
            markAllReady(selector);
            return condition.holds();
        });
    }

    @Test
    @DisplayName("kubectl create deployment --replicas=3 shows a ReplicaSet <deploy>-<hash> and 3 Pods; Available once ready")
    void create() throws InterruptedException {
        kubectl("create", "deployment", "web", "--image=nginx", "--replicas=3").assertOk();
        WAIT.until("one ReplicaSet", () -> names("rs", "app=web").size() == 1);
        String rs = names("rs", "app=web").getFirst();
        String hash = get("rs/" + rs, "{.metadata.labels.pod-template-hash}");
        assertTrue(hash.matches("[bcdfghjklmnpqrstvwxz2456789]{1,10}"), hash);
        assertEquals("web-" + hash, rs);
        assertEquals("1/3/4/" + hash, get("rs/" + rs, "{.metadata.annotations.deployment\\.kubernetes\\.io/revision}/"
                + "{.metadata.annotations.deployment\\.kubernetes\\.io/desired-replicas}/"
                + "{.metadata.annotations.deployment\\.kubernetes\\.io/max-replicas}/{.spec.selector.matchLabels.pod-template-hash}"));
        WAIT.until("3 pods", () -> names("pods", "app=web").size() == 3);
        for (String pod : names("pods", "app=web")) {
            assertTrue(pod.startsWith(rs + "-"), pod);
        }
        assertEquals("1", get("deploy/web", "{.metadata.annotations.deployment\\.kubernetes\\.io/revision}"));
        WAIT.until("status without availability", () -> get("deploy/web",
                "{.status.replicas}/{.status.updatedReplicas}/{.status.availableReplicas}/{.status.unavailableReplicas}/"
                        + "{.status.conditions[?(@.type==\"Available\")].reason}").equals("3/3//3/MinimumReplicasUnavailable"));
        assertEquals("ReplicaSetUpdated", get("deploy/web", "{.status.conditions[?(@.type==\"Progressing\")].reason}"));
        markAllReady("app=web");
        WAIT.until("available and complete", () -> get("deploy/web",
                "{.status.availableReplicas}/{.status.conditions[?(@.type==\"Available\")].reason}/"
                        + "{.status.conditions[?(@.type==\"Progressing\")].reason}")
                .equals("3/MinimumReplicasAvailable/NewReplicaSetAvailable"));
        assertTrue(kubectl("rollout", "status", "deployment/web", "--timeout=20s").assertOk().stdout()
                .contains("successfully rolled out"));
        String events = get("events", "{.items[?(@.involvedObject.name==\"web\")].message}");
        assertTrue(events.contains("Scaled up replica set " + rs + " from 0 to 3"), events);
    }

    @Test
    @DisplayName("set image makes a second ReplicaSet; rollout history lists both; undo goes back to the first")
    void rollout() throws InterruptedException {
        kubectl("create", "deployment", "roll", "--image=nginx:1.0", "--replicas=2").assertOk();
        WAIT.until("2 pods", () -> names("pods", "app=roll").size() == 2);
        markAllReady("app=roll");
        WAIT.until("complete", () -> get("deploy/roll", "{.status.availableReplicas}").equals("2"));
        String first = names("rs", "app=roll").getFirst();
        kubectl("set", "image", "deployment/roll", "nginx=nginx:2.0").assertOk();
        WAIT.until("a second ReplicaSet", () -> names("rs", "app=roll").size() == 2);
        String second = names("rs", "app=roll").stream().filter(n -> !n.equals(first)).findFirst().orElseThrow();
        assertEquals("nginx:2.0", get("rs/" + second, "{.spec.template.spec.containers[0].image}"));
        assertEquals("2", get("rs/" + second, "{.metadata.annotations.deployment\\.kubernetes\\.io/revision}"));
        readyUntil("the old ReplicaSet scaled to 0", "app=roll", () -> get("rs/" + first, "{.spec.replicas}").equals("0"));
        String history = kubectl("rollout", "history", "deployment/roll").assertOk().stdout();
        assertTrue(history.matches("(?s).*REVISION\\s+CHANGE-CAUSE\\s+1\\s+<none>\\s+2\\s+<none>.*"), history);
        markAllReady("app=roll");
        kubectl("rollout", "undo", "deployment/roll").assertOk();
        WAIT.until("the first ReplicaSet back, as revision 3",
                () -> get("rs/" + first, "{.metadata.annotations.deployment\\.kubernetes\\.io/revision}").equals("3"));
        assertEquals("1", get("rs/" + first, "{.metadata.annotations.deployment\\.kubernetes\\.io/revision-history}"));
        assertEquals("nginx:1.0", get("deploy/roll", "{.spec.template.spec.containers[0].image}"));
        readyUntil("the first ReplicaSet at 2, the second at 0", "app=roll",
                () -> get("rs/" + first, "{.spec.replicas}").equals("2") && get("rs/" + second, "{.spec.replicas}").equals("0"));
        assertEquals(2, names("rs", "app=roll").size(), "no third ReplicaSet");
        String after = kubectl("rollout", "history", "deployment/roll").assertOk().stdout();
        assertTrue(after.matches("(?s).*REVISION\\s+CHANGE-CAUSE\\s+2\\s+<none>\\s+3\\s+<none>.*"), after);
    }

    @Test
    @DisplayName("kubectl scale resizes the ReplicaSet and its Pods, with kube's ScalingReplicaSet events")
    void scale() throws InterruptedException {
        kubectl("create", "deployment", "sc", "--image=nginx", "--replicas=1").assertOk();
        WAIT.until("1 pod", () -> names("pods", "app=sc").size() == 1);
        kubectl("scale", "deployment/sc", "--replicas=4").assertOk();
        WAIT.until("4 pods", () -> names("pods", "app=sc").size() == 4);
        String rs = names("rs", "app=sc").getFirst();
        assertEquals("4/5", get("rs/" + rs, "{.metadata.annotations.deployment\\.kubernetes\\.io/desired-replicas}/"
                + "{.metadata.annotations.deployment\\.kubernetes\\.io/max-replicas}"));
        kubectl("scale", "deployment/sc", "--replicas=2").assertOk();
        WAIT.until("2 pods", () -> names("pods", "app=sc").size() == 2);
        WAIT.until("events", () -> get("events", "{.items[?(@.involvedObject.name==\"sc\")].message}")
                .contains("Scaled down replica set " + rs + " from 4 to 2"));
        assertEquals(1, names("rs", "app=sc").size());
    }

    @Test
    @DisplayName("Recreate scales the old ReplicaSet to 0 and waits for its Pods before the new one grows")
    void recreate() throws InterruptedException {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"rec"},"spec":{"replicas":2,\
                "strategy":{"type":"Recreate"},"revisionHistoryLimit":0,"selector":{"matchLabels":{"app":"rec"}},\
                "template":{"metadata":{"labels":{"app":"rec"}},"spec":{"containers":[{"name":"c","image":"a"}]}}}}""",
                "create", "-n", NS, "-f", "-").assertOk();
        WAIT.until("2 pods", () -> names("pods", "app=rec").size() == 2);
        String first = names("rs", "app=rec").getFirst();
        kubectl("set", "image", "deployment/rec", "c=b").assertOk();
        WAIT.until("the new ReplicaSet's 2 pods", () -> names("pods", "app=rec").stream()
                .filter(p -> !p.startsWith(first)).count() == 2 && names("pods", "app=rec").size() == 2);
        markAllReady("app=rec");
        WAIT.until("the old ReplicaSet cleaned up (revisionHistoryLimit 0)", () -> !names("rs", "app=rec").contains(first));
    }

    @Test
    @DisplayName("Pods never Ready: Progressing turns False with ProgressDeadlineExceeded after progressDeadlineSeconds")
    void progressDeadline() throws InterruptedException {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"stuck"},"spec":{"replicas":1,\
                "progressDeadlineSeconds":2,"selector":{"matchLabels":{"app":"stuck"}},\
                "template":{"metadata":{"labels":{"app":"stuck"}},"spec":{"containers":[{"name":"c","image":"a"}]}}}}""",
                "create", "-n", NS, "-f", "-").assertOk();
        WAIT.until("the deadline exceeded", () -> get("deploy/stuck",
                "{.status.conditions[?(@.type==\"Progressing\")].status}/{.status.conditions[?(@.type==\"Progressing\")].reason}")
                .equals("False/ProgressDeadlineExceeded"));
        String rs = names("rs", "app=stuck").getFirst();
        assertEquals("ReplicaSet \"" + rs + "\" has timed out progressing.",
                get("deploy/stuck", "{.status.conditions[?(@.type==\"Progressing\")].message}"));
        kubectl("rollout", "pause", "deployment/stuck").assertOk();
        kubectl("scale", "deployment/stuck", "--replicas=2").assertOk();
        WAIT.until("a paused Deployment still scales", () -> names("pods", "app=stuck").size() == 2);
    }
}
