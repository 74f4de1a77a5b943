package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kapi.fixtures.Await;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The disruption controller ({@code --controllers=*}, under RBAC): PodDisruptionBudget status as kube's
 * (Pods by selector, Ready ones healthy, percentages against the controllers' scale, condition
 * DisruptionAllowed), and the eviction subresource reading it: {@code kubectl drain} and fabric8's evict
 * are refused with 429 while the budget allows no disruption, and go through once it does.
 */
@DisplayName("disruption controller")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class DisruptionIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--controllers=*", "--authorization-mode=Node,RBAC");

    static final Await WAIT = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(100));
    private static final String NS = "e2e-pdb";
    static KubernetesClient client;

    @BeforeAll
    static void setUp() throws Exception {
        kubectl("create", "namespace", NS).assertOk();
        Config config = Config.fromKubeconfig(Files.readString(KAPI.kapi().kubeconfigPath()));
        config.setClientKeyAlgo(KAPI.kapi().kubeconfig().clientKeyAlgorithm());
        client = new KubernetesClientBuilder().withConfig(config).build();
    }

    @AfterAll
    static void tearDown() {
        if (client != null) {
            client.close();
        }
    }

    static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().run(args);
    }

    static String get(String what, String jsonpath) {
        return KAPI.kubectl().jsonpath(NS, what, jsonpath);
    }

    static void apply(String json) {
        KAPI.kubectl().runWithInput(json, "apply", "-n", NS, "-f", "-").assertOk();
    }

    static List<String> pods(String selector) {
        String out = kubectl("get", "pods", "-n", NS, "-l", selector, "-o",
                "jsonpath={.items[*].metadata.name}").assertOk().stdout().strip();
        return out.isEmpty() ? List.of() : List.of(out.split(" "));
    }

    static void markReady(String pod) {
        kubectl("patch", "pod", pod, "-n", NS, "--subresource=status", "--type=merge", "-p", """
                {"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True",\
                "lastTransitionTime":"2026-01-01T00:00:00Z"}]}}""").assertOk();
    }

    static void pod(String name, String app, String node) {
        apply("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","labels":{"app":"%s"}},\
                "spec":%s"containers":[{"name":"c","image":"nginx"}]}}"""
                .formatted(name, app, node == null ? "{" : "{\"nodeName\":\"" + node + "\","));
    }

    static void budget(String name, String app, String rule) {
        apply("""
                {"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"%s"},\
                "spec":{%s,"selector":{"matchLabels":{"app":"%s"}}}}""".formatted(name, rule, app));
    }

    static String status(String pdb) {
        return get("pdb/" + pdb, "{.status.currentHealthy}/{.status.desiredHealthy}/{.status.expectedPods}/"
                + "{.status.disruptionsAllowed}/{.status.observedGeneration}");
    }

    static String condition(String pdb) {
        return get("pdb/" + pdb, "{.status.conditions[?(@.type==\"DisruptionAllowed\")].status}/"
                + "{.status.conditions[?(@.type==\"DisruptionAllowed\")].reason}/"
                + "{.status.conditions[?(@.type==\"DisruptionAllowed\")].message}");
    }

    @Test
    @DisplayName("an integer minAvailable counts the selected Pods; Ready ones are healthy; the condition follows")
    void integerMinAvailable() {
        budget("two", "two", "\"minAvailable\":2");
        WAIT.until("no pods yet", () -> status("two").equals("0/2/0/0/1"));
        assertEquals("False/InsufficientPods/", condition("two"));
        String events = kubectl("get", "events", "-n", NS, "--field-selector", "involvedObject.name=two", "-o",
                "jsonpath={.items[0].reason} {.items[0].message} {.items[0].source.component}").assertOk().stdout();
        assertEquals("NoPods No matching pods found controllermanager", events);
        for (String p : List.of("two-a", "two-b", "two-c")) {
            pod(p, "two", null);
        }
        WAIT.until("3 expected, none healthy", () -> status("two").equals("0/2/3/0/1"));
        markReady("two-a");
        markReady("two-b");
        WAIT.until("2 healthy", () -> status("two").equals("2/2/3/0/1"));
        markReady("two-c");
        WAIT.until("3 healthy, one disruption allowed", () -> status("two").equals("3/2/3/1/1"));
        assertEquals("True/SufficientPods/", condition("two"));
        budget("two", "two", "\"minAvailable\":1");
        WAIT.until("the new generation observed", () -> status("two").equals("3/1/3/2/2"));
        assertEquals("2", get("pdb/two", "{.status.conditions[0].observedGeneration}"));
    }

    @Test
    @DisplayName("a percentage counts against the Deployment's replicas, maxUnavailable too, rounding up")
    void percentages() {
        apply("""
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3,\
                "selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},\
                "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}""");
        WAIT.until("3 pods", () -> pods("app=web").size() == 3);
        budget("web-min", "web", "\"minAvailable\":\"50%\"");
        budget("web-max", "web", "\"maxUnavailable\":\"50%\"");
        WAIT.until("expected from the Deployment's scale", () -> status("web-min").equals("0/2/3/0/1")
                && status("web-max").equals("0/1/3/0/1"));
        pods("app=web").forEach(DisruptionIT::markReady);
        WAIT.until("all healthy", () -> status("web-min").equals("3/2/3/1/1") && status("web-max").equals("3/1/3/2/1"));
        kubectl("scale", "deployment/web", "-n", NS, "--replicas=4").assertOk();
        WAIT.until("scaled: 4 expected", () -> status("web-max").equals("3/2/4/1/1"));
    }

    @Test
    @DisplayName("a percentage over a Pod whose controller has no scale fails the sync: SyncFailed with kube's message")
    void syncFailed() {
        apply("""
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"owner"}}""");
        String uid = get("configmap/owner", "{.metadata.uid}");
        apply("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"owned","labels":{"app":"owned"},\
                "ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"owner","uid":"%s","controller":true}]},\
                "spec":{"containers":[{"name":"c","image":"nginx"}]}}""".formatted(uid));
        budget("owned", "owned", "\"maxUnavailable\":1");
        WAIT.until("SyncFailed", () -> condition("owned")
                .equals("False/SyncFailed/configmaps does not implement the scale subresource"));
        assertEquals("0", get("pdb/owned", "{.status.disruptionsAllowed}"));
    }

    @Test
    @DisplayName("unmanaged Pods under a percentage are counted as none, with an UnmanagedPods warning")
    void unmanaged() {
        pod("loose", "loose", null);
        budget("loose", "loose", "\"minAvailable\":\"100%\"");
        WAIT.until("status", () -> status("loose").equals("0/0/0/0/1"));
        WAIT.until("UnmanagedPods event", () -> kubectl("get", "events", "-n", NS, "--field-selector",
                "involvedObject.name=loose,reason=UnmanagedPods", "-o", "jsonpath={.items[0].message}").assertOk()
                .stdout().equals("Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:"
                        + "map[string]string{app: loose,},MatchExpressions:[]LabelSelectorRequirement{},}) were found "
                        + "to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which "
                        + "may result in undefined behavior. To account for these pods please set "
                        + "\".spec.minAvailable\" field of the PDB to an integer value."));
    }

    @Test
    @DisplayName("kubectl drain and fabric8's evict are refused with 429 while the budget allows none, then go through")
    void eviction() {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"v1","kind":"Node","metadata":{"name":"drained"}}""", "create", "-f", "-").assertOk();
        pod("db-a", "db", "drained");
        pod("db-b", "db", "drained");
        markReady("db-a");
        markReady("db-b");
        budget("db", "db", "\"minAvailable\":2");
        WAIT.until("both healthy, none allowed", () -> status("db").equals("2/2/2/0/1"));
        Kubectl.Result drain = kubectl("drain", "drained", "--force", "--grace-period=0", "--timeout=4s");
        assertFalse(drain.exitCode() == 0, drain.toString());
        assertTrue(drain.stderr().contains("Cannot evict pod as it would violate the pod's disruption budget."),
                drain.toString());
        assertEquals("true", kubectl("get", "node", "drained", "-o", "jsonpath={.spec.unschedulable}").stdout());
        assertFalse(client.pods().inNamespace(NS).withName("db-a").evict(), "fabric8 evict: 429, false");
        assertEquals(2, pods("app=db").size());

        budget("db", "db", "\"minAvailable\":1");
        WAIT.until("one allowed", () -> status("db").equals("2/1/2/1/2"));
        assertTrue(client.pods().inNamespace(NS).withName("db-a").evict(), "fabric8 evict allowed");
        // bound to a node, db-a waits out its grace period (no kubelet): being deleted, it is not healthy
        WAIT.until("db-a being deleted, the budget recounted", () -> !get("pod/db-a",
                "{.metadata.deletionTimestamp}").isEmpty() && status("db").equals("1/1/2/0/2"));
        assertEquals("", get("pdb/db", "{.status.disruptedPods}"), "a Pod being deleted is no longer awaited");
        assertEquals("True/EvictionByEvictionAPI", get("pod/db-a",
                "{.status.conditions[?(@.type==\"DisruptionTarget\")].status}/"
                        + "{.status.conditions[?(@.type==\"DisruptionTarget\")].reason}"));
        assertEquals("False/InsufficientPods/", condition("db"));
    }
}
