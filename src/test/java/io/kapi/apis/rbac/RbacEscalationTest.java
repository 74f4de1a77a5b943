package io.kapi.apis.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.assembly.ApiConfig;
import io.kapi.harness.ApiHarness;
import io.kapi.user.UserInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * RBAC's escalation prevention through every way of writing roles and bindings (create, update, merge,
 * JSON and strategic patches, server-side apply, dry run), as kube's policy-based RBAC storage decides it:
 * an aggregationRule needs every permission (or {@code escalate}), rules need to be held, bindings need
 * the role's rules held or {@code bind}.
 */
@DisplayName("RBAC escalation prevention")
final class RbacEscalationTest {

    private static final String RBAC = "/apis/rbac.authorization.k8s.io/v1";
    private static final UserInfo MALLORY = user("mallory");
    private static final UserInfo ESME = user("esme");
    private static final UserInfo NAMED = user("named-escalator");
    private static final UserInfo BINDER = user("binder");
    private static final String AGGREGATE_TO_ADMIN = """
            "aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{
             "rbac.authorization.k8s.io/aggregate-to-admin":"true"}}]}""";
    private static final String NOT_CLUSTER_ADMIN = "must have cluster-admin privileges to use the aggregationRule";
    private static ApiHarness api;

    private static UserInfo user(String name) {
        return new UserInfo(name, "", List.of("system:authenticated"), Map.of());
    }

