package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.apiextensions.serving.CrdController;
import io.kapi.harness.ApiHarness;
import io.kapi.machinery.DecodeBudget;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Objects nested as deep as Go's decoder allows (10,000 levels) are served as kube-apiserver serves them —
 * created, read as JSON, YAML and Table, watched, replaced, patched three ways and applied — each request on
 * a thread with the stack bin/kapi gives request threads (-Xss512k); one level more is Go's 400. A CRD whose
 * schema nests 200 levels (a JSON document over 400 deep, with managed fields as deep) and one nesting
 * thousands are served too.
 */
@DisplayName("objects as deep as Go's decoder allows are served, one level more is 400")
class DeepObjectsTest {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";
    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static ApiHarness api;

    @BeforeAll
    static void start() {
        api = new ApiHarness();
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    /** {@code levels} objects nested in one another, {@code inner} at the bottom. */
    private static String nested(String open, int levels, String inner) {
        return open.repeat(levels) + inner + "}".repeat(levels);
    }

    /** A ConfigMap whose body nests {@code depth} levels in all, in a managed-fields entry (free-form JSON). */
    private static String configMap(String name, int depth) {
        // the body, metadata, managedFields, its entry and fieldsV1 are five levels; fieldsV1's innermost {} one
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\",\"managedFields\":"
                + "[{\"manager\":\"m\",\"operation\":\"Update\",\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV1\","
                + "\"fieldsV1\":" + nested("{\"f:a\":", depth - 5, "{}") + "}]},\"data\":{\"k\":\"v\"}}";
    }

    /** A request on a thread with bin/kapi's 512 KiB stack, which bounds the virtual threads serving requests. */
    private static ApiHarness.Reply onRequestThread(Supplier<ApiHarness.Reply> request) throws Exception {
        return onStack(512 * 1024, request);
    }

    private static ApiHarness.Reply onStack(long bytes, Supplier<ApiHarness.Reply> request) throws Exception {
        AtomicReference<Object> out = new AtomicReference<>();
        Thread thread = new Thread(null, () -> {
            try {
                out.set(request.get());
            } catch (Throwable e) {
                out.set(e);
            }
        }, "request", bytes);
        thread.start();
        thread.join();
        if (out.get() instanceof Throwable t) {
            throw new AssertionError("the request failed with " + t, t);
        }
        return (ApiHarness.Reply) out.get();
    }

    private static void assertServed(int code, ApiHarness.Reply reply, String what) {
        assertEquals(code, reply.code(), what + ": " + reply.text().substring(0, Math.min(300, reply.text().length())));
    }

    private static int depth(JsonNode node) {
        int deepest = 0;
        java.util.ArrayDeque<Object[]> open = new java.util.ArrayDeque<>();
        open.push(new Object[] {node, 1});
        while (!open.isEmpty()) {
            Object[] f = open.pop();
            JsonNode n = (JsonNode) f[0];
            if (n.isContainerNode()) {
                deepest = Math.max(deepest, (int) f[1]);
                n.forEach(c -> open.push(new Object[] {c, (int) f[1] + 1}));
            }
        }
        return deepest;
    }

    @Test
    @DisplayName("a ConfigMap of 10,000 levels: create, get (JSON, YAML, Table), watch, update, patch (merge, strategic, JSON), apply")
    void builtInAtTheLimit() throws Exception {
        int limit = DecodeBudget.MAX_DEPTH;
        String body = configMap("deep", limit);
        ApiHarness.Reply created = onRequestThread(() -> api.post(CMS, body));
        assertServed(201, created, "create");
        assertEquals(limit, depth(created.body()));
        ApiHarness.Reply got = onRequestThread(() -> api.get(CMS + "/deep"));
        assertServed(200, got, "get");
        assertEquals(limit, depth(got.body()));
        assertServed(200, onRequestThread(() -> api.call(ApiHarness.ADMIN, "GET", CMS + "/deep", null, "application/yaml",
                "")), "get as YAML");
        assertServed(200, onRequestThread(() -> api.call(ApiHarness.ADMIN, "GET", CMS, null,
                "application/json;as=Table;v=v1;g=meta.k8s.io", "")), "list as Table");
        assertTrue(onRequestThread(() -> api.get(CMS + "?watch=true&resourceVersion=0&timeoutSeconds=1"
                + "&fieldSelector=metadata.name%3Ddeep")).text().startsWith("{\"type\":\"ADDED\""), "watch");
        assertServed(200, onRequestThread(() -> api.put(CMS + "/deep", body)), "update");
        assertServed(200, onRequestThread(() -> api.patch(CMS + "/deep", "application/merge-patch+json",
                "{\"data\":{\"x\":\"1\"}}")), "merge patch");
        assertServed(200, onRequestThread(() -> api.patch(CMS + "/deep", "application/strategic-merge-patch+json",
                "{\"data\":{\"x\":\"2\"}}")), "strategic merge patch");
        assertServed(200, onRequestThread(() -> api.patch(CMS + "/deep", "application/json-patch+json",
                "[{\"op\":\"add\",\"path\":\"/data/y\",\"value\":\"3\"}]")), "JSON patch");
        assertServed(200, onRequestThread(() -> api.patch(CMS + "/deep?fieldManager=x", "application/apply-patch+yaml",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"deep\"},\"data\":{\"k\":\"v\"}}")),
                "apply");
        ApiHarness.Reply tooDeep = onRequestThread(() -> api.post(CMS, configMap("deeper", limit + 1)));
        assertServed(400, tooDeep, "one level more");
        assertTrue(tooDeep.body().path("message").asText().contains("json parse error: invalid character '{' exceeded max depth"),
                tooDeep.text());
    }

    @Test
    @DisplayName("objects walked on the request's own stack (up to DeepStack's 256 levels) have room twice over: "
            + "every operation on a 256 KiB stack")
    void shallowOnHalfTheStack() throws Exception {
        int levels = io.kapi.machinery.DeepStack.SHALLOW_DEPTH;
        String body = configMap("shallow", levels);
        long stack = 256 * 1024;
        assertServed(201, onStack(stack, () -> api.post(CMS, body)), "create");
        assertServed(200, onStack(stack, () -> api.get(CMS + "/shallow")), "get");
        assertServed(200, onStack(stack, () -> api.call(ApiHarness.ADMIN, "GET", CMS + "/shallow", null,
                "application/yaml", "")), "get as YAML");
        assertServed(200, onStack(stack, () -> api.put(CMS + "/shallow", body)), "update");
        assertServed(200, onStack(stack, () -> api.patch(CMS + "/shallow", "application/strategic-merge-patch+json",
                "{\"data\":{\"x\":\"2\"}}")), "strategic merge patch");
        assertServed(200, onStack(stack, () -> api.patch(CMS + "/shallow?fieldManager=x", "application/apply-patch+yaml",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"shallow\"},"
                        + "\"data\":{\"k\":\"v\"}}")), "apply");
        assertServed(200, onStack(stack, () -> api.delete(CMS + "/shallow")), "delete");
    }

    @Test
    @DisplayName("patches and applied configurations nesting thousands of levels are applied")
    void deepPatches() throws Exception {
        assertServed(201, onRequestThread(() -> api.post(CMS, configMap("patched", 10))), "create");
        String deep = nested("{\"f:b\":", 5_000, "{}");
        assertServed(200, onRequestThread(() -> api.patch(CMS + "/patched", "application/merge-patch+json",
                "{\"metadata\":{\"managedFields\":[{\"manager\":\"m\",\"operation\":\"Update\",\"apiVersion\":\"v1\","
                        + "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":" + deep + "}]}}")), "merge patch");
        assertServed(200, onRequestThread(() -> api.patch(CMS + "/patched", "application/json-patch+json",
                "[{\"op\":\"replace\",\"path\":\"/metadata/managedFields/0/fieldsV1\",\"value\":" + deep + "}]")),
                "JSON patch");
    }

