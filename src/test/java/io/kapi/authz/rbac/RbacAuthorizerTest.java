package io.kapi.authz.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
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
 * The RBAC authorizer behind the whole API in memory ({@code --authorization-mode=RBAC}, the bootstrap
 * policy created): decisions follow Roles, ClusterRoles and their bindings as they are written and deleted.
 */
@DisplayName("RBAC authorization of API requests")
final class RbacAuthorizerTest {

    private static final UserInfo ALICE = new UserInfo("alice", "", List.of("dev", "system:authenticated"), Map.of());
    private static final UserInfo BOB = new UserInfo("bob", "", List.of("system:authenticated"), Map.of());
    private static final Await WAIT = Await.atMost(Duration.ofSeconds(20));

    @InMemoryApi(authorizationModes = "RBAC")
    private static ApiHarness api;

    @BeforeAll
    static void start() {
        api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"team\"}}");
        api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"other\"}}");
        // (without the standalone aggregation, view and edit have no rules here: a role of the test's own)
        api.post("/apis/rbac.authorization.k8s.io/v1/clusterroles", """
                {"metadata":{"name":"reader"},"rules":[{"apiGroups":["","apps"],"resources":["pods","configmaps",
                 "deployments"],"verbs":["get","list","watch"]}]}""");
    }

    private static ApiHarness.Reply as(UserInfo user, String method, String path) {
        return api.call(user, method, path, method.equals("GET") ? null : "application/json",
                method.equals("POST") ? "{\"metadata\":{\"name\":\"c1\"}}" : "");
    }

    @Test
    @DisplayName("a user without bindings is refused with kube's 403 wording, but may read public info")
    void noBindings() {
        ApiHarness.Reply r = as(BOB, "GET", "/api/v1/namespaces/team/pods");
        assertEquals(403, r.code(), r.text());
        assertEquals("pods is forbidden: User \"bob\" cannot list resource \"pods\" in API group \"\" in the namespace "
                + "\"team\"", r.body().path("message").asText());
        assertEquals("Forbidden", r.body().path("reason").asText());
        assertEquals("pods", r.body().path("details").path("kind").asText());
        ApiHarness.Reply named = as(BOB, "GET", "/apis/apps/v1/namespaces/team/deployments/web");
        assertEquals("deployments.apps \"web\" is forbidden: User \"bob\" cannot get resource \"deployments\" in API "
                + "group \"apps\" in the namespace \"team\"", named.body().path("message").asText());
        ApiHarness.Reply cluster = as(BOB, "GET", "/api/v1/nodes");
        assertEquals("nodes is forbidden: User \"bob\" cannot list resource \"nodes\" in API group \"\" at the cluster "
                + "scope", cluster.body().path("message").asText());
        assertEquals(200, as(BOB, "GET", "/api").code(), "system:discovery is bound to system:authenticated");
        ApiHarness.Reply anonymous = as(UserInfo.ANONYMOUS, "GET", "/api");
        assertEquals(403, anonymous.code());
        assertEquals("forbidden: User \"system:anonymous\" cannot get path \"/api\"",
                anonymous.body().path("message").asText());
    }

    @Test
    @DisplayName("a RoleBinding of a Role grants its rules in its namespace only, and no more once deleted")
    void roleBinding() throws InterruptedException {
        api.post("/apis/rbac.authorization.k8s.io/v1/namespaces/team/roles", """
                {"metadata":{"name":"cm-writer"},"rules":[{"apiGroups":[""],"resources":["configmaps"],
                 "verbs":["get","list","create"]}]}""");
        api.post("/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings", """
                {"metadata":{"name":"alice-cm"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role",
                 "name":"cm-writer"},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"alice"}]}""");
        WAIT.until("alice may list configmaps", () -> as(ALICE, "GET", "/api/v1/namespaces/team/configmaps").code() == 200);
        assertEquals(201, as(ALICE, "POST", "/api/v1/namespaces/team/configmaps").code());
        assertEquals(403, as(ALICE, "DELETE", "/api/v1/namespaces/team/configmaps/c1").code());
        assertEquals(403, as(ALICE, "GET", "/api/v1/namespaces/other/configmaps").code());
        assertEquals(403, as(ALICE, "GET", "/api/v1/namespaces/team/secrets").code());
        assertEquals(403, as(BOB, "GET", "/api/v1/namespaces/team/configmaps").code());
        api.delete("/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings/alice-cm");
        WAIT.until("alice refused again", () -> as(ALICE, "GET", "/api/v1/namespaces/team/configmaps").code() == 403);
    }

    @Test
    @DisplayName("a ClusterRoleBinding to a group grants a ClusterRole everywhere")
    void clusterRoleBindingToGroup() throws InterruptedException {
        api.post("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", """
                {"metadata":{"name":"dev-view"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole",
                 "name":"reader"},"subjects":[{"kind":"Group","apiGroup":"rbac.authorization.k8s.io","name":"dev"}]}""");
        WAIT.until("dev may list deployments", () -> as(ALICE, "GET", "/apis/apps/v1/namespaces/other/deployments").code() == 200);
        assertEquals(200, as(ALICE, "GET", "/apis/apps/v1/deployments").code());
        assertEquals(403, as(ALICE, "GET", "/api/v1/namespaces/other/secrets").code(), "reader does not read secrets");
        assertEquals(403, as(ALICE, "POST", "/api/v1/namespaces/other/configmaps").code());
        assertEquals(403, as(BOB, "GET", "/apis/apps/v1/deployments").code());
        api.delete("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/dev-view");
        WAIT.until("dev refused again", () -> as(ALICE, "GET", "/apis/apps/v1/deployments").code() == 403);
    }

    @Test
    @DisplayName("a ServiceAccount subject without a namespace is the binding's namespace's account")
    void serviceAccountSubject() throws InterruptedException {
        UserInfo robot = new UserInfo("system:serviceaccount:team:robot", "", List.of("system:serviceaccounts",
                "system:serviceaccounts:team", "system:authenticated"), Map.of());
        UserInfo twin = new UserInfo("system:serviceaccount:other:robot", "", List.of("system:authenticated"), Map.of());
        api.post("/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings", """
                {"metadata":{"name":"robot-edit"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole",
                 "name":"reader"},"subjects":[{"kind":"ServiceAccount","name":"robot"}]}""");
        WAIT.until("robot may list pods", () -> as(robot, "GET", "/api/v1/namespaces/team/pods").code() == 200);
        assertEquals(403, as(twin, "GET", "/api/v1/namespaces/team/pods").code());
    }

    @Test
    @DisplayName("SubjectAccessReview and SelfSubjectAccessReview agree with the decisions; rules reviews list the rules")
    void reviews() throws InterruptedException {
        api.post("/apis/rbac.authorization.k8s.io/v1/namespaces/other/rolebindings", """
                {"metadata":{"name":"bob-view"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole",
                 "name":"reader"},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"bob"}]}""");
        WAIT.until("bob may list pods", () -> as(BOB, "GET", "/api/v1/namespaces/other/pods").code() == 200);
        assertTrue(subjectReview("bob", "list", "pods", "other").path("allowed").asBoolean());
        assertFalse(subjectReview("bob", "list", "pods", "team").path("allowed").asBoolean());
        assertFalse(subjectReview("bob", "delete", "pods", "other").path("allowed").asBoolean());
        ApiHarness.Reply self = api.call(BOB, "POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
                "application/json", """
                {"spec":{"resourceAttributes":{"namespace":"other","verb":"get","resource":"configmaps"}}}""");
        assertEquals(201, self.code(), self.text());
        assertTrue(self.body().path("status").path("allowed").asBoolean(), self.text());
        ApiHarness.Reply rules = api.call(BOB, "POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
                "application/json", "{\"spec\":{\"namespace\":\"other\"}}");
        assertTrue(rules.body().path("status").path("resourceRules").toString().contains("\"configmaps\""), rules.text());
        assertFalse(rules.body().path("status").path("incomplete").asBoolean());
        ApiHarness.Reply bad = api.post("/apis/authorization.k8s.io/v1/subjectaccessreviews",
                "{\"spec\":{\"user\":\"bob\"}}");
        assertEquals(422, bad.code(), bad.text());
    }

    @Test
    @DisplayName("a user may create roles and bindings granting only what it holds (escalation prevention)")
    void escalation() throws InterruptedException {
        UserInfo carol = new UserInfo("carol", "", List.of("system:authenticated"), Map.of());
        api.post("/apis/rbac.authorization.k8s.io/v1/namespaces/team/roles", """
                {"metadata":{"name":"role-admin"},"rules":[{"apiGroups":["rbac.authorization.k8s.io"],
                 "resources":["roles","rolebindings"],"verbs":["create"]},
                 {"apiGroups":[""],"resources":["configmaps"],"verbs":["get","list"]}]}""");
        api.post("/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings", """
                {"metadata":{"name":"carol-admin"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role",
                 "name":"role-admin"},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"carol"}]}""");
        WAIT.until("carol may list configmaps", () -> as(carol, "GET", "/api/v1/namespaces/team/configmaps").code() == 200);
        String path = "/apis/rbac.authorization.k8s.io/v1/namespaces/team/roles";
        ApiHarness.Reply ok = api.call(carol, "POST", path, "application/json", """
                {"metadata":{"name":"cm-get"},"rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get"]}]}""");
        assertEquals(201, ok.code(), ok.text());
        ApiHarness.Reply more = api.call(carol, "POST", path, "application/json", """
                {"metadata":{"name":"secret-get"},"rules":[{"apiGroups":[""],"resources":["secrets","configmaps"],
                 "verbs":["get","list"]}]}""");
        assertEquals(403, more.code(), more.text());
        assertEquals("roles.rbac.authorization.k8s.io \"secret-get\" is forbidden: user \"carol\" (groups="
                + "[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n"
                + "{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\" \"list\"]}", more.body().path("message").asText());
        String bindings = "/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings";
        ApiHarness.Reply bindReader = api.call(carol, "POST", bindings, "application/json", """
                {"metadata":{"name":"dave-reader"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole",
                 "name":"reader"},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"dave"}]}""");
        assertEquals(403, bindReader.code(), bindReader.text());
        assertTrue(bindReader.body().path("message").asText().contains("Resources:[\"pods\"]"), bindReader.text());
        ApiHarness.Reply bindOwn = api.call(carol, "POST", bindings, "application/json", """
                {"metadata":{"name":"dave-cm"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role",
                 "name":"cm-get"},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"dave"}]}""");
        assertEquals(201, bindOwn.code(), bindOwn.text());
        for (int i = 0; i < 10; i++) {
            assertEquals(201, api.call(carol, "POST", path, "application/json", """
                    {"metadata":{"name":"fresh-%d"},"rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get"]}]}"""
                    .formatted(i)).code());
            ApiHarness.Reply bindFresh = api.call(carol, "POST", bindings, "application/json", """
                    {"metadata":{"name":"dave-fresh-%d"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role",
                     "name":"fresh-%d"},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"dave"}]}"""
                    .formatted(i, i));
            assertEquals(201, bindFresh.code(), "a binding to a role created just before: " + bindFresh.text());
        }
    }

    private static JsonNode subjectReview(String user, String verb, String resource, String namespace) {
        ApiHarness.Reply r = api.post("/apis/authorization.k8s.io/v1/subjectaccessreviews", """
                {"spec":{"user":"%s","resourceAttributes":{"namespace":"%s","verb":"%s","resource":"%s"}}}"""
                .formatted(user, namespace, verb, resource));
        assertEquals(201, r.code(), r.text());
        return r.body().path("status");
    }
}
