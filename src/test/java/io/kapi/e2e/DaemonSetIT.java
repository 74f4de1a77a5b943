package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
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
 * The daemonset controller ({@code --controllers=*}) with the real kubectl and fabric8: Nodes are plain
 * objects the test makes (no kubelet), a Pod per eligible Node pinned by node affinity, the daemon
 * tolerations, Pods following Nodes that come, change and go, rolling updates (maxUnavailable, maxSurge)
 * and OnDelete, {@code kubectl rollout status/history/undo daemonset}. Each test's DaemonSet selects its
 * own Nodes by a label, as the Nodes are cluster-wide.
 */
@DisplayName("daemonset controller")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class DaemonSetIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--controllers=*", "--authorization-mode=Node,RBAC");

    private static final Await WAIT = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(100));
    private static final String NS = "e2e-ds";

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

    /**
     * A Node that has become Ready: the server's TaintNodesByCondition gives every new Node
     * {@code node.kubernetes.io/not-ready:NoSchedule}, which daemon Pods do not tolerate (as on kube); the node
     * lifecycle controller would take it off once a kubelet reports Ready, so the test does.
     */
    private static void node(String name, String group, String taints) {
        notReadyNode(name, group, taints);
        KAPI.kubectl().run("taint", "node", name, "node.kubernetes.io/not-ready:NoSchedule-").assertOk();
    }

    private static void notReadyNode(String name, String group, String taints) {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"v1","kind":"Node","metadata":{"name":"%s","labels":{"group":"%s"}},\
                "spec":{"taints":%s}}""".formatted(name, group, taints), "create", "-f", "-").assertOk();
    }

    private static void daemonSet(String name, String extraSpec) {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"%s"},"spec":{\
                "selector":{"matchLabels":{"app":"%s"}},%s\
                "template":{"metadata":{"labels":{"app":"%s"}},"spec":{"nodeSelector":{"group":"%s"},\
                "containers":[{"name":"c","image":"agent:1"}]}}}}""".formatted(name, name, extraSpec, name, name),
                "create", "-n", NS, "-f", "-").assertOk();
    }

    /** Node name of each Pod of {@code app}, sorted: {@code node=image} pairs. */
    private static List<String> placed(String app) {
        String out = get("pods", "{range .items[?(@.metadata.labels.app==\"" + app + "\")]}"
                + "{.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
                + ".matchFields[0].values[0]}={.spec.containers[0].image}{\" \"}{end}");
        return out.isEmpty() ? List.of() : java.util.Arrays.stream(out.split(" ")).sorted().toList();
    }

    /** Marks every Pod of {@code app} Running and Ready, as a kubelet would (those not yet). */
    private static void markReady(String app) {
        String listed = get("pods", "{range .items[?(@.metadata.labels.app==\"" + app + "\")]}{.metadata.name} "
                + "{.status.phase}{\"\\n\"}{end}");
        for (String line : listed.lines().toList()) {
            String[] fields = line.strip().split(" ");
            if (fields.length == 2 && fields[1].equals("Pending")) {
                kubectl("patch", "pod", fields[0], "--subresource=status", "--type=merge", "-p", """
                        {"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True",\
                        "lastTransitionTime":"2026-01-01T00:00:00Z"}]}}""");
            }
        }
    }

    private static void readyUntil(String what, String app, Await.Condition condition) throws InterruptedException {
        WAIT.until(what, () -> {
            markReady(app);
            return condition.holds();
        });
    }

    @Test
    @DisplayName("a Pod per eligible Node (not one not yet Ready), pinned by node affinity, with the daemon tolerations and kube's labels")
    void onePodPerNode() throws InterruptedException {
        node("one-a", "one", "[]");
        node("one-b", "one", "[{\"key\":\"node.kubernetes.io/unschedulable\",\"effect\":\"NoSchedule\"}]");
        node("one-c", "one", "[{\"key\":\"dedicated\",\"value\":\"db\",\"effect\":\"NoSchedule\"}]");
        notReadyNode("one-d", "one", "[]");
        node("other", "two", "[]");
        daemonSet("one", "");
        WAIT.until("a Pod on one-a and one-b", () -> placed("one").equals(List.of("one-a=agent:1", "one-b=agent:1")));
        String pod = get("pods", "{.items[?(@.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                + ".nodeSelectorTerms[0].matchFields[0].values[0]==\"one-a\")].metadata.name}");
        assertTrue(pod.matches("one-[bcdfghjklmnpqrstvwxz2456789]{5}"), pod);
        assertEquals("", get("pod/" + pod, "{.spec.nodeName}"), "pinned by affinity, not nodeName");
        String hash = get("pod/" + pod, "{.metadata.labels.controller-revision-hash}");
        assertEquals("1/" + hash, get("pod/" + pod, "{.metadata.labels.pod-template-generation}/"
                + "{.metadata.labels.controller-revision-hash}"));
        assertEquals("one-" + hash, get("controllerrevisions", "{.items[?(@.metadata.ownerReferences[0].name==\"one\")]"
                + ".metadata.name}"));
        assertEquals("node.kubernetes.io/not-ready:NoExecute node.kubernetes.io/unreachable:NoExecute "
                + "node.kubernetes.io/disk-pressure:NoSchedule node.kubernetes.io/memory-pressure:NoSchedule "
                + "node.kubernetes.io/pid-pressure:NoSchedule node.kubernetes.io/unschedulable:NoSchedule",
                get("pod/" + pod, "{range .spec.tolerations[*]}{.key}:{.effect} {end}"));
        WAIT.until("status", () -> get("ds/one", "{.status.desiredNumberScheduled}/{.status.currentNumberScheduled}/"
                + "{.status.numberMisscheduled}/{.status.numberReady}/{.status.updatedNumberScheduled}/"
                + "{.status.numberUnavailable}/{.status.observedGeneration}").equals("2/2/0/0/2/2/1"));
        markReady("one");
        WAIT.until("ready", () -> get("ds/one", "{.status.numberReady}/{.status.numberAvailable}/{.status.numberUnavailable}")
                .equals("2/2/"));
        String events = get("events", "{range .items[?(@.involvedObject.name==\"one\")]}{.reason}: {.message}|{end}");
        assertTrue(events.matches("(SuccessfulCreate: Created pod: one-\\w{5}\\|){2}"), events);
        String version = get("ds/one", "{.metadata.resourceVersion}");
        Thread.sleep(1000);
        assertEquals(version, get("ds/one", "{.metadata.resourceVersion}"), "a DaemonSet at rest is not written again");
    }

    @Test
    @DisplayName("Pods follow the Nodes: a new Node gets one, a NoSchedule taint leaves it misscheduled, a NoExecute one and a gone Node take it")
    void followsNodes() throws InterruptedException {
        node("follow-a", "follow", "[]");
        daemonSet("follow", "");
        WAIT.until("one Pod", () -> placed("follow").equals(List.of("follow-a=agent:1")));
        node("follow-b", "follow", "[]");
        WAIT.until("two Pods", () -> placed("follow").size() == 2);
        KAPI.kubectl().run("taint", "node", "follow-b", "dedicated=x:NoSchedule").assertOk();
        WAIT.until("misscheduled", () -> get("ds/follow", "{.status.desiredNumberScheduled}/{.status.numberMisscheduled}")
                .equals("1/1"));
        assertEquals(2, placed("follow").size(), "a NoSchedule taint does not evict");
        KAPI.kubectl().run("taint", "node", "follow-b", "evict=y:NoExecute").assertOk();
        WAIT.until("evicted", () -> placed("follow").equals(List.of("follow-a=agent:1")));
        KAPI.kubectl().run("delete", "node", "follow-a").assertOk();
        WAIT.until("none", () -> placed("follow").isEmpty());
        WAIT.until("status", () -> get("ds/follow", "{.status.desiredNumberScheduled}/{.status.currentNumberScheduled}")
                .equals("0/0"));
    }

    @Test
    @DisplayName("set image replaces the Pods within maxUnavailable; rollout status, history and undo use the revisions")
    void rollingUpdate() throws InterruptedException {
        for (String n : List.of("roll-a", "roll-b", "roll-c")) {
            node(n, "roll", "[]");
        }
        daemonSet("roll", "");
        readyUntil("3 ready", "roll", () -> get("ds/roll", "{.status.numberReady}").equals("3"));
        kubectl("set", "image", "daemonset/roll", "c=agent:2").assertOk();
        readyUntil("3 updated and ready", "roll", () -> placed("roll").equals(List.of("roll-a=agent:2", "roll-b=agent:2",
                "roll-c=agent:2")) && get("ds/roll", "{.status.updatedNumberScheduled}/{.status.numberAvailable}").equals("3/3"));
        assertTrue(kubectl("rollout", "status", "daemonset/roll", "--timeout=20s").assertOk().stdout()
                .contains("daemon set \"roll\" successfully rolled out"));
        assertEquals("2 2 2", get("pods", "{.items[?(@.metadata.labels.app==\"roll\")].metadata.labels.pod-template-generation}"));
        String history = kubectl("rollout", "history", "daemonset/roll").assertOk().stdout();
        assertTrue(history.matches("(?s).*\\n1 +<none>\\n2 +<none>\\n.*"), history);
        kubectl("rollout", "undo", "daemonset/roll").assertOk();
        readyUntil("back at agent:1", "roll", () -> placed("roll").equals(List.of("roll-a=agent:1", "roll-b=agent:1",
                "roll-c=agent:1")) && get("ds/roll", "{.status.updatedNumberScheduled}/{.status.numberAvailable}").equals("3/3"));
        String deletes = get("events", "{range .items[?(@.involvedObject.name==\"roll\")]}{.reason} {end}");
        assertEquals(6, deletes.split("SuccessfulDelete", -1).length - 1, deletes);
    }

    @Test
    @DisplayName("OnDelete leaves the old Pods until they are deleted")
    void onDelete() throws InterruptedException {
        node("ondelete-a", "ondelete", "[]");
        daemonSet("ondelete", "\"updateStrategy\":{\"type\":\"OnDelete\"},");
        WAIT.until("one Pod", () -> placed("ondelete").equals(List.of("ondelete-a=agent:1")));
        kubectl("set", "image", "daemonset/ondelete", "c=agent:2").assertOk();
        WAIT.until("observed", () -> get("ds/ondelete", "{.status.observedGeneration}/{.status.updatedNumberScheduled}")
                .equals("2/"));
        assertEquals(List.of("ondelete-a=agent:1"), placed("ondelete"));
        kubectl("delete", "pods", "-l", "app=ondelete", "--wait=false").assertOk();
        WAIT.until("made again at agent:2", () -> placed("ondelete").equals(List.of("ondelete-a=agent:2")));
    }

    @Test
    @DisplayName("with fabric8: maxSurge makes the new Pod beside the old one and deletes the old one once the new is ready")
    void surge() throws InterruptedException {
        node("surge-a", "surge", "[]");
        try (KubernetesClient client = KAPI.fabric8()) {
            DaemonSet ds = new DaemonSetBuilder().withNewMetadata().withName("surge").endMetadata().withNewSpec()
                    .withNewSelector().addToMatchLabels("app", "surge").endSelector()
                    .withNewUpdateStrategy().withType("RollingUpdate").withNewRollingUpdate()
                    .withMaxSurge(new IntOrString(1)).withMaxUnavailable(new IntOrString(0)).endRollingUpdate().endUpdateStrategy()
                    .withNewTemplate().withNewMetadata().addToLabels("app", "surge").endMetadata().withNewSpec()
                    .addToNodeSelector("group", "surge").addNewContainer().withName("c").withImage("agent:1").endContainer()
                    .endSpec().endTemplate().endSpec().build();
            client.apps().daemonSets().inNamespace(NS).resource(ds).create();
            readyUntil("one ready", "surge", () -> get("ds/surge", "{.status.numberReady}").equals("1"));
            client.apps().daemonSets().inNamespace(NS).withName("surge").edit(d -> {
                d.getSpec().getTemplate().getSpec().getContainers().getFirst().setImage("agent:2");
                return d;
            });
            WAIT.until("old and new side by side", () -> placed("surge").equals(List.of("surge-a=agent:1", "surge-a=agent:2")));
            markReady("surge");
            WAIT.until("the old one gone", () -> placed("surge").equals(List.of("surge-a=agent:2")));
            List<Pod> pods = client.pods().inNamespace(NS).withLabel("app", "surge").list().getItems();
            assertEquals("DaemonSet", pods.getFirst().getMetadata().getOwnerReferences().getFirst().getKind());
        }
    }
}
