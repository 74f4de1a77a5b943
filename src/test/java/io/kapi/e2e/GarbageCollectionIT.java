package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Cascading deletion with the real kubectl: a Deployment owning ReplicaSets owning Pods (the owner
 * references written as kube-controller-manager writes them), deleted in the foreground, in the
 * background and orphaning.
 */
@DisplayName("garbage collection")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class GarbageCollectionIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    private static final Await WAIT = Await.atMost(Duration.ofSeconds(60)).every(Duration.ofMillis(200));

    private static final String NS = "e2e-gc";

    @BeforeAll
    static void namespace() {
        kubectl("create", "namespace", NS).assertOk();
    }

    private static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().run(args);
    }

    private static String uid(String kind, String name) {
        return kubectl("get", kind, name, "-n", NS, "-o", "jsonpath={.metadata.uid}").assertOk().stdout().strip();
    }

    private static String ownerRef(String apiVersion, String kind, String name, String uid) {
        return """
                "ownerReferences":[{"apiVersion":"%s","kind":"%s","name":"%s","uid":"%s",\
                "controller":true,"blockOwnerDeletion":true}]""".formatted(apiVersion, kind, name, uid);
    }

    private static void create(String json) {
        KAPI.kubectl().runWithInput(json, "create", "-n", NS, "-f", "-").assertOk();
    }

    private static void deployment(String name) {
        create("""
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s"},"spec":{"selector":\
                {"matchLabels":{"app":"%s"}},"template":{"metadata":{"labels":{"app":"%s"}},"spec":\
                {"containers":[{"name":"c","image":"nginx"}]}}}}""".formatted(name, name, name));
    }

    /** A ReplicaSet owned by {@code owner}'s Deployment (when given) with two pods it owns. */
    private static void replicaSet(String name, String owner) {
        String meta = owner == null ? "" : "," + ownerRef("apps/v1", "Deployment", owner, uid("deployment", owner));
        create("""
                {"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"%s","labels":{"app":"%s"}%s},\
                "spec":{"selector":{"matchLabels":{"app":"%s"}},"template":{"metadata":{"labels":{"app":"%s"}},\
                "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}""".formatted(name, name, meta, name, name));
        String rsUid = uid("replicaset", name);
        for (int i = 0; i < 2; i++) {
            create("""
                    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s-%d","labels":{"app":"%s"},%s},\
                    "spec":{"containers":[{"name":"c","image":"nginx"}]}}"""
                    .formatted(name, i, name, ownerRef("apps/v1", "ReplicaSet", name, rsUid)));
        }
    }

    private static String names(String kinds, String selector) {
        return kubectl("get", kinds, "-n", NS, "-l", selector, "-o", "name").assertOk().stdout().strip();
    }

    @Test
    @DisplayName("kubectl delete --cascade=foreground returns once the ReplicaSet and its Pods are gone")
    void foreground() {
        deployment("fg");
        replicaSet("fg", "fg");
        assertEquals("deployment.apps \"fg\" deleted",
                kubectl("delete", "deployment", "fg", "-n", NS, "--cascade=foreground").assertOk().stdout().strip());
        assertEquals("", names("deployment,replicaset,pod", "app=fg"));
    }

    @Test
    @DisplayName("kubectl delete (background) deletes the dependents soon after the owner")
    void background() throws InterruptedException {
        deployment("bg");
        replicaSet("bg", "bg");
        kubectl("delete", "deployment", "bg", "-n", NS).assertOk();
        WAIT.until("the ReplicaSet and Pods of bg to go", () -> names("replicaset,pod", "app=bg").isEmpty());
    }

    @Test
    @DisplayName("kubectl delete --cascade=orphan leaves the Pods, without their owner reference")
    void orphan() throws InterruptedException {
        replicaSet("or", null);
        kubectl("delete", "replicaset", "or", "-n", NS, "--cascade=orphan").assertOk();
        WAIT.until("the ReplicaSet or to go", () -> names("replicaset", "app=or").isEmpty());
        WAIT.until("the Pods to lose their owner references", () -> kubectl("get", "pods", "-n", NS, "-l", "app=or",
                "-o", "jsonpath={.items[*].metadata.ownerReferences}").assertOk().stdout().isBlank());
        assertEquals("pod/or-0\npod/or-1", names("pod", "app=or"));
    }
}
