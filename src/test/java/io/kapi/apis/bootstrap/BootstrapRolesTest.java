package io.kapi.apis.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import io.kapi.harness.StoreCalls;

class BootstrapRolesTest {

    private static final String RBAC = "rbac.authorization.k8s.io";

    private final BootstrapFixture fixture = new BootstrapFixture();
    private final ClusterRoleAggregation aggregation =
            new ClusterRoleAggregation(fixture.store(RBAC, "clusterroles"));
    private final BootstrapRoles hook = new BootstrapRoles(RbacPolicy.load(), fixture.client, Optional.of(aggregation));

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    @Test
    @DisplayName("the hook is named as kube-apiserver names it")
    void name() {
        assertEquals("rbac/bootstrap-roles", hook.name());
    }

    @Test
    @DisplayName("creates cluster-admin with kube's rules, label and autoupdate annotation")
    void clusterAdmin() {
        hook.run();
        ObjectNode role = fixture.get(RBAC, "clusterroles", "", "cluster-admin");
        assertEquals("rbac-defaults", ObjectMeta.of(role).labels().get("kubernetes.io/bootstrapping"));
        assertEquals("true", role.path("metadata").path("annotations").path(RbacPolicy.AUTOUPDATE_ANNOTATION).asText());
        assertEquals(json("[{\"verbs\":[\"*\"],\"apiGroups\":[\"*\"],\"resources\":[\"*\"]},"
                + "{\"verbs\":[\"*\"],\"nonResourceURLs\":[\"*\"]}]"), role.path("rules"));
        ObjectNode binding = fixture.get(RBAC, "clusterrolebindings", "", "cluster-admin");
        assertEquals(json("[{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"Group\",\"name\":\"system:masters\"}]"),
                binding.path("subjects"));
        assertEquals("cluster-admin", binding.path("roleRef").path("name").asText());
    }

    @Test
    @DisplayName("admin, edit and view carry kube's aggregation labels and rules, filled by aggregation")
    void aggregatedRoles() {
        hook.run();
        ObjectNode edit = fixture.get(RBAC, "clusterroles", "", "edit");
        assertEquals("true", ObjectMeta.of(edit).labels().get("rbac.authorization.k8s.io/aggregate-to-admin"));
        assertEquals(json("{\"clusterRoleSelectors\":[{\"matchLabels\":{\"rbac.authorization.k8s.io/aggregate-to-edit\":\"true\"}}]}"),
                edit.path("aggregationRule"));
        ObjectNode view = fixture.get(RBAC, "clusterroles", "", "view");
        assertEquals("true", ObjectMeta.of(view).labels().get("rbac.authorization.k8s.io/aggregate-to-edit"));
        assertEquals(fixture.get(RBAC, "clusterroles", "", "system:aggregate-to-view").path("rules"), view.path("rules"));
        assertTrue(hasRule(edit, "secrets", "create"), "edit includes system:aggregate-to-edit");
        assertTrue(hasRule(edit, "pods", "get"), "edit includes view through aggregate-to-edit");
        ObjectNode admin = fixture.get(RBAC, "clusterroles", "", "admin");
        assertTrue(hasRule(admin, "roles", "create"), "admin includes system:aggregate-to-admin");
        assertTrue(hasRule(admin, "deployments", "update"), "admin includes edit");
        assertTrue(hasRule(admin, "pods", "list"), "admin includes view through edit");
    }

    @Test
    @DisplayName("creates the system roles, controller roles and their bindings to kube-system service accounts")
    void systemAndControllerRoles() {
        hook.run();
        for (String name : List.of("system:discovery", "system:basic-user", "system:public-info-viewer", "system:node",
                "system:node-proxier", "system:kube-scheduler", "system:kube-controller-manager", "system:kube-dns",
                "system:persistent-volume-provisioner", "system:auth-delegator", "system:heapster", "system:monitoring",
                "system:certificates.k8s.io:kubelet-serving-approver", "system:service-account-issuer-discovery",
                "system:volume-scheduler", "system:aggregate-to-view", "system:controller:namespace-controller")) {
            fixture.get(RBAC, "clusterroles", "", name);
        }
        ObjectNode publicInfo = fixture.get(RBAC, "clusterrolebindings", "", "system:public-info-viewer");
        assertEquals(2, publicInfo.path("subjects").size());
        assertEquals("system:unauthenticated", publicInfo.path("subjects").path(1).path("name").asText());
        ObjectNode gc = fixture.get(RBAC, "clusterrolebindings", "", "system:controller:generic-garbage-collector");
        assertEquals(json("[{\"kind\":\"ServiceAccount\",\"name\":\"generic-garbage-collector\",\"namespace\":\"kube-system\"}]"),
                gc.path("subjects"));
        assertEquals(RbacPolicy.load().clusterRoleBindings().size(), fixture.list(RBAC, "clusterrolebindings").size());
    }

