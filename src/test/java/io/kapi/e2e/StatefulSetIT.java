package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
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
 * The statefulset controller ({@code --controllers=*}) with the real kubectl and fabric8: ordinal Pods made
 * one at a time (OrderedReady) or all at once (Parallel), claims from the templates, scale-down from the
 * highest ordinal, rolling updates through ControllerRevisions, {@code kubectl rollout status/history/undo}.
 * Pods stay Pending (no kubelet): the test marks them Running and Ready where the set has to go on.
 */
@DisplayName("statefulset controller")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class StatefulSetIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--controllers=*", "--authorization-mode=Node,RBAC");

    private static final Await WAIT = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(100));
    private static final String NS = "e2e-sts";

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

    private static void statefulSet(String name, int replicas, String policy, String extra) {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"%s"},"spec":{"replicas":%d,\
                "serviceName":"%s-svc","podManagementPolicy":"%s","selector":{"matchLabels":{"app":"%s"}},\
                "template":{"metadata":{"labels":{"app":"%s"}},"spec":{"containers":[{"name":"c","image":"nginx:1.0"}]}}\
                %s}}""".formatted(name, replicas, name, policy, name, name, extra), "create", "-n", NS, "-f", "-")
                .assertOk();
    }

    /** Marks every Pod of {@code selector} Running and Ready, as a kubelet would (those not yet). */
    private static void markReady(String selector) {
        String listed = kubectl("get", "pods", "-l", selector, "-o", "jsonpath={range .items[*]}{.metadata.name} "
                + "{.status.phase}{\"\\n\"}{end}").assertOk().stdout();
        for (String line : listed.strip().lines().toList()) {
            String[] fields = line.strip().split(" ");
            if (fields.length == 2 && fields[1].equals("Pending")) {
                kubectl("patch", "pod", fields[0], "--subresource=status", "--type=merge", "-p", """
                        {"status":{"phase":"Running","podIP":"10.244.2.1","conditions":[{"type":"Ready",\
                        "status":"True","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}""");
            }
        }
    }

    private static void readyUntil(String what, String selector, Await.Condition condition) throws InterruptedException {
        WAIT.until(what, () -> {
            markReady(selector);
            return condition.holds();
        });
    }

    @Test
    @DisplayName("OrderedReady makes <set>-0 with its claim, and <set>-1 only once <set>-0 is Running and Ready")
    void ordered() throws InterruptedException {
        statefulSet("web", 2, "OrderedReady", """
                ,"volumeClaimTemplates":[{"metadata":{"name":"www"},"spec":{"accessModes":["ReadWriteOnce"],\
                "resources":{"requests":{"storage":"1Gi"}}}}]""");
        WAIT.until("web-0", () -> names("pods", "app=web").equals(List.of("web-0")));
        Thread.sleep(500);
        assertEquals(List.of("web-0"), names("pods", "app=web"), "web-1 waits for web-0");
        String revision = get("sts/web", "{.status.updateRevision}");
        assertTrue(revision.matches("web-[bcdfghjklmnpqrstvwxz2456789]+"), revision);
        assertEquals("web-0/0/" + revision + "/web-0/web-svc/www-web-0", get("pod/web-0",
                "{.metadata.labels.statefulset\\.kubernetes\\.io/pod-name}/{.metadata.labels.apps\\.kubernetes\\.io/pod-index}/"
                        + "{.metadata.labels.controller-revision-hash}/{.spec.hostname}/{.spec.subdomain}/"
                        + "{.spec.volumes[?(@.name==\"www\")].persistentVolumeClaim.claimName}"));
        assertEquals("StatefulSet/web/true", get("pod/web-0", "{.metadata.ownerReferences[0].kind}/"
                + "{.metadata.ownerReferences[0].name}/{.metadata.ownerReferences[0].controller}"));
        assertEquals("web", get("pvc/www-web-0", "{.metadata.labels.app}"));
        assertEquals("1/" + revision + "/" + revision + "/1/0/0/1", get("sts/web", "{.status.replicas}/"
                + "{.status.currentRevision}/{.status.updateRevision}/{.status.updatedReplicas}/{.status.availableReplicas}/"
                + "{.status.collisionCount}/{.status.observedGeneration}"));
        readyUntil("2 ready", "app=web", () -> get("sts/web", "{.status.readyReplicas}").equals("2"));
        assertEquals(List.of("web-0", "web-1"), names("pods", "app=web"));
        assertEquals(List.of("www-web-0", "www-web-1"), names("pvc", "app=web"));
        assertTrue(kubectl("rollout", "status", "statefulset/web", "--timeout=20s").assertOk().stdout()
                .contains("partitioned roll out complete: 2 new pods have been updated"), "rollout status");
        String events = get("events", "{range .items[?(@.involvedObject.name==\"web\")]}{.reason}: {.message}|{end}");
        assertTrue(events.contains("SuccessfulCreate: create Pod web-0 in StatefulSet web successful|"), events);
        assertTrue(events.contains("SuccessfulCreate: create Claim www-web-1 Pod web-1 in StatefulSet web success|"), events);
        String version = get("sts/web", "{.metadata.resourceVersion}");
        Thread.sleep(1000);
        assertEquals(version, get("sts/web", "{.metadata.resourceVersion}"), "a set at rest is not written again");
    }

    @Test
    @DisplayName("Parallel makes every Pod at once; scaling down deletes from the highest ordinal")
    void parallel() throws InterruptedException {
        statefulSet("par", 3, "Parallel", "");
        WAIT.until("3 pods", () -> names("pods", "app=par").equals(List.of("par-0", "par-1", "par-2")));
        kubectl("scale", "statefulset/par", "--replicas=1").assertOk();
        WAIT.until("par-0 left", () -> names("pods", "app=par").equals(List.of("par-0")));
        WAIT.until("status 1", () -> get("sts/par", "{.status.replicas}").equals("1"));
        String events = get("events", "{range .items[?(@.involvedObject.name==\"par\")]}{.reason}: {.message}|{end}");
        assertTrue(events.contains("SuccessfulDelete: delete Pod par-2 in StatefulSet par successful|"), events);
    }

    @Test
    @DisplayName("OrderedReady scales down one Pod at a time, highest ordinal first")
    void orderedScaleDown() throws InterruptedException {
        statefulSet("down", 3, "OrderedReady", "");
        readyUntil("3 ready", "app=down", () -> get("sts/down", "{.status.readyReplicas}").equals("3"));
        kubectl("scale", "statefulset/down", "--replicas=1").assertOk();
        WAIT.until("down-0 left", () -> names("pods", "app=down").equals(List.of("down-0")));
        String deletes = get("events", "{range .items[?(@.reason==\"SuccessfulDelete\")]}{.message}|{end}");
        assertTrue(deletes.indexOf("down-2") >= 0 && deletes.indexOf("down-2") < deletes.indexOf("down-1"), deletes);
    }

    @Test
    @DisplayName("set image rolls the Pods to a new revision from the highest ordinal; rollout history and undo use the revisions")
    void rollingUpdate() throws InterruptedException {
        statefulSet("roll", 2, "OrderedReady", "");
        readyUntil("2 ready", "app=roll", () -> get("sts/roll", "{.status.readyReplicas}").equals("2"));
        String first = get("sts/roll", "{.status.currentRevision}");
        kubectl("set", "image", "statefulset/roll", "c=nginx:2.0").assertOk();
        WAIT.until("a second revision", () -> !get("sts/roll", "{.status.updateRevision}").equals(first));
        String second = get("sts/roll", "{.status.updateRevision}");
        readyUntil("updated", "app=roll", () -> get("sts/roll", "{.status.currentRevision}/{.status.updatedReplicas}/"
                + "{.status.readyReplicas}").equals(second + "/2/2"));
        assertEquals("nginx:2.0 nginx:2.0", get("pods", "{.items[?(@.metadata.labels.app==\"roll\")].spec.containers[0].image}"));
        assertEquals(second + " " + second, get("pods",
                "{.items[?(@.metadata.labels.app==\"roll\")].metadata.labels.controller-revision-hash}"));
        assertTrue(kubectl("rollout", "status", "statefulset/roll", "--timeout=20s").assertOk().stdout()
                .contains("partitioned roll out complete: 2 new pods have been updated"), "rollout status");
        String history = kubectl("rollout", "history", "statefulset/roll").assertOk().stdout();
        assertTrue(history.matches("(?s).*\\n1 +<none>\\n2 +<none>\\n.*"), history);
        kubectl("rollout", "undo", "statefulset/roll").assertOk();
        readyUntil("back at the first template", "app=roll", () -> get("sts/roll", "{.status.currentRevision}/"
                + "{.status.updatedReplicas}/{.status.readyReplicas}").equals(first + "/2/2"));
        assertEquals("nginx:1.0 nginx:1.0", get("pods", "{.items[?(@.metadata.labels.app==\"roll\")].spec.containers[0].image}"));
        assertEquals("3", get("controllerrevision/" + first, "{.revision}"), "the revision rolled back to is renumbered");
    }

    @Test
    @DisplayName("a partition keeps the Pods below it at the current revision; OnDelete replaces only deleted Pods")
    void partitionAndOnDelete() throws InterruptedException {
        statefulSet("part", 2, "Parallel", ",\"updateStrategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"partition\":1}}");
        readyUntil("2 ready", "app=part", () -> get("sts/part", "{.status.readyReplicas}").equals("2"));
        kubectl("set", "image", "statefulset/part", "c=nginx:2.0").assertOk();
        readyUntil("part-1 updated", "app=part", () -> get("sts/part", "{.status.updatedReplicas}/{.status.readyReplicas}")
                .equals("1/2"));
        assertEquals("nginx:1.0", get("pod/part-0", "{.spec.containers[0].image}"));
        assertEquals("nginx:2.0", get("pod/part-1", "{.spec.containers[0].image}"));
        kubectl("patch", "statefulset", "part", "--type=merge", "-p",
                "{\"spec\":{\"updateStrategy\":{\"type\":\"OnDelete\",\"rollingUpdate\":null}}}").assertOk();
        kubectl("set", "image", "statefulset/part", "c=nginx:3.0").assertOk();
        Thread.sleep(1000);
        assertEquals("nginx:1.0 nginx:2.0", get("pods", "{.items[?(@.metadata.labels.app==\"part\")].spec.containers[0].image}"));
        kubectl("delete", "pod", "part-0", "--wait=false").assertOk();
        WAIT.until("part-0 made again at the new revision", () -> get("pods",
                "{.items[?(@.metadata.name==\"part-0\")].spec.containers[0].image}").equals("nginx:3.0"));
    }

    @Test
    @DisplayName("an orphan Pod <set>-0 the selector matches is adopted, not made again, and given its identity labels")
    void adopt() throws InterruptedException {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"adopt-0","labels":{"app":"adopt"}},\
                "spec":{"containers":[{"name":"c","image":"nginx:1.0"}]}}""", "create", "-n", NS, "-f", "-").assertOk();
        statefulSet("adopt", 1, "OrderedReady", "");
        WAIT.until("adopted", () -> get("pod/adopt-0", "{.metadata.ownerReferences[0].kind}").equals("StatefulSet"));
        WAIT.until("counted", () -> get("sts/adopt", "{.status.replicas}").equals("1"));
        readyUntil("its identity labels set once it is Running and Ready", "app=adopt", () -> get("pod/adopt-0",
                "{.metadata.labels.statefulset\\.kubernetes\\.io/pod-name}/{.metadata.labels.apps\\.kubernetes\\.io/pod-index}")
                .equals("adopt-0/0"));
        WAIT.until("SuccessfulUpdate", () -> get("events", "{.items[?(@.reason==\"SuccessfulUpdate\")].message}")
                .contains("update Pod adopt-0 in StatefulSet adopt successful"));
    }

    @Test
    @DisplayName("with fabric8: ordinals.start numbers the Pods; the retention policy puts owner references on the claims")
    void fabric8() throws InterruptedException {
        try (KubernetesClient client = KAPI.fabric8()) {
            StatefulSet set = new StatefulSetBuilder().withNewMetadata().withName("db").endMetadata().withNewSpec()
                    .withReplicas(2).withPodManagementPolicy("Parallel").withNewOrdinals().withStart(5).endOrdinals()
                    .withNewPersistentVolumeClaimRetentionPolicy().withWhenDeleted("Delete").withWhenScaled("Delete")
                    .endPersistentVolumeClaimRetentionPolicy()
                    .withNewSelector().addToMatchLabels("app", "db").endSelector()
                    .withNewTemplate().withNewMetadata().addToLabels("app", "db").endMetadata().withNewSpec()
                    .addNewContainer().withName("c").withImage("postgres").endContainer().endSpec().endTemplate()
                    .addNewVolumeClaimTemplate().withNewMetadata().withName("data").endMetadata().withNewSpec()
                    .withAccessModes("ReadWriteOnce").withNewResources().addToRequests("storage",
                            new io.fabric8.kubernetes.api.model.Quantity("1Gi")).endResources().endSpec()
                    .endVolumeClaimTemplate().endSpec().build();
            String uid = client.apps().statefulSets().inNamespace(NS).resource(set).create().getMetadata().getUid();
            WAIT.until("db-5 and db-6", () -> client.pods().inNamespace(NS).withLabel("app", "db").list().getItems()
                    .stream().map(p -> p.getMetadata().getName()).sorted().toList().equals(List.of("db-5", "db-6")));
            PersistentVolumeClaim claim = client.persistentVolumeClaims().inNamespace(NS).withName("data-db-6").get();
            assertEquals("StatefulSet/db/" + uid + "/true", claim.getMetadata().getOwnerReferences().getFirst().getKind() + "/"
                    + claim.getMetadata().getOwnerReferences().getFirst().getName() + "/"
                    + claim.getMetadata().getOwnerReferences().getFirst().getUid() + "/"
                    + claim.getMetadata().getOwnerReferences().getFirst().getController(), "a controller reference, as kube's");
            String pod6 = client.pods().inNamespace(NS).withName("db-6").get().getMetadata().getUid();
            client.apps().statefulSets().inNamespace(NS).withName("db").scale(1);
            // collected with its Pod (deleted, or terminating while kubernetes.io/pvc-protection holds it)
            WAIT.until("data-db-6 owned by its Pod, then collected with it", () -> {
                PersistentVolumeClaim c = client.persistentVolumeClaims().inNamespace(NS).withName("data-db-6").get();
                if (c != null) {
                    var refs = c.getMetadata().getOwnerReferences();
                    assertTrue(refs.stream().allMatch(r -> r.getUid().equals(pod6) || r.getUid().equals(uid)), refs::toString);
                }
                return c == null || c.getMetadata().getDeletionTimestamp() != null;
            });
            assertEquals(uid, client.persistentVolumeClaims().inNamespace(NS).withName("data-db-5").get().getMetadata()
                    .getOwnerReferences().getFirst().getUid(), "db-5's claim stays with the set");
            WAIT.until("status", () -> client.apps().statefulSets().inNamespace(NS).withName("db").get().getStatus()
                    .getReplicas() == 1);
        }
    }
}