    private static void createCrd(String crd) throws Exception {
        assertServed(201, onRequestThread(() -> api.post(CRDS, crd)), "CRD create");
        api.assembly().hooks().stream().filter(CrdController.class::isInstance).map(CrdController.class::cast)
                .findFirst().orElseThrow().syncAll();
    }

    private static String crd(String plural, String kind, String specSchema) {
        return """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"%s.example.com"},
                 "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"%s","kind":"%s"},
                  "versions":[{"name":"v1","served":true,"storage":true,
                   "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":%s}}}}]}}"""
                .formatted(plural, plural, kind, specSchema);
    }

    /** A schema of {@code levels} objects nested through property {@code a}, a string at the bottom. */
    private static String nestedSchema(int levels) {
        return "{\"type\":\"object\",\"properties\":{\"a\":".repeat(levels) + "{\"type\":\"string\"}" + "}}".repeat(levels);
    }

    @Test
    @DisplayName("a custom resource nesting 9,990 levels in a free-form field: create, get, patch, apply, watch")
    void customResource() throws Exception {
        createCrd(crd("frees", "Free", "{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true,"
                + "\"x-kubernetes-validations\":[{\"rule\":\"self == oldSelf || true\"}]}"));
        String frees = "/apis/example.com/v1/namespaces/default/frees";
        String cr = "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Free\",\"metadata\":{\"name\":\"f\"},\"spec\":{\"x\":"
                + nested("{\"a\":", 9_990, "[1]") + "}}";
        assertServed(201, onRequestThread(() -> api.post(frees, cr)), "create");
        assertServed(200, onRequestThread(() -> api.get(frees + "/f")), "get");
        assertServed(200, onRequestThread(() -> api.patch(frees + "/f", "application/merge-patch+json",
                "{\"spec\":{\"y\":1}}")), "merge patch");
        assertServed(200, onRequestThread(() -> api.patch(frees + "/f?fieldManager=x&force=true",
                "application/apply-patch+yaml", cr.replace("[1]", "[2]"))), "apply");
        assertTrue(onRequestThread(() -> api.get(frees + "?watch=true&resourceVersion=0&timeoutSeconds=1")).text()
                .startsWith("{\"type\":\"ADDED\""), "watch");
    }

