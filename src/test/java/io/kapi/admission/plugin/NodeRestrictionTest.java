package io.kapi.admission.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.user.UserInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code --enable-admission-plugins=NodeRestriction} behind the whole API in memory, with the Node
 * authorizer: a kubelet modifies only its own Node, its mirror pods and the pods bound to it, with
 * kube's 403 wording.
 */
@DisplayName("NodeRestriction admission of kubelet writes")
final class NodeRestrictionTest {

    private static final UserInfo N1 = new UserInfo("system:node:n1", "", List.of("system:nodes",
            "system:authenticated"), Map.of());

    @InMemoryApi(authorizationModes = {"Node", "RBAC"}, enableAdmissionPlugins = "NodeRestriction")
    private static ApiHarness api;
    private static String n1Uid;

    @BeforeAll
    static void start() {
        api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"app\"}}");
        ApiHarness.Reply n1 = as("POST", "/api/v1/nodes", "application/json", """
                {"metadata":{"name":"n1","labels":{"kubernetes.io/hostname":"n1","node.kubernetes.io/exclude":"x"}}}""");
        assertEquals(201, n1.code(), n1.text());
        n1Uid = n1.body().path("metadata").path("uid").asText();
        api.post("/api/v1/nodes", "{\"metadata\":{\"name\":\"n2\"}}");
        api.post("/api/v1/namespaces/app/pods", pod("on-n2", "n2"));
        api.post("/api/v1/namespaces/app/pods", pod("on-n1", "n1"));
    }

    private static String pod(String name, String node) {
        return """
                {"metadata":{"name":"%s"},"spec":{"nodeName":"%s","containers":[{"name":"c","image":"x"}]}}"""
                .formatted(name, node);
    }

    private static ApiHarness.Reply as(String method, String path, String type, String body) {
        return api.call(N1, method, path, type, body);
    }

    private static String refused(String method, String path, String type, String body) {
        ApiHarness.Reply r = as(method, path, type, body);
        assertEquals(403, r.code(), r.text());
        return r.body().path("message").asText();
    }

    private static final String MERGE = "application/merge-patch+json";

    @Test
    @DisplayName("a node's no-op write of its own taints is allowed: compared as kube's semantic equality (nil and empty, zero values)")
    void noOpTaints() {
        // TaintNodesByCondition tainted n1 not-ready when it was made; the node lifecycle controller clears that
        assertEquals(200, api.patch("/api/v1/nodes/n1", MERGE, "{\"spec\":{\"taints\":null}}").code());
        for (String type : List.of(MERGE, "application/strategic-merge-patch+json", "application/json-patch+json")) {
            String body = type.equals("application/json-patch+json")
                    ? "[{\"op\":\"add\",\"path\":\"/spec/taints\",\"value\":[]}]" : "{\"spec\":{\"taints\":[]}}";
            ApiHarness.Reply r = as("PATCH", "/api/v1/nodes/n1", type, body);
            assertEquals(200, r.code(), type + ": " + r.text());
        }
        ApiHarness.Reply applied = as("PATCH", "/api/v1/nodes/n1?fieldManager=kubelet", "application/apply-patch+yaml",
                "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},\"spec\":{\"taints\":[]}}");
        assertEquals(200, applied.code(), applied.text());
        assertEquals(200, api.patch("/api/v1/nodes/n1", MERGE, "{\"spec\":{\"taints\":[{\"key\":\"k\","
                + "\"effect\":\"NoSchedule\",\"timeAdded\":\"2024-01-02T03:04:05Z\"}]}}").code());
        ApiHarness.Reply same = as("PATCH", "/api/v1/nodes/n1", MERGE, "{\"spec\":{\"taints\":[{\"key\":\"k\","
                + "\"value\":\"\",\"effect\":\"NoSchedule\",\"timeAdded\":\"2024-01-02T04:04:05+01:00\"}]}}");
        assertEquals(200, same.code(), same.text());
        assertEquals("nodes \"n1\" is forbidden: node \"n1\" is not allowed to modify taints",
                refused("PATCH", "/api/v1/nodes/n1", MERGE, "{\"spec\":{\"taints\":[{\"key\":\"k\","
                        + "\"effect\":\"NoSchedule\",\"timeAdded\":\"2024-01-02T03:04:06Z\"}]}}"));
        assertEquals(200, api.patch("/api/v1/nodes/n1", MERGE, "{\"spec\":{\"taints\":null}}").code());
    }

    @Test
    @DisplayName("a node may change its own Node but not another's, its taints or restricted labels")
    void nodes() {
        assertEquals(200, as("PATCH", "/api/v1/nodes/n1", MERGE,
                "{\"metadata\":{\"labels\":{\"kubelet.kubernetes.io/x\":\"1\",\"mine\":\"y\"}}}").code());
        assertEquals("nodes \"n2\" is forbidden: node \"n1\" is not allowed to modify node \"n2\"",
                refused("PATCH", "/api/v1/nodes/n2", MERGE, "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"));
        assertEquals("nodes \"n1\" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/trusted",
                refused("PATCH", "/api/v1/nodes/n1", MERGE,
                        "{\"metadata\":{\"labels\":{\"node-restriction.kubernetes.io/trusted\":\"yes\"}}}"));
        assertEquals("nodes \"n1\" is forbidden: is not allowed to modify labels: example.k8s.io/x",
                refused("PATCH", "/api/v1/nodes/n1", MERGE, "{\"metadata\":{\"labels\":{\"example.k8s.io/x\":\"1\"}}}"));
        assertEquals("nodes \"n1\" is forbidden: node \"n1\" is not allowed to modify taints",
                refused("PATCH", "/api/v1/nodes/n1", MERGE,
                        "{\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]}}"));
        assertEquals(200, as("PATCH", "/api/v1/nodes/n1/status", MERGE,
                "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}").code());
        assertEquals("nodes \"n3\" is forbidden: node \"n1\" is not allowed to modify node \"n3\"",
                refused("POST", "/api/v1/nodes", "application/json", "{\"metadata\":{\"name\":\"n3\"}}"));
    }

    @Test
    @DisplayName("a node creates only mirror pods bound to and owned by itself, referring to nothing")
    void mirrorPods() {
        String owner = "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"n1\",\"uid\":\"%s\","
                + "\"controller\":true}]";
        String mirror = "\"annotations\":{\"kubernetes.io/config.mirror\":\"h\"}";
        assertEquals("pods \"plain\" is forbidden: pod does not have \"kubernetes.io/config.mirror\" annotation, node "
                + "\"n1\" can only create mirror pods", refused("POST", "/api/v1/namespaces/app/pods",
                "application/json", pod("plain", "n1")));
        assertEquals("pods \"m1\" is forbidden: node \"n1\" can only create pods with spec.nodeName set to itself",
                refused("POST", "/api/v1/namespaces/app/pods", "application/json", """
                        {"metadata":{"name":"m1",%s},"spec":{"nodeName":"n2","containers":[{"name":"c","image":"x"}]}}"""
                        .formatted(mirror)));
        assertEquals("pods \"m1\" is forbidden: node \"n1\" can only create pods with an owner reference set to itself",
                refused("POST", "/api/v1/namespaces/app/pods", "application/json", """
                        {"metadata":{"name":"m1",%s},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"x"}]}}"""
                        .formatted(mirror)));
        assertEquals("pods \"m1\" is forbidden: node \"n1\" can not create pods that reference secrets",
                refused("POST", "/api/v1/namespaces/app/pods", "application/json", """
                        {"metadata":{"name":"m1",%s,%s},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"x",
                         "envFrom":[{"secretRef":{"name":"s"}}]}]}}""".formatted(mirror, owner.formatted(n1Uid))));
        assertEquals("pods \"m1\" is forbidden: node n1 UID mismatch: expected wrong got " + n1Uid,
                refused("POST", "/api/v1/namespaces/app/pods", "application/json", """
                        {"metadata":{"name":"m1",%s,%s},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"x"}]}}"""
                        .formatted(mirror, owner.formatted("wrong"))));
        ApiHarness.Reply ok = as("POST", "/api/v1/namespaces/app/pods", "application/json", """
                {"metadata":{"name":"m1",%s,%s},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"x"}]}}"""
                .formatted(mirror, owner.formatted(n1Uid)));
        assertEquals(201, ok.code(), ok.text());
    }

    @Test
    @DisplayName("a node updates the status of and deletes only pods bound to it")
    void boundPods() {
        assertEquals(200, as("PATCH", "/api/v1/namespaces/app/pods/on-n1/status", MERGE,
                "{\"status\":{\"phase\":\"Running\"}}").code());
        assertEquals("pods \"on-n2\" is forbidden: node \"n1\" can only update pod status for pods with spec.nodeName "
                + "set to itself", refused("PATCH", "/api/v1/namespaces/app/pods/on-n2/status", MERGE,
                "{\"status\":{\"phase\":\"Running\"}}"));
        assertEquals("pods \"on-n1\" is forbidden: node \"n1\" cannot update labels through pod status",
                refused("PATCH", "/api/v1/namespaces/app/pods/on-n1/status", MERGE,
                        "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"));
        assertEquals("pods \"Unknown\" is forbidden: node \"n1\" can only delete pods with spec.nodeName set to itself",
                refused("DELETE", "/api/v1/namespaces/app/pods/on-n2", "application/json", ""));
        assertEquals(200, as("DELETE", "/api/v1/namespaces/app/pods/on-n1", "application/json", "").code());
    }

    @Test
    @DisplayName("a node's lease is its own, in kube-node-lease")
    void leases() {
        assertEquals("leases.coordination.k8s.io \"n2\" is forbidden: can only access node lease with the same name as "
                + "the requesting node", refused("POST", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases",
                "application/json", "{\"metadata\":{\"name\":\"n2\"}}"));
        ApiHarness.Reply own = as("POST", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases",
                "application/json", "{\"metadata\":{\"name\":\"n1\"},\"spec\":{\"holderIdentity\":\"n1\"}}");
        assertEquals(201, own.code(), own.text());
    }
}
