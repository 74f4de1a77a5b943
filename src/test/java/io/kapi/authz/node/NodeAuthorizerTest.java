package io.kapi.authz.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.fixtures.Await;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.user.UserInfo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The Node authorizer behind the whole API in memory ({@code --authorization-mode=Node,RBAC}): a
 * kubelet reads only what the pods bound to it refer to, as the graph learns it from watches, and is
 * refused the rest with kube's reasons.
 */
@DisplayName("Node authorization of kubelet requests")
final class NodeAuthorizerTest {

    private static final UserInfo N1 = node("n1");
    private static final UserInfo N2 = node("n2");
    private static final Await WAIT = Await.atMost(Duration.ofSeconds(30));

    @InMemoryApi(authorizationModes = {"Node", "RBAC"})
    private static ApiHarness api;

    private static UserInfo node(String name) {
        return new UserInfo("system:node:" + name, "", List.of("system:nodes", "system:authenticated"), Map.of());
    }

    @BeforeAll
    static void start() throws InterruptedException {
        api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"app\"}}");
        for (String s : List.of("env-secret", "vol-secret", "pull-secret", "projected-secret", "pv-secret", "other")) {
            api.post("/api/v1/namespaces/app/secrets", "{\"metadata\":{\"name\":\"" + s + "\"}}");
        }
        api.post("/api/v1/namespaces/app/configmaps", "{\"metadata\":{\"name\":\"env-cm\"}}");
        api.post("/api/v1/namespaces/app/configmaps", "{\"metadata\":{\"name\":\"lonely-cm\"}}");
        api.post("/api/v1/namespaces/app/serviceaccounts", "{\"metadata\":{\"name\":\"runner\"}}");
        api.post("/api/v1/namespaces/app/persistentvolumeclaims", """
                {"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],
                 "resources":{"requests":{"storage":"1Gi"}}}}""");
        api.post("/api/v1/persistentvolumes", """
                {"metadata":{"name":"pv1"},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],
                 "claimRef":{"namespace":"app","name":"data"},
                 "csi":{"driver":"d.example.com","volumeHandle":"h1",
                        "nodePublishSecretRef":{"namespace":"app","name":"pv-secret"}}}}""");
        ApiHarness.Reply pod = api.post("/api/v1/namespaces/app/pods", """
                {"metadata":{"name":"web"},"spec":{"nodeName":"n1","serviceAccountName":"runner",
                 "imagePullSecrets":[{"name":"pull-secret"}],
                 "containers":[{"name":"c","image":"nginx",
                   "env":[{"name":"A","valueFrom":{"secretKeyRef":{"name":"env-secret","key":"k"}}},
                          {"name":"B","valueFrom":{"configMapKeyRef":{"name":"env-cm","key":"k"}}}]}],
                 "volumes":[{"name":"s","secret":{"secretName":"vol-secret"}},
                            {"name":"p","projected":{"sources":[{"secret":{"name":"projected-secret"}}]}},
                            {"name":"d","persistentVolumeClaim":{"claimName":"data"}}]}}""");
        assertEquals(201, pod.code(), pod.text());
        WAIT.until("n1 reads the pod's secret", () -> get(N1, "/api/v1/namespaces/app/secrets/env-secret") == 200);
    }

    private static int get(UserInfo user, String path) {
        return api.call(user, "GET", path, null, "").code();
    }

    @Test
    @DisplayName("a node reads the secrets, configmaps, claim, volume and account its pods refer to")
    void relatedObjects() {
        for (String s : List.of("env-secret", "vol-secret", "pull-secret", "projected-secret", "pv-secret")) {
            assertEquals(200, get(N1, "/api/v1/namespaces/app/secrets/" + s), s);
            assertEquals(403, get(N2, "/api/v1/namespaces/app/secrets/" + s), s);
        }
        assertEquals(200, get(N1, "/api/v1/namespaces/app/configmaps/env-cm"));
        assertEquals(200, get(N1, "/api/v1/namespaces/app/persistentvolumeclaims/data"));
        assertEquals(200, get(N1, "/api/v1/persistentvolumes/pv1"));
        assertEquals(200, get(N1, "/api/v1/namespaces/app/pods/web"));
        assertEquals(200, get(N1, "/api/v1/namespaces/app/secrets?fieldSelector=metadata.name%3Denv-secret"),
                "a single-object list by metadata.name is a read of that object");
        assertEquals(403, get(N2, "/api/v1/namespaces/app/pods/web"));
        ApiHarness.Reply token = api.call(N1, "POST", "/api/v1/namespaces/app/serviceaccounts/runner/token",
                "application/json", "{\"spec\":{\"audiences\":[\"x\"]}}");
        assertEquals(201, token.code(), token.text());
        assertEquals(403, api.call(N2, "POST", "/api/v1/namespaces/app/serviceaccounts/runner/token",
                "application/json", "{\"spec\":{}}").code());
    }

    @Test
    @DisplayName("unrelated objects, lists and writes are refused with kube's reasons")
    void refusals() {
        assertEquals("secrets \"other\" is forbidden: User \"system:node:n1\" cannot get resource \"secrets\" in API "
                + "group \"\" in the namespace \"app\": no relationship found between node 'n1' and this object",
                message(N1, "GET", "/api/v1/namespaces/app/secrets/other"));
        assertEquals("configmaps \"lonely-cm\" is forbidden: User \"system:node:n1\" cannot get resource \"configmaps\" "
                + "in API group \"\" in the namespace \"app\": no relationship found between node 'n1' and this object",
                message(N1, "GET", "/api/v1/namespaces/app/configmaps/lonely-cm"));
        assertEquals("secrets is forbidden: User \"system:node:n1\" cannot list resource \"secrets\" in API group \"\" "
                + "in the namespace \"app\": No Object name found", message(N1, "GET", "/api/v1/namespaces/app/secrets"));
        assertEquals("secrets \"env-secret\" is forbidden: User \"system:node:n1\" cannot delete resource \"secrets\" in "
                + "API group \"\" in the namespace \"app\": can only read resources of this type",
                message(N1, "DELETE", "/api/v1/namespaces/app/secrets/env-secret"));
        assertEquals("pods is forbidden: User \"system:node:n1\" cannot list resource \"pods\" in API group \"\" at the "
                + "cluster scope: can only list/watch pods with spec.nodeName field selector",
                message(N1, "GET", "/api/v1/pods"));
        assertEquals(200, get(N1, "/api/v1/pods?fieldSelector=spec.nodeName%3Dn1"));
        assertEquals(403, get(N1, "/api/v1/pods?fieldSelector=spec.nodeName%3Dn2"));
        assertEquals("nodes is forbidden: User \"system:node:n1\" cannot list resource \"nodes\" in API group \"\" at "
                + "the cluster scope: node 'n1' cannot read all nodes, only its own Node object",
                message(N1, "GET", "/api/v1/nodes"));
        assertEquals("leases.coordination.k8s.io \"n2\" is forbidden: User \"system:node:n1\" cannot get resource "
                + "\"leases\" in API group \"coordination.k8s.io\" in the namespace \"kube-node-lease\": can only access "
                + "node lease with the same name as the requesting node",
                message(N1, "GET", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n2"));
        assertEquals(403, get(N1, "/apis/apps/v1/deployments"), "not in the node rules: RBAC decides, and refuses");
        assertEquals(200, get(N1, "/api/v1/services"), "the static node rules read services");
        UserInfo nameless = new UserInfo("system:node:", "", List.of("system:nodes"), Map.of());
        assertEquals("services is forbidden: User \"system:node:\" cannot list resource \"services\" in API group \"\" "
                + "at the cluster scope: unknown node for user \"system:node:\"",
                message(nameless, "GET", "/api/v1/services"));
        UserInfo notInGroup = new UserInfo("system:node:n1", "", List.of("system:authenticated"), Map.of());
        assertEquals(403, get(notInGroup, "/api/v1/namespaces/app/secrets/env-secret"), "only system:nodes members");
    }

    private static String message(UserInfo user, String method, String path) {
        ApiHarness.Reply r = api.call(user, method, path, method.equals("GET") ? null : "application/json", "");
        assertEquals(403, r.code(), r.text());
        return r.body().path("message").asText();
    }

    @Test
    @DisplayName("the graph follows pods as they are bound and deleted, and volumes as they are rebound")
    void graphFollowsWatches() throws InterruptedException {
        api.post("/api/v1/namespaces/app/secrets", "{\"metadata\":{\"name\":\"late\"}}");
        api.post("/api/v1/namespaces/app/pods", """
                {"metadata":{"name":"late"},"spec":{"containers":[{"name":"c","image":"x",
                 "envFrom":[{"secretRef":{"name":"late"}}]}]}}""");
        assertEquals(403, get(N2, "/api/v1/namespaces/app/secrets/late"), "an unbound pod relates to no node");
        ApiHarness.Reply bind = api.post("/api/v1/namespaces/app/pods/late/binding", """
                {"metadata":{"name":"late"},"target":{"kind":"Node","name":"n2"}}""");
        assertEquals(201, bind.code(), bind.text());
        WAIT.until("n2 reads the bound pod's secret", () -> get(N2, "/api/v1/namespaces/app/secrets/late") == 200);
        assertEquals(403, get(N1, "/api/v1/namespaces/app/secrets/late"));
        api.delete("/api/v1/namespaces/app/pods/late?gracePeriodSeconds=0");
        WAIT.until("n2 refused once the pod is gone", () -> get(N2, "/api/v1/namespaces/app/secrets/late") == 403);
    }

    @Test
    @DisplayName("a mirror pod relates its node to itself only")
    void mirrorPod() throws InterruptedException {
        api.post("/api/v1/namespaces/app/secrets", "{\"metadata\":{\"name\":\"mirrored\"}}");
        api.post("/api/v1/namespaces/app/pods", """
                {"metadata":{"name":"static-n2","annotations":{"kubernetes.io/config.mirror":"x"}},
                 "spec":{"nodeName":"n2","containers":[{"name":"c","image":"x",
                 "envFrom":[{"secretRef":{"name":"mirrored"}}]}]}}""");
        WAIT.until("n2 reads its mirror pod", () -> get(N2, "/api/v1/namespaces/app/pods/static-n2") == 200);
        assertEquals(403, get(N2, "/api/v1/namespaces/app/secrets/mirrored"));
    }
}