    @Test
    @DisplayName("CRDs whose schemas nest 200 and 4,990 levels (a 10,000-level document) are created, served and published, with their resources")
    void deepSchemas() throws Exception {
        for (int levels : new int[] {200, 4_990}) {
            String plural = "s" + levels;
            createCrd(crd(plural, "S" + levels, nestedSchema(levels)));
            String path = "/apis/example.com/v1/namespaces/default/" + plural;
            assertServed(201, onRequestThread(() -> api.post(path, "{\"metadata\":{\"name\":\"x\"},\"spec\":"
                    + nested("{\"a\":", levels, "\"leaf\"") + "}")), plural + " create");
            ApiHarness.Reply wrong = onRequestThread(() -> api.post(path, "{\"metadata\":{\"name\":\"y\"},\"spec\":"
                    + nested("{\"a\":", levels, "1") + "}"));
            assertServed(422, wrong, plural + " wrong type at the bottom");
            // a shallow resource of a deep schema is worked on the request stack: what is built from the
            // schema (types for managed fields and apply, CEL and validation) must not recurse through it there
            assertServed(201, onRequestThread(() -> api.post(path, "{\"metadata\":{\"name\":\"z\"},\"spec\":"
                    + "{\"a\":{\"a\":{}}}}")), plural + " shallow create");
            assertServed(200, onRequestThread(() -> api.patch(path + "/z?fieldManager=a", "application/apply-patch+yaml",
                    "{\"apiVersion\":\"example.com/v1\",\"kind\":\"S" + levels + "\",\"metadata\":{\"name\":\"z\"},"
                            + "\"spec\":{\"a\":{\"a\":{\"a\":{}}}}}")), plural + " shallow apply");
            assertServed(200, onRequestThread(() -> api.patch(path + "/z", "application/merge-patch+json",
                    "{\"spec\":{\"a\":{\"b\":1}}}")), plural + " shallow merge patch");
            assertServed(200, onRequestThread(() -> api.get(CRDS + "/" + plural + ".example.com")), plural + " get");
        }
        // a version converted on read is defaulted by its schema (and pruned), walks that follow the schema down
        String schema = "\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\",\"properties\":{\"spec\":"
                + nestedSchema(4_990) + "}}}";
        createCrd("""
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"reads.example.com"},
                 "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"reads","kind":"Read"},
                  "versions":[{"name":"v1","served":true,"storage":true,%s},{"name":"v2","served":true,"storage":false,%s}]}}"""
                .formatted(schema, schema));
        assertServed(201, onRequestThread(() -> api.post("/apis/example.com/v1/namespaces/default/reads",
                "{\"metadata\":{\"name\":\"r\"},\"spec\":" + nested("{\"a\":", 4_990, "\"leaf\"") + "}")), "create");
        for (String read : new String[] {"/apis/example.com/v2/namespaces/default/reads/r",
                "/apis/example.com/v2/namespaces/default/reads"}) {
            assertServed(200, onStack(256 * 1024, () -> api.get(read)), "read as v2 on half the request stack");
        }
        assertServed(200, onRequestThread(() -> api.get("/openapi/v3/apis/example.com/v1")), "OpenAPI v3");
        assertServed(200, onRequestThread(() -> api.get("/openapi/v2")), "OpenAPI v2");
    }
}
