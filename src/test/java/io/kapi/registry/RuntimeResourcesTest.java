package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A resource added while the server serves: stores, watch cache, discovery and OpenAPI follow. */
class RuntimeResourcesTest {

    private static final ApiResource WIDGETS = new ApiResource("example.com", "v1", "widgets", "widget", "Widget",
            true, List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"),
            List.of("wd"), List.of(), List.of());
    private static final String SCHEMA = "com.example.v1.Widget";
    private static final String PATH = "/apis/example.com/v1/namespaces/default/widgets";

    @InMemoryApi
    private ApiHarness api;

    private Registry registry() {
        return api.assembly().registry();
    }

    private static ResourceDefinition widgets() {
        ObjectNode schema = Json.object();
        schema.put("type", "object");
        ObjectNode props = schema.putObject("properties");
        props.putObject("apiVersion").put("type", "string");
        props.putObject("kind").put("type", "string");
        props.putObject("metadata").put("$ref", "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
        props.putObject("spec").put("type", "object").putObject("properties").putObject("size").put("type", "integer");
        schema.putArray("x-kubernetes-group-version-kind").addObject().put("group", "example.com")
                .put("version", "v1").put("kind", "Widget");
        return ResourceDefinition.of(WIDGETS, ResourceFacts.plain(new GroupVersionKind("example.com", "v1", "Widget"),
                "example.com/widgets"), new GenericStrategy(true, false, o -> { }, io.kapi.registry.KindValidator.NONE),
                Map.of(SCHEMA, schema));
    }

    @Test
    @DisplayName("a resource added at run time is served (CRUD, watch), listed in discovery with a new ETag, and in OpenAPI v3")
    void addAndServe() throws Exception {
        assertEquals(404, api.get(PATH).code());
        String etag = api.get("/apis").header("ETag").getFirst();
        registry().add(List.of(widgets()));

        ApiHarness.Reply created = api.post(PATH, "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\","
                + "\"metadata\":{\"name\":\"w1\"},\"spec\":{\"size\":3}}");
        assertEquals(201, created.code(), created.text());
        assertEquals(1, created.body().path("metadata").path("generation").asInt());
        assertEquals(3, api.get(PATH + "/w1").body().path("spec").path("size").asInt());
        assertEquals(1, api.get(PATH).body().path("items").size());
        assertTrue(registry().store(WIDGETS.gvr()).isPresent());

        ApiHarness.Reply group = api.get("/apis/example.com/v1");
        assertEquals(200, group.code(), group.text());
        assertEquals("widgets", group.body().path("resources").get(0).path("name").asText());
        assertNotEquals(etag, api.get("/apis").header("ETag").getFirst());
        boolean listed = false;
        for (JsonNode g : api.get("/apis").body().path("groups")) {
            listed |= g.path("name").asText().equals("example.com");
        }
        assertTrue(listed);

        ApiHarness.Reply index = api.get("/openapi/v3");
        assertTrue(index.body().path("paths").has("apis/example.com/v1"), index.text());
        ApiHarness.Reply doc = api.get("/openapi/v3/apis/example.com/v1");
        assertEquals(200, doc.code(), doc.text());
        assertTrue(doc.body().path("components").path("schemas").has(SCHEMA), doc.text());
        assertTrue(doc.body().path("paths").has("/apis/example.com/v1/namespaces/{namespace}/widgets"), doc.text());
    }

    @Test
    @DisplayName("a removed resource is no longer served, discovered or described; its objects stay in storage")
    void remove() {
        registry().add(List.of(widgets()));
        assertEquals(201, api.post(PATH, "{\"metadata\":{\"name\":\"w1\"}}").code());
        registry().remove(List.of(WIDGETS.gvr()));
        assertEquals(404, api.get(PATH + "/w1").code());
        assertEquals(404, api.get("/apis/example.com/v1").code());
        assertFalse(api.get("/openapi/v3").body().path("paths").has("apis/example.com/v1"));
        registry().add(List.of(widgets()));
        assertEquals(200, api.get(PATH + "/w1").code(), "stored objects come back with the resource");
    }
}
