package io.kapi.machinery.apply;

import static io.kapi.machinery.apply.Fixtures.CONFIGMAPS;
import static io.kapi.machinery.apply.Fixtures.DEPLOYMENT;
import static io.kapi.machinery.apply.Fixtures.DEPLOYMENTS;
import static io.kapi.machinery.apply.Fixtures.PODS;
import static io.kapi.machinery.apply.Fixtures.at;
import static io.kapi.machinery.apply.Fixtures.fieldsOf;
import static io.kapi.machinery.apply.Fixtures.json;
import static io.kapi.machinery.apply.Fixtures.managers;
import static io.kapi.machinery.apply.Fixtures.stored;
import static io.kapi.machinery.apply.Fixtures.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.StatusCause;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ApplyTest {

    private static final String DOCS_CONFIGMAP = """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: test-cm
              namespace: default
              labels:
                test-label: test
            data:
              key: some value
            """;

    private static ObjectNode applyNew(FieldManager fm, String config, String manager) {
        ApplyResult r = fm.apply(null, yaml(config), manager, "", false, at(0));
        assertTrue(r.created());
        return stored(r.object());
    }

    private static ObjectNode deploymentWith(String manager) {
        return applyNew(DEPLOYMENTS, DEPLOYMENT, manager);
    }

    @Test
    @DisplayName("apply on nothing should create the object owned by the applier (Server-Side Apply docs)")
    void applyCreates() {
        ApplyResult r = CONFIGMAPS.apply(null, yaml(DOCS_CONFIGMAP), "kubectl", "", false, at(0));
        assertTrue(r.created());
        assertTrue(r.changed());
        assertEquals("some value", r.object().at("/data/key").asText());
        assertEquals("kubectl/Apply", managers(r.object()));
        assertEquals(json("{\"f:data\":{\"f:key\":{}},\"f:metadata\":{\"f:labels\":{\"f:test-label\":{}}}}"),
                fieldsOf(r.object(), "kubectl", "Apply"));
        assertEquals(json("""
                {"manager":"kubectl","operation":"Apply","apiVersion":"v1","time":"2026-01-01T00:00:00Z",
                 "fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:key":{}},"f:metadata":{"f:labels":{"f:test-label":{}}}}}"""),
                r.object().at("/metadata/managedFields/0"));
    }

    @Test
    @DisplayName("re-applying the same configuration should change nothing, managedFields and time included")
    void reapplyIsNoop() {
        ObjectNode live = deploymentWith("kubectl");
        ApplyResult r = DEPLOYMENTS.apply(live, yaml(DEPLOYMENT), "kubectl", "", false, at(30));
        assertFalse(r.changed());
        assertFalse(r.created());
        assertEquals(live, r.object());
    }

    @Test
    @DisplayName("applying a changed value should change the object and the entry's time")
    void applyChange() {
        ObjectNode live = deploymentWith("kubectl");
        ObjectNode config = yaml(DEPLOYMENT);
        config.with("spec").put("replicas", 5);
        ApplyResult r = DEPLOYMENTS.apply(live, config, "kubectl", "", false, at(30));
        assertTrue(r.changed());
        assertEquals(5, r.object().at("/spec/replicas").asInt());
        assertEquals("2026-01-01T00:00:30Z", r.object().at("/metadata/managedFields/0/time").asText());
        assertEquals("6b2f6a8e-0000-4000-8000-000000000001", r.object().at("/metadata/uid").asText());
    }

    @Test
    @DisplayName("a field the applier no longer applies should be removed, unless another manager owns it")
    void prunesWhatIsNoLongerApplied() {
        ObjectNode live = deploymentWith("kubectl");
        ObjectNode config = yaml(DEPLOYMENT);
        config.with("metadata").remove("labels");
        config.with("spec").remove("replicas");
        ObjectNode out = DEPLOYMENTS.apply(live, config, "kubectl", "", false, at(10)).object();
        assertFalse(out.path("metadata").has("labels"));
        assertFalse(out.path("spec").has("replicas"));
        assertEquals("web", out.at("/metadata/name").asText());
        assertEquals("nginx:1.27", out.at("/spec/template/spec/containers/0/image").asText());

        // the same, but an updater also owns replicas: it stays
        ObjectNode scaled = live.deepCopy();
        scaled.with("spec").put("replicas", 3);
        scaled = DEPLOYMENTS.recordUpdate(live, scaled, "kube-controller-manager", "", at(5));
        ObjectNode kept = DEPLOYMENTS.apply(scaled, config, "kubectl", "", false, at(10)).object();
        assertEquals(3, kept.at("/spec/replicas").asInt());
        assertEquals("kube-controller-manager/Update", managers(kept).split(", ")[1]);
    }

    @Test
    @DisplayName("a value owned by another manager should conflict, worded as kube-apiserver")
    void conflict() {
        ObjectNode live = deploymentWith("kubectl");
        ObjectNode scaled = live.deepCopy();
        scaled.with("spec").put("replicas", 3);
        scaled = DEPLOYMENTS.recordUpdate(live, scaled, "kubectl-client-side-apply", "", at(5));
        ObjectNode config = yaml(DEPLOYMENT);
        ObjectNode current = scaled;
        ApiException e = assertThrows(ApiException.class,
                () -> DEPLOYMENTS.apply(current, config, "other", "", false, at(9)));
        assertEquals(409, e.code());
        assertEquals("Conflict", e.reason().wire());
        assertEquals("Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: "
                + ".spec.replicas", e.getMessage());
        assertEquals(new StatusCause("FieldManagerConflict", "conflict with \"kubectl-client-side-apply\" using apps/v1",
                ".spec.replicas"), e.details().causes().getFirst());
    }

    @Test
    @DisplayName("several conflicts should be listed per manager, managers sorted, as kube-apiserver does")
    void severalConflicts() {
        ObjectNode live = deploymentWith("alpha");
        ObjectNode config = yaml(DEPLOYMENT);
        config.with("spec").put("replicas", 9);
        config.with("metadata").with("labels").put("app", "other");
        ObjectNode scaled = live.deepCopy();
        scaled.with("spec").put("replicas", 4);
        ObjectNode current = DEPLOYMENTS.recordUpdate(live, scaled, "hpa", "", at(3));
        ApiException e = assertThrows(ApiException.class,
                () -> DEPLOYMENTS.apply(current, config, "beta", "", false, at(9)));
        assertEquals("""
                Apply failed with 2 conflicts: conflicts with "alpha":
                - .metadata.labels.app
                conflicts with "hpa" using apps/v1:
                - .spec.replicas""", e.getMessage());
        assertEquals(2, e.details().causes().size());
    }

    @Test
    @DisplayName("force should take the field over: the value changes and the other manager loses it")
    void forceTakesOwnership() {
        ObjectNode live = deploymentWith("alpha");
        ObjectNode config = yaml("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: default}
                spec: {replicas: 7}
                """);
        ApplyResult r = DEPLOYMENTS.apply(live, config, "beta", "", true, at(9));
        assertEquals(7, r.object().at("/spec/replicas").asInt());
        assertEquals(json("{\"f:spec\":{\"f:replicas\":{}}}"), fieldsOf(r.object(), "beta", "Apply"));
        assertFalse(fieldsOf(r.object(), "alpha", "Apply").path("f:spec").has("f:replicas"));
    }

    @Test
    @DisplayName("applying the value another manager set should share the field without conflict")
    void sharedOwnership() {
        ObjectNode live = deploymentWith("alpha");
        ApplyResult r = DEPLOYMENTS.apply(live, yaml(DEPLOYMENT), "beta", "", false, at(9));
        assertFalse(r.changed());
        assertEquals(fieldsOf(r.object(), "alpha", "Apply"), fieldsOf(r.object(), "beta", "Apply"));
        // the object did not change: the new entry has no time, and so sorts first
        assertEquals("beta/Apply, alpha/Apply", managers(r.object()));
        assertNull(r.object().at("/metadata/managedFields/0").get("time"));
    }

    @Test
    @DisplayName("containers should merge by name: a second applier adds its own and conflicts on others'")
    void containersMergeByName() {
        ObjectNode live = deploymentWith("alpha");
        ObjectNode sidecar = yaml("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: default}
                spec:
                  template:
                    spec:
                      containers:
                      - name: proxy
                        image: envoy:1
                        ports: [{containerPort: 8080}]
                """);
        ObjectNode out = DEPLOYMENTS.apply(live, sidecar, "mesh", "", false, at(4)).object();
        assertEquals("nginx", out.at("/spec/template/spec/containers/0/name").asText());
        assertEquals("proxy", out.at("/spec/template/spec/containers/1/name").asText());
        assertEquals(json("""
                {"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"proxy\\"}":{".":{},"f:image":{},\
                "f:name":{},"f:ports":{"k:{\\"containerPort\\":8080,\\"protocol\\":\\"TCP\\"}":{".":{},\
                "f:containerPort":{}}}}}}}}}"""), fieldsOf(out, "mesh", "Apply"));

        ObjectNode retag = yaml("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: default}
                spec:
                  template:
                    spec:
                      containers:
                      - {name: nginx, image: nginx:2}
                """);
        ApiException e = assertThrows(ApiException.class,
                () -> DEPLOYMENTS.apply(out, retag, "mesh", "", false, at(5)));
        assertEquals("Apply failed with 1 conflict: conflict with \"alpha\": "
                + ".spec.template.spec.containers[name=\"nginx\"].image", e.getMessage());

        // the mesh stops applying its sidecar: it goes, nginx stays
        ObjectNode none = yaml("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: default}
                """);
        ObjectNode after = DEPLOYMENTS.apply(out, none, "mesh", "", false, at(6)).object();
        assertEquals(1, after.at("/spec/template/spec/containers").size());
        assertEquals("nginx", after.at("/spec/template/spec/containers/0/name").asText());
    }

    @Test
    @DisplayName("a set should merge by value: each applier keeps and removes only its own items")
    void setsMergeByValue() {
        String base = """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: cm, namespace: default, finalizers: [%s]}
                """;
        ObjectNode live = applyNew(CONFIGMAPS, base.formatted("example.com/a"), "a");
        live = CONFIGMAPS.apply(live, yaml(base.formatted("example.com/b")), "b", "", false, at(1)).object();
        assertEquals(json("[\"example.com/a\",\"example.com/b\"]"), live.at("/metadata/finalizers"));
        assertEquals(json("{\"f:metadata\":{\"f:finalizers\":{\"v:\\\"example.com/b\\\"\":{}}}}"),
                fieldsOf(live, "b", "Apply"));
        ObjectNode out = CONFIGMAPS.apply(live, yaml(base.formatted("")), "a", "", false, at(2)).object();
        assertEquals(json("[\"example.com/b\"]"), out.at("/metadata/finalizers"));
    }

    @Test
    @DisplayName("an atomic list should be replaced whole and owned whole")
    void atomicList() {
        String pod = """
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: default}
                spec:
                  containers:
                  - name: c
                    image: busybox
                    args: [%s]
                """;
        ObjectNode live = applyNew(PODS, pod.formatted("sleep, '10'"), "a");
        assertEquals(json("{}"), fieldsOf(live, "a", "Apply")
                .at("/f:spec/f:containers/k:{\"name\":\"c\"}/f:args"));
        ApiException e = assertThrows(ApiException.class,
                () -> PODS.apply(live, yaml(pod.formatted("sleep")), "b", "", false, at(1)));
        assertEquals("Apply failed with 1 conflict: conflict with \"a\": .spec.containers[name=\"c\"].args",
                e.getMessage());
        ObjectNode forced = PODS.apply(live, yaml(pod.formatted("sleep")), "b", "", true, at(1)).object();
        assertEquals(json("[\"sleep\"]"), forced.at("/spec/containers/0/args"));
    }

    @Test
    @DisplayName("granular maps should merge key by key; atomic maps should be replaced and conflict whole")
    void granularAndAtomicMaps() {
        String pod = """
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: default, labels: {%s}}
                spec:
                  nodeSelector: {%s}
                """;
        ObjectNode live = applyNew(PODS, pod.formatted("a: '1'", "disk: ssd"), "a");
        ObjectNode out = PODS.apply(live, yaml("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: default, labels: {b: '2'}}
                """), "b", "", false, at(1)).object();
        assertEquals(json("{\"a\":\"1\",\"b\":\"2\"}"), out.at("/metadata/labels"));
        assertEquals(json("{}"), fieldsOf(out, "a", "Apply").at("/f:spec/f:nodeSelector"));

        ApiException e = assertThrows(ApiException.class,
                () -> PODS.apply(out, yaml(pod.formatted("", "zone: z1")), "b", "", false, at(2)));
        assertEquals("Apply failed with 1 conflict: conflict with \"a\": .spec.nodeSelector", e.getMessage());
        ObjectNode forced = PODS.apply(out, yaml(pod.formatted("", "zone: z1")), "b", "", true, at(2)).object();
        assertEquals(json("{\"zone\":\"z1\"}"), forced.at("/spec/nodeSelector"));
    }

    @Test
    @DisplayName("the first apply to an untracked object should conflict with before-first-apply")
    void beforeFirstApply() {
        ObjectNode live = stored(yaml(DEPLOYMENT));
        ObjectNode config = yaml(DEPLOYMENT);
        config.with("spec").put("replicas", 6);
        ApiException e = assertThrows(ApiException.class,
                () -> DEPLOYMENTS.apply(live, config, "ci", "", false, at(1)));
        assertEquals("Apply failed with 1 conflict: conflict with \"before-first-apply\" using apps/v1: .spec.replicas",
                e.getMessage());
        ApplyResult same = DEPLOYMENTS.apply(live, yaml(DEPLOYMENT), "ci", "", false, at(1));
        assertEquals("ci/Apply, before-first-apply/Update", managers(same.object()));
    }

    @Test
    @DisplayName("kubectl apply --server-side over client-side apply should take its fields over and keep "
            + "last-applied in step")
    void upgradeFromClientSideApply() {
        ObjectNode csa = yaml(DEPLOYMENT);
        csa.with("metadata").with("annotations").put(LastApplied.ANNOTATION,
                Values.goJson(yaml(DEPLOYMENT)) + "\n");
        ObjectNode live = stored(DEPLOYMENTS.recordUpdate(null, csa, "kubectl-client-side-apply", "", at(0)));
        ObjectNode config = yaml(DEPLOYMENT);
        config.with("spec").put("replicas", 4);

        ApiException e = assertThrows(ApiException.class,
                () -> DEPLOYMENTS.apply(live, config, "helm", "", false, at(1)));
        assertTrue(e.getMessage().startsWith("Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" "
                + "using apps/v1: .spec.replicas"), e.getMessage());

        ApplyResult r = DEPLOYMENTS.apply(live, config, "kubectl", "", false, at(1));
        assertEquals(4, r.object().at("/spec/replicas").asInt());
        assertTrue(fieldsOf(r.object(), "kubectl", "Apply").at("/f:spec").has("f:replicas"));
        assertFalse(fieldsOf(r.object(), "kubectl-client-side-apply", "Update").at("/f:spec").has("f:replicas"));
        String annotation = r.object().at("/metadata/annotations").get(LastApplied.ANNOTATION).asText();
        assertEquals(Values.goJson(config) + "\n", annotation);
        assertTrue(annotation.startsWith("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":"));
    }

    @Test
    @DisplayName("a field changed since the last client-side apply should still conflict for kubectl")
    void clientSideApplyDriftStillConflicts() {
        ObjectNode csa = yaml(DEPLOYMENT);
        csa.with("metadata").with("annotations").put(LastApplied.ANNOTATION, Values.goJson(yaml(DEPLOYMENT)) + "\n");
        ObjectNode live = stored(DEPLOYMENTS.recordUpdate(null, csa, "kubectl-client-side-apply", "", at(0)));
        ObjectNode drifted = live.deepCopy();
        drifted.with("spec").put("replicas", 8);
        ObjectNode current = DEPLOYMENTS.recordUpdate(live, drifted, "kubectl-client-side-apply", "", at(1));
        ObjectNode config = yaml(DEPLOYMENT);
        config.with("spec").put("replicas", 4);
        ApiException e = assertThrows(ApiException.class,
                () -> DEPLOYMENTS.apply(current, config, "kubectl", "", false, at(2)));
        assertEquals(".spec.replicas", e.details().causes().getFirst().field());
    }

    @Test
    @DisplayName("apply should leave its inputs alone and share no node with them")
    void inputsUntouched() {
        ObjectNode csa = yaml(DEPLOYMENT);
        csa.with("metadata").with("annotations").put(LastApplied.ANNOTATION, "{}");
        ObjectNode live = stored(DEPLOYMENTS.recordUpdate(null, csa, "kubectl-client-side-apply", "", at(0)));
        ObjectNode liveBefore = live.deepCopy();
        ObjectNode config = yaml(DEPLOYMENT);
        config.with("spec").put("replicas", 4);
        ObjectNode configBefore = config.deepCopy();
        ObjectNode out = DEPLOYMENTS.apply(live, config, "kubectl", "", true, at(1)).object();
        ((ObjectNode) out.at("/spec/template/spec/containers/0")).put("image", "mutated");
        out.with("metadata").with("annotations").put("x", "y");
        assertEquals(liveBefore, live);
        assertEquals(configBefore, config);
    }

    @Test
    @DisplayName("a configuration of another kind or version should be 400 invalid object type")
    void wrongKind() {
        ObjectNode config = yaml(DEPLOYMENT);
        config.put("apiVersion", "apps/v1beta1");
        ApiException e = assertThrows(ApiException.class, () -> DEPLOYMENTS.apply(null, config, "m", "", false, at(0)));
        assertEquals(400, e.code());
        assertEquals("invalid object type: apps/v1beta1, Kind=Deployment", e.getMessage());
        ObjectNode pod = yaml("{apiVersion: v1, kind: Pod, metadata: {name: x}}");
        assertEquals("invalid object type: /v1, Kind=Pod", assertThrows(ApiException.class,
                () -> DEPLOYMENTS.apply(null, pod, "m", "", false, at(0))).getMessage());
    }

    @Test
    @DisplayName("a configuration carrying managedFields should be 400")
    void managedFieldsInConfig() {
        ObjectNode config = yaml(DEPLOYMENT);
        config.with("metadata").putArray("managedFields");
        ApiException e = assertThrows(ApiException.class, () -> DEPLOYMENTS.apply(null, config, "m", "", false, at(0)));
        assertEquals("metadata.managedFields must be nil", e.getMessage());
    }

    @Test
    @DisplayName("a field the schema does not declare should fail with kube's typed patch message, as 400 (kube: 500)")
    void undeclaredField() {
        ObjectNode config = yaml(DOCS_CONFIGMAP);
        config.with("dataa").put("k", "v");
        ApiException e = assertThrows(ApiException.class, () -> CONFIGMAPS.apply(null, config, "m", "", false, at(0)));
        assertEquals(400, e.code());
        assertEquals("failed to create typed patch object (/v1, Kind=ConfigMap): .dataa: field not declared in schema",
                e.getMessage());
    }

    @Test
    @DisplayName("duplicate keys in an applied list should be rejected")
    void duplicateKeys() {
        ObjectNode config = yaml("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec:
                  containers:
                  - {name: a, image: x}
                  - {name: a, image: y}
                """);
        ApiException e = assertThrows(ApiException.class, () -> PODS.apply(null, config, "m", "", false, at(0)));
        assertEquals("failed to create typed patch object (/v1, Kind=Pod): .spec.containers: duplicate entries for key "
                + "[name=\"a\"]", e.getMessage());
    }

    @Test
    @DisplayName("an apply on the status subresource should get its own entry")
    void statusApply() {
        ObjectNode live = deploymentWith("kubectl");
        ObjectNode status = yaml("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: default}
                status: {replicas: 2}
                """);
        ObjectNode out = DEPLOYMENTS.apply(live, status, "controller", "status", false, at(3)).object();
        assertEquals("kubectl/Apply, controller/Apply/status", managers(out));
        assertEquals(2, out.at("/status/replicas").asInt());
    }
}