    @BeforeAll
    static void start() throws InterruptedException {
        api = new ApiHarness(ApiConfig.builder().dataDir(Path.of("target/unused")).authorizationModes(List.of("RBAC"))
                .build());
        // mallory may write ClusterRoles (no escalate) and is bound to one of her own, empty for now
        clusterRole("role-writer", """
                [{"apiGroups":["rbac.authorization.k8s.io"],"resources":["clusterroles"],
                  "verbs":["get","list","create","update","patch"]}]""");
        clusterRole("mallory-own", "[]");
        bind("mallory-writer", "role-writer", "mallory");
        bind("mallory-own", "mallory-own", "mallory");
        // esme may also escalate them; named-escalator only the ClusterRole named "named"
        clusterRole("role-escalator", """
                [{"apiGroups":["rbac.authorization.k8s.io"],"resources":["clusterroles"],
                  "verbs":["get","create","update","patch","escalate"]}]""");
        bind("esme-escalator", "role-escalator", "esme");
        clusterRole("named-escalator", """
                [{"apiGroups":["rbac.authorization.k8s.io"],"resources":["clusterroles"],"verbs":["create"]},
                 {"apiGroups":["rbac.authorization.k8s.io"],"resources":["clusterroles"],"verbs":["escalate"],
                  "resourceNames":["named"]}]""");
        bind("named-escalator", "named-escalator", "named-escalator");
        // binder may write bindings, and bind the reader role only
        clusterRole("reader", "[{\"apiGroups\":[\"\"],\"resources\":[\"configmaps\"],\"verbs\":[\"get\"]}]");
        clusterRole("binding-writer", """
                [{"apiGroups":["rbac.authorization.k8s.io"],"resources":["clusterrolebindings","rolebindings"],
                  "verbs":["create","update","patch","get"]},
                 {"apiGroups":["rbac.authorization.k8s.io"],"resources":["clusterroles"],"verbs":["bind"],
                  "resourceNames":["reader"]}]""");
        bind("binder", "binding-writer", "binder");
        await("the bindings are seen", () -> as(BINDER, "GET", RBAC + "/clusterrolebindings/binder", null, "").code()
                == 200 && as(MALLORY, "GET", RBAC + "/clusterroles/mallory-own", null, "").code() == 200
                && as(ESME, "GET", RBAC + "/clusterroles/mallory-own", null, "").code() == 200);
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    private static void clusterRole(String name, String rules) {
        assertEquals(201, api.post(RBAC + "/clusterroles", "{\"metadata\":{\"name\":\"%s\"},\"rules\":%s}"
                .formatted(name, rules)).code(), name);
    }

    private static void bind(String name, String role, String user) {
        assertEquals(201, api.post(RBAC + "/clusterrolebindings", """
                {"metadata":{"name":"%s"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole",
                 "name":"%s"},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"%s"}]}"""
                .formatted(name, role, user)).code(), name);
    }

    private static ApiHarness.Reply as(UserInfo user, String method, String path, String contentType, String body) {
        return api.call(user, method, path, contentType, body);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("not within 20 s: " + what);
            }
            Thread.sleep(20);
        }
    }

    private static void assertForbidden(ApiHarness.Reply r, String message, String what) {
        assertEquals(403, r.code(), what + ": " + r.text());
        assertEquals("Forbidden", r.body().path("reason").asText(), what);
        assertEquals(message, r.body().path("message").asText(), what);
    }

    @Test
    @DisplayName("a ClusterRole writer without escalate cannot set an aggregationRule, whichever way it writes")
    void aggregationRuleNeedsFullAuthority() {
        String refused = "clusterroles.rbac.authorization.k8s.io \"mallory-own\" is forbidden: " + NOT_CLUSTER_ADMIN;
        String own = RBAC + "/clusterroles/mallory-own";
        assertForbidden(as(MALLORY, "PUT", own, "application/json",
                "{\"metadata\":{\"name\":\"mallory-own\"},\"rules\":[]," + AGGREGATE_TO_ADMIN + "}"), refused, "update");
        assertForbidden(as(MALLORY, "PATCH", own, "application/merge-patch+json", "{" + AGGREGATE_TO_ADMIN + "}"),
                refused, "merge patch");
        assertForbidden(as(MALLORY, "PATCH", own, "application/strategic-merge-patch+json",
                "{" + AGGREGATE_TO_ADMIN + "}"), refused, "strategic merge patch");
        assertForbidden(as(MALLORY, "PATCH", own, "application/json-patch+json", """
                [{"op":"add","path":"/aggregationRule","value":{"clusterRoleSelectors":[{"matchLabels":{
                 "rbac.authorization.k8s.io/aggregate-to-admin":"true"}}]}}]"""), refused, "JSON patch");
        assertForbidden(as(MALLORY, "PATCH", own + "?fieldManager=mallory&force=true", "application/apply-patch+yaml",
                "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\",\"metadata\":{\"name\":"
                        + "\"mallory-own\"}," + AGGREGATE_TO_ADMIN + "}"), refused, "server-side apply");
        assertForbidden(as(MALLORY, "PATCH", own + "?dryRun=All", "application/merge-patch+json",
                "{" + AGGREGATE_TO_ADMIN + "}"), refused, "dry run");
        assertForbidden(as(MALLORY, "POST", RBAC + "/clusterroles", "application/json",
                "{\"metadata\":{\"name\":\"mallory-admin\"}," + AGGREGATE_TO_ADMIN + "}"),
                "clusterroles.rbac.authorization.k8s.io \"mallory-admin\" is forbidden: " + NOT_CLUSTER_ADMIN, "create");
        assertForbidden(as(MALLORY, "POST", RBAC + "/clusterroles?dryRun=All", "application/json",
                "{\"metadata\":{\"name\":\"mallory-admin\"}," + AGGREGATE_TO_ADMIN + "}"),
                "clusterroles.rbac.authorization.k8s.io \"mallory-admin\" is forbidden: " + NOT_CLUSTER_ADMIN,
                "create, dry run");
        assertEquals(0, api.get(own).body().path("aggregationRule").size(), "nothing stored");
    }

    @Test
    @DisplayName("a ClusterRole that has an aggregationRule cannot be changed, nor its rule dropped, without full "
            + "authority; a role of held rules may carry an aggregate-to label")
    void existingAggregation() {
        assertEquals(201, api.post(RBAC + "/clusterroles", "{\"metadata\":{\"name\":\"gathering\"},"
                + AGGREGATE_TO_ADMIN + "}").code());
        String refused = "clusterroles.rbac.authorization.k8s.io \"gathering\" is forbidden: " + NOT_CLUSTER_ADMIN;
        assertForbidden(as(MALLORY, "PATCH", RBAC + "/clusterroles/gathering", "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"), refused, "a label on an aggregating role");
        assertForbidden(as(MALLORY, "PATCH", RBAC + "/clusterroles/gathering", "application/merge-patch+json",
                "{\"aggregationRule\":null}"), refused, "dropping the aggregationRule");
        assertEquals(201, as(MALLORY, "POST", RBAC + "/clusterroles", "application/json", """
                {"metadata":{"name":"mallory-labelled","labels":{"rbac.authorization.k8s.io/aggregate-to-admin":"true"}},
                 "rules":[{"apiGroups":["rbac.authorization.k8s.io"],"resources":["clusterroles"],"verbs":["get"]}]}""")
                .code(), "rules she holds, labelled for admin: kube allows it");
        assertForbidden(as(MALLORY, "POST", RBAC + "/clusterroles", "application/json", """
                {"metadata":{"name":"mallory-secrets","labels":{"rbac.authorization.k8s.io/aggregate-to-admin":"true"}},
                 "rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["get"]}]}"""),
                "clusterroles.rbac.authorization.k8s.io \"mallory-secrets\" is forbidden: user \"mallory\" "
                        + "(groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently "
                        + "held:\n{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\"]}", "rules she lacks");
    }

    @Test
    @DisplayName("escalate allows an aggregationRule; escalate limited to a name does not cover a create by POST")
    void escalateVerb() {
        assertEquals(201, as(ESME, "POST", RBAC + "/clusterroles", "application/json",
                "{\"metadata\":{\"name\":\"esme-gathering\"}," + AGGREGATE_TO_ADMIN + "}").code());
        assertForbidden(as(NAMED, "POST", RBAC + "/clusterroles", "application/json", """
                {"metadata":{"name":"named"},"rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["get"]}]}"""),
                "clusterroles.rbac.authorization.k8s.io \"named\" is forbidden: user \"named-escalator\" "
                        + "(groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently "
                        + "held:\n{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\"]}",
                "a POST names no object: kube asks escalate without a name");
    }

    @Test
    @DisplayName("an update changing only finalizers or owner references is not checked, as kube's GC-field rule")
    void garbageCollectorFields() {
        assertEquals(201, api.post(RBAC + "/clusterroles", """
                {"metadata":{"name":"held-back","finalizers":["example.com/hold"]},
                 "rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["*"]}]}""").code());
        String path = RBAC + "/clusterroles/held-back";
        assertEquals(200, as(MALLORY, "PATCH", path, "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":null}}").code(), "removing a finalizer");
        assertEquals(403, as(MALLORY, "PATCH", path, "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}").code(), "a label is not a GC field");
    }

    @Test
    @DisplayName("a binding needs bind on its role or the role's rules held; a missing role is 404; roleRef is immutable")
    void bindings() {
        String bindings = RBAC + "/clusterrolebindings";
        assertEquals(201, as(BINDER, "POST", bindings, "application/json", binding("binder-reader", "reader")).code(),
                "bind on reader");
        assertForbidden(as(BINDER, "POST", bindings, "application/json", binding("binder-admin", "cluster-admin")),
                "clusterrolebindings.rbac.authorization.k8s.io \"binder-admin\" is forbidden: user \"binder\" "
                        + "(groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently "
                        + "held:\n{APIGroups:[\"*\"], Resources:[\"*\"], Verbs:[\"*\"]}\n"
                        + "{NonResourceURLs:[\"*\"], Verbs:[\"*\"]}", "cluster-admin");
        ApiHarness.Reply missing = as(BINDER, "POST", bindings, "application/json", binding("binder-nope", "nope"));
        assertEquals(404, missing.code(), missing.text());
        assertEquals("clusterroles.rbac.authorization.k8s.io \"nope\" not found", missing.body().path("message").asText());
        ApiHarness.Reply changed = as(BINDER, "PATCH", bindings + "/binder-reader", "application/merge-patch+json",
                "{\"roleRef\":{\"name\":\"role-writer\"}}");
        assertEquals(422, changed.code(), changed.text());
    }

    private static String binding(String name, String role) {
        return """
                {"metadata":{"name":"%s"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole",
                 "name":"%s"},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"binder"}]}"""
                .formatted(name, role);
    }
}
