package io.kapi.endpoint.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Server-side apply over HTTP, against kube-apiserver's patch handler ({@code endpoints/handlers/patch.go}:
 * the apply runs on the stored object, or on an empty one to create, then the uid, namespace and name of
 * the result are checked) and its field manager ({@code util/managedfields}: conflicts, reset fields).
 */
class ApplyHandlerTest {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";
    private static final String PODS = "/api/v1/namespaces/default/pods";
    private static final String APPLY = "application/apply-patch+yaml";

    @InMemoryApi
    private static ApiHarness api;

    private static String cm(String metadata, String data) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{" + metadata + "},\"data\":{" + data + "}}";
    }

    private static ApiHarness.Reply apply(String path, String body) {
        return api.patch(path, APPLY, body);
    }

    private static void assertStatus(int code, String reason, String message, ApiHarness.Reply reply) {
        assertEquals(code, reply.code(), reply.text());
        assertEquals(reason, reply.body().path("reason").asText(), reply.text());
        assertEquals(message, reply.body().path("message").asText());
    }

    @Test
    @DisplayName("apply with no name creates nothing: 400, the empty name does not match the URL's, even with generateName")
    void createNeedsName() {
        assertStatus(400, "BadRequest", "the name of the object () does not match the name on the URL (gen)",
                apply(CMS + "/gen?fieldManager=m", cm("\"generateName\":\"gen-\"", "\"a\":\"1\"")));
        assertStatus(400, "BadRequest", "the name of the object () does not match the name on the URL (bare)",
                apply(CMS + "/bare?fieldManager=m", cm("\"labels\":{\"x\":\"y\"}", "\"a\":\"1\"")));
        assertEquals(404, api.get(CMS + "/gen").code());
        assertEquals(404, api.get(CMS + "/bare").code());
        assertStatus(400, "BadRequest", "the name of the object (other) does not match the name on the URL (gen)",
                apply(CMS + "/gen?fieldManager=m", cm("\"name\":\"other\"", "\"a\":\"1\"")));
    }

    @Test
    @DisplayName("apply with a name and generateName creates the named object and keeps generateName")
    void createWithGenerateName() {
        ApiHarness.Reply created = apply(CMS + "/named?fieldManager=m", cm("\"name\":\"named\",\"generateName\":\"gen-\"",
                "\"a\":\"1\""));
        assertEquals(201, created.code(), created.text());
        assertEquals("named", created.body().at("/metadata/name").asText());
        assertEquals("gen-", created.body().at("/metadata/generateName").asText());
    }

    @Test
    @DisplayName("apply with no name to an existing object keeps its name; another name is 400")
    void existingKeepsName() {
        assertEquals(201, apply(CMS + "/kept?fieldManager=m", cm("\"name\":\"kept\"", "\"a\":\"1\"")).code());
        ApiHarness.Reply unnamed = apply(CMS + "/kept?fieldManager=m", cm("\"labels\":{\"x\":\"y\"}", "\"a\":\"2\""));
        assertEquals(200, unnamed.code(), unnamed.text());
        assertEquals("kept", unnamed.body().at("/metadata/name").asText());
        assertEquals("2", unnamed.body().at("/data/a").asText());
        assertStatus(400, "BadRequest", "the name of the object (zz) does not match the name on the URL (kept)",
                apply(CMS + "/kept?fieldManager=m", cm("\"name\":\"zz\"", "\"a\":\"3\"")));
        assertStatus(400, "BadRequest", "the namespace of the provided object does not match the namespace sent on "
                + "the request", apply(CMS + "/kept?fieldManager=m", cm("\"name\":\"zz\",\"namespace\":\"kube-system\"",
                "\"a\":\"3\"")));
    }

    @Test
    @DisplayName("an apply that conflicts and names another object is a conflict: kube checks the name after merging")
    void conflictBeforeName() {
        assertEquals(201, apply(CMS + "/first?fieldManager=one", cm("\"name\":\"first\"", "\"a\":\"1\"")).code());
        ApiHarness.Reply reply = apply(CMS + "/first?fieldManager=two", cm("\"name\":\"zz\"", "\"a\":\"2\""));
        assertStatus(409, "Conflict", "Apply failed with 1 conflict: conflict with \"one\": .data.a", reply);
    }

    @Test
    @DisplayName("apply naming a uid creates nothing: 409 uid mismatch, as kube's patcher answers")
    void createWithUid() {
        String uid = "88e00824-7f0e-11e8-94a1-c8d3ffb15800";
        ApiHarness.Reply reply = apply(CMS + "/with-uid?fieldManager=m", cm("\"name\":\"with-uid\",\"uid\":\"" + uid + "\"",
                "\"a\":\"1\""));
        assertStatus(409, "Conflict", "Operation cannot be fulfilled on configmaps \"with-uid\": uid mismatch: the "
                + "provided object specified uid " + uid + ", and no existing object was found", reply);
        assertEquals("with-uid", reply.body().at("/details/name").asText());
        assertEquals("configmaps", reply.body().at("/details/kind").asText());
        assertEquals(404, api.get(CMS + "/with-uid").code());
    }

    @Test
    @DisplayName("apply with metadata.resourceVersion: a stale one is 409, even for an apply changing nothing; the current one 200")
    void resourceVersionPrecondition() {
        ApiHarness.Reply created = apply(CMS + "/rv?fieldManager=m", cm("\"name\":\"rv\"", "\"a\":\"1\""));
        assertEquals(201, created.code(), created.text());
        String rv = created.body().at("/metadata/resourceVersion").asText();
        String stale = "Operation cannot be fulfilled on configmaps \"rv\": the object has been modified; please apply "
                + "your changes to the latest version and try again";
        assertStatus(409, "Conflict", stale, apply(CMS + "/rv?fieldManager=m", cm("\"name\":\"rv\",\"resourceVersion\":\"1\"",
                "\"a\":\"2\"")));
        assertStatus(409, "Conflict", stale, apply(CMS + "/rv?fieldManager=m", cm("\"name\":\"rv\",\"resourceVersion\":\"1\"",
                "\"a\":\"1\"")));
        ApiHarness.Reply current = apply(CMS + "/rv?fieldManager=m", cm("\"name\":\"rv\",\"resourceVersion\":\"" + rv + "\"",
                "\"a\":\"2\""));
        assertEquals(200, current.code(), current.text());
        assertEquals("2", current.body().at("/data/a").asText());
        assertFalse(rv.equals(current.body().at("/metadata/resourceVersion").asText()));
    }

    @Test
    @DisplayName("a second applier: another value conflicts as kube words it, force takes the field, the same value shares it")
    void forceConflicts() {
        assertEquals(201, apply(CMS + "/owned?fieldManager=mgr1", cm("\"name\":\"owned\"", "\"a\":\"1\",\"b\":\"1\"")).code());
        assertStatus(409, "Conflict", "Apply failed with 1 conflict: conflict with \"mgr1\": .data.a",
                apply(CMS + "/owned?fieldManager=mgr2", cm("\"name\":\"owned\"", "\"a\":\"2\"")));
        ApiHarness.Reply two = apply(CMS + "/owned?fieldManager=mgr2", cm("\"name\":\"owned\"", "\"a\":\"2\",\"b\":\"2\""));
        assertStatus(409, "Conflict", "Apply failed with 2 conflicts: conflicts with \"mgr1\":\n- .data.a\n- .data.b", two);
        assertEquals("FieldManagerConflict", two.body().at("/details/causes/0/reason").asText());
        assertEquals("conflict with \"mgr1\"", two.body().at("/details/causes/0/message").asText());
        assertEquals(".data.a", two.body().at("/details/causes/0/field").asText());

        ApiHarness.Reply forced = apply(CMS + "/owned?fieldManager=mgr2&force=true", cm("\"name\":\"owned\"", "\"a\":\"2\""));
        assertEquals(200, forced.code(), forced.text());
        assertEquals("2", forced.body().at("/data/a").asText());
        assertEquals("{\"f:data\":{\"f:b\":{}}}", fields(forced.body(), "mgr1", "Apply", "").toString());
        assertEquals("{\"f:data\":{\"f:a\":{}}}", fields(forced.body(), "mgr2", "Apply", "").toString());

        ApiHarness.Reply shared = apply(CMS + "/owned?fieldManager=mgr3", cm("\"name\":\"owned\"", "\"a\":\"2\""));
        assertEquals(200, shared.code(), shared.text());
        assertEquals("{\"f:data\":{\"f:a\":{}}}", fields(shared.body(), "mgr2", "Apply", "").toString());
        assertEquals("{\"f:data\":{\"f:a\":{}}}", fields(shared.body(), "mgr3", "Apply", "").toString());
    }

    @Test
    @DisplayName("apply over a create conflicts with its Update manager, named with its version: the fieldManager or the User-Agent's")
    void applyAfterUpdate() {
        assertEquals(201, api.post(CMS + "?fieldManager=kubectl-create", cm("\"name\":\"made\"", "\"a\":\"1\"")).code());
        assertStatus(409, "Conflict", "Apply failed with 1 conflict: conflict with \"kubectl-create\" using v1: .data.a",
                apply(CMS + "/made?fieldManager=ap", cm("\"name\":\"made\"", "\"a\":\"2\"")));
        assertEquals(200, apply(CMS + "/made?fieldManager=ap", cm("\"name\":\"made\"", "\"a\":\"1\"")).code());

        var created = api.raw("POST", CMS, java.util.Map.of("content-type", java.util.List.of("application/json"),
                "accept", java.util.List.of("application/json"),
                "user-agent", java.util.List.of("kubectl/v1.34.0 (linux/amd64) kubernetes/abcdef")),
                cm("\"name\":\"by-agent\"", "\"a\":\"1\"").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(201, created.status(), created.text());
        assertStatus(409, "Conflict", "Apply failed with 1 conflict: conflict with \"kubectl\" using v1: .data.a",
                apply(CMS + "/by-agent?fieldManager=ap", cm("\"name\":\"by-agent\"", "\"a\":\"2\"")));
        ApiHarness.Reply forced = apply(CMS + "/by-agent?fieldManager=ap&force=true", cm("\"name\":\"by-agent\"", "\"a\":\"2\""));
        assertEquals(200, forced.code(), forced.text());
        // force takes the conflicting field only: the create's manager keeps the map it made
        assertEquals("{\"f:data\":{}}", fields(forced.body(), "kubectl", "Update", "").toString());
    }

    @Test
    @DisplayName("an apply body that is no YAML map is 400 'error decoding YAML', as kube's apply patcher words it")
    void undecodable() {
        ApiHarness.Reply broken = apply(CMS + "/broken?fieldManager=m", "a: [b");
        assertEquals(400, broken.code(), broken.text());
        assertTrue(broken.body().path("message").asText().startsWith("error decoding YAML: error converting YAML to JSON: "
                + "yaml: line 1: "), broken.text());
        assertStatus(400, "BadRequest", "error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot "
                + "unmarshal array into Go value of type map[string]interface {}",
                apply(CMS + "/broken?fieldManager=m", "[1, 2]"));
        assertStatus(400, "BadRequest", "error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot "
                + "unmarshal string into Go value of type map[string]interface {}",
                apply(CMS + "/broken?fieldManager=m", "just text"));
        assertStatus(400, "BadRequest", "invalid object type: /, Kind=", apply(CMS + "/broken?fieldManager=m", ""));
    }

    @Test
    @DisplayName("duplicate YAML keys warn one line each without the decoder's prefix, as kube's addStrictDecodingWarnings; "
            + "a Strict apply refuses them as its patcher words it")
    void duplicateKeysWarn() {
        String body = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s}\ndata: {a: '1', a: '2'}\n";
        ApiHarness.Reply applied = apply(CMS + "/dup?fieldManager=m", body.formatted("dup"));
        assertEquals(201, applied.code(), applied.text());
        assertEquals(java.util.List.of("299 - \"line 4: key \\\"a\\\" already set in map\""), applied.header("warning"));
        assertStatus(400, "BadRequest", "error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal "
                + "errors:\n  line 4: key \"a\" already set in map",
                apply(CMS + "/dup?fieldManager=m&fieldValidation=Strict", body.formatted("dup")));
        ApiHarness.Reply created = api.call(ApiHarness.ADMIN, "POST", CMS, "application/yaml", body.formatted("dup2"));
        assertEquals(201, created.code(), created.text());
        assertEquals(java.util.List.of("299 - \"line 4: key \\\"a\\\" already set in map\""), created.header("warning"));
    }

    private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\"},"
            + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"%s\"}]},\"status\":{\"message\":\"%s\"}}";

    @Test
    @DisplayName("apply to the main resource owns no status field, apply to status owns no spec field; neither conflicts "
            + "on the other's")
    void statusSubresource() {
        ApiHarness.Reply created = apply(PODS + "/sub?fieldManager=main", POD.formatted("sub", "nginx", "main"));
        assertEquals(201, created.code(), created.text());
        assertTrue(fields(created.body(), "main", "Apply", "").path("f:status").isMissingNode(), created.text());

        ApiHarness.Reply status = apply(PODS + "/sub/status?fieldManager=kubelet", POD.formatted("sub", "busybox", "running"));
        assertEquals(200, status.code(), status.text());
        assertEquals("running", status.body().at("/status/message").asText());
        assertEquals("nginx", status.body().at("/spec/containers/0/image").asText());
        JsonNode owned = fields(status.body(), "kubelet", "Apply", "status");
        assertEquals("{\"f:status\":{\"f:message\":{}}}", owned.toString());

        ApiHarness.Reply again = apply(PODS + "/sub?fieldManager=main", POD.formatted("sub", "nginx", "main"));
        assertEquals(200, again.code(), again.text());
        assertEquals("running", again.body().at("/status/message").asText());
        assertTrue(fields(again.body(), "main", "Apply", "").path("f:status").isMissingNode(), again.text());
    }

    /** The fields of one managedFields entry, or a missing node. */
    private static JsonNode fields(JsonNode object, String manager, String operation, String subresource) {
        for (JsonNode entry : object.at("/metadata/managedFields")) {
            if (entry.path("manager").asText().equals(manager) && entry.path("operation").asText().equals(operation)
                    && entry.path("subresource").asText().equals(subresource)) {
                return entry.path("fieldsV1");
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
}