    @Test
    @DisplayName("creates the namespaced roles and bindings in kube-system and kube-public")
    void namespacedRoles() {
        hook.run();
        ObjectNode reader = fixture.get(RBAC, "roles", "kube-system", "extension-apiserver-authentication-reader");
        assertEquals("extension-apiserver-authentication", reader.path("rules").path(0).path("resourceNames").path(0).asText());
        fixture.get(RBAC, "roles", "kube-system", "system::leader-locking-kube-scheduler");
        fixture.get(RBAC, "roles", "kube-public", "system:controller:bootstrap-signer");
        ObjectNode binding = fixture.get(RBAC, "rolebindings", "kube-system", "system::extension-apiserver-authentication-reader");
        assertEquals("Role", binding.path("roleRef").path("kind").asText());
        assertEquals(2, binding.path("subjects").size());
    }

    @Test
    @DisplayName("running twice changes nothing")
    void idempotent() {
        hook.run();
        List<ObjectNode> before = fixture.list(RBAC, "clusterroles");
        hook.run();
        assertEquals(before, fixture.list(RBAC, "clusterroles"));
        assertEquals(RbacPolicy.load().clusterRoles().size(), before.size());
    }

    @Test
    @DisplayName("restart adds back removed rules and subjects, keeps additions, skips autoupdate=false")
    void reconciles() {
        hook.run();
        var roles = fixture.store(RBAC, "clusterroles");
        Stores.update(roles, "", "system:discovery", r -> {
            ObjectNode rule = r.putArray("rules").addObject();
            rule.putArray("verbs").add("get");
            rule.putArray("nonResourceURLs").add("/extra");
            return r;
        });
        Stores.update(roles, "", "system:kube-dns", r -> {
            r.putArray("rules");
            ((ObjectNode) r.path("metadata").path("annotations")).put(RbacPolicy.AUTOUPDATE_ANNOTATION, "false");
            return r;
        });
        var bindings = fixture.store(RBAC, "clusterrolebindings");
        Stores.update(bindings, "", "system:basic-user", b -> {
            b.putArray("subjects");
            return b;
        });
        hook.run();
        ObjectNode discovery = roles.get("", "system:discovery");
        assertEquals(2, discovery.path("rules").size(), "the user's rule is kept and kube's added back");
        assertEquals("/extra", discovery.path("rules").path(0).path("nonResourceURLs").path(0).asText());
        assertTrue(roles.get("", "system:kube-dns").path("rules").isEmpty(), "autoupdate=false is left alone");
        assertEquals(1, bindings.get("", "system:basic-user").path("subjects").size());
    }

    @Test
    @DisplayName("aggregation picks up a new role labelled aggregate-to-view")
    void aggregationFollowsNewRoles() {
        hook.run();
        ObjectNode custom = Json.object();
        custom.put("apiVersion", RbacPolicy.API_VERSION);
        custom.put("kind", "ClusterRole");
        custom.putObject("metadata").put("name", "widgets-view").putObject("labels")
                .put("rbac.authorization.k8s.io/aggregate-to-view", "true");
        custom.putArray("rules").add(json("{\"verbs\":[\"get\"],\"apiGroups\":[\"example.com\"],\"resources\":[\"widgets\"]}"));
        fixture.store(RBAC, "clusterroles").create("", custom);
        assertTrue(aggregation.reconcileAll() >= 3, "view, edit and admin change");
        assertTrue(hasRule(fixture.get(RBAC, "clusterroles", "", "admin"), "widgets", "get"));
        assertEquals(0, aggregation.reconcileAll());
    }

    private static boolean hasRule(ObjectNode role, String resource, String verb) {
        for (JsonNode rule : role.path("rules")) {
            boolean r = false;
            boolean v = false;
            for (JsonNode x : rule.path("resources")) {
                r |= x.asText().equals(resource);
            }
            for (JsonNode x : rule.path("verbs")) {
                v |= x.asText().equals(verb);
            }
            if (r && v) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
