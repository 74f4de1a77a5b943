package io.kapi.apiextensions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.apiextensions.serving.CrdController;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.machinery.Json;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Server-side apply on a custom resource, through the whole API: what an apply that releases fields leaves. */
class CustomResourceApplyTest {

    private static final String WIDGETS = "/apis/example.com/v1/namespaces/default/widgets";
    private static final String APPLY = "application/apply-patch+yaml";

    @InMemoryApi
    static ApiHarness api;

    @BeforeAll
    static void crd() {
        ApiHarness.Reply created = api.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"widgets.example.com"},
                 "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},
                  "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
                   "schema":{"openAPIV3Schema":{"type":"object","properties":{
                    "spec":{"type":"object","properties":{
                      "list":{"type":"array","items":{"type":"string"}},"value":{"type":"string"},
                      "items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
                       "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},
                        "cfg":{"type":"object","properties":{"x":{"type":"string"}}}}}}}},
                    "status":{"type":"object","properties":{"phase":{"type":"string"}}}}}}}]}}""");
        assertEquals(201, created.code(), created.text());
        api.assembly().hooks().stream().filter(CrdController.class::isInstance).map(CrdController.class::cast)
                .forEach(CrdController::syncAll);
    }

    private static JsonNode apply(String path, String manager, String body) {
        ApiHarness.Reply r = api.patch(path + "?fieldManager=" + manager, APPLY, body);
        assertTrue(r.code() == 200 || r.code() == 201, r.text());
        return r.body();
    }

    private static String widget(String name, String rest) {
        return "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"" + name + "\""
                + rest + "}";
    }

    @Test
    @DisplayName("an apply that stops owning every field of spec should remove spec, as kube-apiserver does (issue 30)")
    void emptiedSpecIsRemoved() {
        apply(WIDGETS + "/w1", "mgr", widget("w1", "},\"spec\":{\"list\":[\"a\",\"b\"],\"value\":\"v\"}"));
        JsonNode out = apply(WIDGETS + "/w1", "mgr", widget("w1", ",\"finalizers\":[\"example.com/f\"]}"));
        assertFalse(out.has("spec"), out.toString());
        JsonNode stored = api.get(WIDGETS + "/w1").body();
        assertFalse(stored.has("spec"), stored.toString());
        assertEquals("example.com/f", stored.at("/metadata/finalizers/0").asText());
        assertEquals(200, api.patch(WIDGETS + "/w1", "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":null}}").code());
    }

    @Test
    @DisplayName("an emptied struct in a list item should go, the item staying while another manager owns its key")
    void emptiedStructInListItem() {
        apply(WIDGETS + "/w2", "a", widget("w2", "},\"spec\":{\"items\":[{\"name\":\"n\",\"cfg\":{\"x\":\"1\"}}]}"));
        apply(WIDGETS + "/w2", "b", widget("w2", "},\"spec\":{\"items\":[{\"name\":\"n\"}]}"));
        JsonNode out = apply(WIDGETS + "/w2", "a", widget("w2", "}"));
        assertEquals("{\"items\":[{\"name\":\"n\"}]}", out.path("spec").toString(), out.toString());
    }

    @Test
    @DisplayName("a built-in kind's struct held by value should stay as {}, as kube-apiserver encodes its Go type")
    void builtInStructStays() {
        String quotas = "/api/v1/namespaces/default/resourcequotas";
        String head = "{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\",\"metadata\":{\"name\":\"q\"}";
        apply(quotas + "/q", "mgr", head + ",\"spec\":{\"hard\":{\"pods\":\"3\"}}}");
        JsonNode out = apply(quotas + "/q", "mgr", head.replace("\"q\"}", "\"q\",\"labels\":{\"a\":\"b\"}}") + "}");
        assertEquals(Json.object(), out.get("spec"), out.toString());
    }
}
