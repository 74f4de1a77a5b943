package io.kapi.apiextensions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.apiextensions.serving.CrdController;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** CRDs in memory: the controller's passes run by the test, the API behind the real filter chain. */
class CrdServingTest {

    static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    static final String WIDGETS = "/apis/example.com/v1/namespaces/default/widgets";

    static final String CRD = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"widgets.example.com"},
             "spec":{"group":"example.com","scope":"Namespaced",
              "names":{"plural":"widgets","kind":"Widget","shortNames":["wd"]},
              "versions":[{"name":"v1","served":true,"storage":true,
               "subresources":{"status":{}},
               "schema":{"openAPIV3Schema":{"type":"object","properties":{
                "spec":{"type":"object","properties":{
                  "size":{"type":"integer","minimum":1,"maximum":10,"default":2},
                  "color":{"type":"string","enum":["red","blue"]}}},
                "status":{"type":"object","properties":{"ready":{"type":"boolean"}}}}}}}]}}
            """;

    @InMemoryApi
    private ApiHarness api;
    private CrdController controller;

    @BeforeEach
    void setUp() {
        controller = api.assembly().hooks().stream().filter(CrdController.class::isInstance)
                .map(CrdController.class::cast).findFirst().orElseThrow();
    }

    private void createCrd(String json) {
        ApiHarness.Reply created = api.post(CRDS, json);
        assertEquals(201, created.code(), created.text());
        controller.syncAll();
    }

    private JsonNode condition(String crd, String type) {
        for (JsonNode c : api.get(CRDS + "/" + crd).body().path("status").path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c;
            }
        }
        return null;
    }

    @Test
    @DisplayName("a created CRD gets defaulted names, NamesAccepted and Established, and its resource is served and discovered")
    void established() {
        assertEquals(404, api.get(WIDGETS).code());
        createCrd(CRD);
        JsonNode crd = api.get(CRDS + "/widgets.example.com").body();
        assertEquals("widget", crd.path("spec").path("names").path("singular").asText());
        assertEquals("WidgetList", crd.path("spec").path("names").path("listKind").asText());
        assertEquals("None", crd.path("spec").path("conversion").path("strategy").asText());
        assertEquals("widgets", crd.path("status").path("acceptedNames").path("plural").asText());
        assertEquals("v1", crd.path("status").path("storedVersions").get(0).asText());
        assertEquals("True", condition("widgets.example.com", "NamesAccepted").path("status").asText());
        assertEquals("NoConflicts", condition("widgets.example.com", "NamesAccepted").path("reason").asText());
        assertEquals("True", condition("widgets.example.com", "Established").path("status").asText());
        assertEquals(200, api.get(WIDGETS).code());
        JsonNode resources = api.get("/apis/example.com/v1").body().path("resources");
        assertEquals("widgets", resources.get(0).path("name").asText(), resources.toString());
        assertEquals("wd", resources.get(0).path("shortNames").get(0).asText());
        assertEquals("widgets/status", resources.get(1).path("name").asText());
        JsonNode apiService = api.get("/apis/apiregistration.k8s.io/v1/apiservices/v1.example.com").body();
        assertEquals(1000, apiService.path("spec").path("groupPriorityMinimum").asInt(), apiService.toString());
        assertEquals("true", apiService.path("metadata").path("labels").path("kube-aggregator.kubernetes.io/automanaged").asText());
        assertEquals("Local", apiService.path("status").path("conditions").get(0).path("reason").asText());
    }

    @Test
    @DisplayName("custom resources are pruned, defaulted and validated with kube's messages; status is its own subresource")
    void schema() {
        createCrd(CRD);
        ApiHarness.Reply created = api.post(WIDGETS, "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\","
                + "\"metadata\":{\"name\":\"w1\"},\"spec\":{\"color\":\"red\",\"extra\":1},\"status\":{\"ready\":true}}");
        assertEquals(201, created.code(), created.text());
        JsonNode w = created.body();
        assertEquals(2, w.path("spec").path("size").asInt(), "defaulted");
        assertFalse(w.path("spec").has("extra"), "pruned");
        assertFalse(w.has("status"), "status is the subresource's");
        assertTrue(String.join(",", created.header("Warning")).contains("unknown field \\\"spec.extra\\\""),
                created.headers().toString());

        ApiHarness.Reply bad = api.post(WIDGETS, "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\","
                + "\"metadata\":{\"name\":\"w2\"},\"spec\":{\"color\":\"pink\",\"size\":11}}");
        assertEquals(422, bad.code(), bad.text());
        assertEquals("Widget.example.com \"w2\" is invalid: [spec.color: Unsupported value: \"pink\": supported values: "
                + "\"red\", \"blue\", spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10]",
                bad.body().path("message").asText());

        ApiHarness.Reply strict = api.post(WIDGETS + "?fieldValidation=Strict", "{\"apiVersion\":\"example.com/v1\","
                + "\"kind\":\"Widget\",\"metadata\":{\"name\":\"w3\"},\"spec\":{\"extra\":1}}");
        assertEquals(400, strict.code(), strict.text());
        assertEquals("Widget in version \"v1\" cannot be handled as a Widget: strict decoding error: unknown field "
                + "\"spec.extra\"", strict.body().path("message").asText());

        ApiHarness.Reply status = api.patch(WIDGETS + "/w1/status", "application/merge-patch+json",
                "{\"status\":{\"ready\":true},\"spec\":{\"size\":5}}");
        assertEquals(200, status.code(), status.text());
        assertTrue(status.body().path("status").path("ready").asBoolean());
        assertEquals(2, status.body().path("spec").path("size").asInt(), "the status subresource leaves spec alone");
        assertEquals(1, status.body().path("metadata").path("generation").asInt());
        ApiHarness.Reply spec = api.patch(WIDGETS + "/w1", "application/merge-patch+json", "{\"spec\":{\"size\":5}}");
        assertEquals(2, spec.body().path("metadata").path("generation").asInt());

        ApiHarness.Reply strategic = api.patch(WIDGETS + "/w1", "application/strategic-merge-patch+json", "{}");
        assertEquals(415, strategic.code(), strategic.text());
    }

    @Test
    @DisplayName("a second CRD of the group asking for a kind in use is not accepted: KindConflict, not Established")
    void nameConflict() {
        createCrd(CRD);
        createCrd(CRD.replace("widgets", "gadgets").replace("\"shortNames\":[\"wd\"]", "\"singular\":\"gadget\""));
        JsonNode names = condition("gadgets.example.com", "NamesAccepted");
        assertEquals("False", names.path("status").asText());
        assertEquals("KindConflict", names.path("reason").asText());
        assertEquals("\"Widget\" is already in use", names.path("message").asText());
        assertEquals("False", condition("gadgets.example.com", "Established").path("status").asText());
    }

    @Test
    @DisplayName("deleting a CRD deletes its custom resources (waiting for their finalizers), then the API, then the CRD; it can be created again")
    void deletion() {
        createCrd(CRD);
        assertEquals(201, api.post(WIDGETS, "{\"metadata\":{\"name\":\"w1\",\"finalizers\":[\"example.com/hold\"]}}").code());
        ApiHarness.Reply deleting = api.delete(CRDS + "/widgets.example.com");
        assertEquals(200, deleting.code(), deleting.text());
        assertEquals("True", condition("widgets.example.com", "Terminating").path("status").asText());
        controller.syncAll();
        assertFalse(api.get(WIDGETS + "/w1").body().path("metadata").path("deletionTimestamp").isMissingNode());
        ApiHarness.Reply refused = api.post(WIDGETS, "{\"metadata\":{\"name\":\"w2\"}}");
        assertEquals(405, refused.code(), refused.text());
        assertEquals("create not allowed while custom resource definition is terminating",
                refused.body().path("message").asText());
        controller.syncAll();
        assertEquals(200, api.get(CRDS + "/widgets.example.com").code(), "held by the custom resource's finalizer");
        assertEquals(200, api.patch(WIDGETS + "/w1", "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":null}}").code());
        controller.syncAll();
        controller.syncAll();
        assertEquals(404, api.get(CRDS + "/widgets.example.com").code());
        assertEquals(404, api.get(WIDGETS).code());
        assertEquals(404, api.get("/apis/example.com/v1").code());
        assertEquals(404, api.get("/apis/apiregistration.k8s.io/v1/apiservices/v1.example.com").code());
        createCrd(CRD);
        assertEquals(0, api.get(WIDGETS).body().path("items").size());
    }

    static final String CEL_CRD = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"ranges.example.com"},
             "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"ranges","kind":"Range"},
              "versions":[{"name":"v1","served":true,"storage":true,
               "schema":{"openAPIV3Schema":{"type":"object","properties":{
                "spec":{"type":"object",
                  "x-kubernetes-validations":[
                    {"rule":"self.min <= self.max","message":"min must not exceed max"},
                    {"rule":"self.max < 100","messageExpression":"'max is ' + string(self.max)","fieldPath":".max"}],
                  "properties":{
                    "min":{"type":"integer"},"max":{"type":"integer"},
                    "id":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"id is immutable"}]}}}}}}}]}}
            """;

    @Test
    @DisplayName("x-kubernetes-validations: CEL rules with message, messageExpression, fieldPath and a transition rule")
    void celRules() {
        createCrd(CEL_CRD);
        String ranges = "/apis/example.com/v1/namespaces/default/ranges";
        assertEquals(201, api.post(ranges, "{\"metadata\":{\"name\":\"r1\"},\"spec\":{\"min\":1,\"max\":5,\"id\":\"a\"}}").code());
        ApiHarness.Reply bad = api.post(ranges, "{\"metadata\":{\"name\":\"r2\"},\"spec\":{\"min\":200,\"max\":150}}");
        assertEquals(422, bad.code(), bad.text());
        assertEquals("Range.example.com \"r2\" is invalid: [spec: Invalid value: \"object\": min must not exceed max, "
                + "spec.max: Invalid value: \"object\": max is 150]", bad.body().path("message").asText());
        ApiHarness.Reply changed = api.patch(ranges + "/r1", "application/merge-patch+json", "{\"spec\":{\"id\":\"b\"}}");
        assertEquals(422, changed.code(), changed.text());
        assertEquals("Range.example.com \"r1\" is invalid: spec.id: Invalid value: \"string\": id is immutable",
                changed.body().path("message").asText());
        assertEquals(200, api.patch(ranges + "/r1", "application/merge-patch+json", "{\"spec\":{\"max\":6}}").code());
    }

    @Test
    @DisplayName("a CRD whose rule does not compile is refused with CEL's message")
    void celCompileError() {
        ApiHarness.Reply refused = api.post(CRDS, CEL_CRD.replace("self.min <= self.max", "self.min <= self.nope"));
        assertEquals(422, refused.code(), refused.text());
        String message = refused.body().path("message").asText();
        assertTrue(message.contains("spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: "
                + "Invalid value: \"self.min <= self.nope\": compilation failed: ERROR: <input>:1:17: undefined field 'nope'")
                || message.contains("x-kubernetes-validations[0].rule: Invalid value: \"self.min <= self.nope\": "
                + "compilation failed"), message);
    }

    @Test
    @DisplayName("a CRD whose rule matches a literal pattern RE2 refuses is refused at once (kube's regex literal "
            + "validation), not accepted to fail every object")
    void celLiteralPatternRefusedByRe2() {
        String rule = "self.id.matches('a(?=b)')";
        ApiHarness.Reply refused = api.post(CRDS, CEL_CRD.replace("self.min <= self.max", rule));
        assertEquals(422, refused.code(), refused.text());
        String message = refused.body().path("message").asText();
        assertTrue(message.contains("x-kubernetes-validations[0].rule: Invalid value: \"" + rule
                + "\": compilation failed: ERROR: <input>:1:17: invalid matches argument"), message);
    }

    @Test
    @DisplayName("a CRD whose rule nests thousands of parentheses is refused with cel-go's recursion error, not a 500")
    void celRecursionLimit() {
        String deep = "(".repeat(5000) + "self.min <= self.max" + ")".repeat(5000);
        ApiHarness.Reply refused = api.post(CRDS, CEL_CRD.replace("self.min <= self.max", deep));
        assertEquals(422, refused.code(), refused.text());
        String message = refused.body().path("message").asText();
        assertTrue(message.contains("x-kubernetes-validations[0].rule: Invalid value: \"" + deep + "\": compilation failed: "
                + "ERROR: <input>:-1:0: expression recursion limit exceeded: 250"), message);
    }

    @Test
    @DisplayName("a pattern is matched by Go's RE2: ^(a|a)+$ against thousands of characters is answered at once, not a 500")
    void patternIsRe2() {
        String crd = CRD.replace("\"color\":{", "\"word\":{\"type\":\"string\",\"pattern\":\"^(a|a)+$\"},\"color\":{");
        assertTrue(crd.contains("^(a|a)+$"), "the CRD has the pattern");
        createCrd(crd);
        long started = System.nanoTime();
        ApiHarness.Reply ok = api.post(WIDGETS, "{\"metadata\":{\"name\":\"re2\"},\"spec\":{\"word\":\""
                + "a".repeat(5000) + "\"}}");
        assertEquals(201, ok.code(), ok.text());
        ApiHarness.Reply bad = api.post(WIDGETS, "{\"metadata\":{\"name\":\"re2-bad\"},\"spec\":{\"word\":\""
                + "a".repeat(5000) + "b\"}}");
        assertEquals(422, bad.code(), bad.text());
        assertTrue(bad.body().path("message").asText().endsWith("in body should match '^(a|a)+$'"), bad.text());
        assertTrue(System.nanoTime() - started < java.time.Duration.ofSeconds(10).toNanos());
    }
}
