package io.kapi.endpoint.discovery;

import static io.kapi.endpoint.discovery.DiscoveryHandlerTest.V2;
import static io.kapi.endpoint.discovery.DiscoveryHandlerTest.body;
import static io.kapi.endpoint.discovery.DiscoveryHandlerTest.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ResourceTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Discovery of group-versions that aggregated API servers serve, beside the built-in ones. */
class ExternalDiscoveryTest {

    private static final ObjectNode FLUNDERS = parse("""
            {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"wardle.example.com/v1alpha1","resources":[
             {"name":"flunders","singularName":"flunder","namespaced":true,"kind":"Flunder",
              "verbs":["get","list"],"shortNames":["fl"],"categories":["all"]},
             {"name":"flunders/status","singularName":"","namespaced":true,"kind":"Flunder","verbs":["get","update"]}]}
            """);

    private final AtomicReference<List<ExternalVersion>> externals = new AtomicReference<>(List.of(
            new ExternalVersion(new GroupVersion("wardle.example.com", "v1beta1"), 1000, 20, null),
            new ExternalVersion(new GroupVersion("wardle.example.com", "v1alpha1"), 1000, 15, FLUNDERS),
            new ExternalVersion(new GroupVersion("metrics.k8s.io", "v1beta1"), 100, 100, null)));
    private final DiscoveryHandler handler = new DiscoveryHandler(ResourceTable::builtin, externals::get, "127.0.0.1:6443");

    @Test
    @DisplayName("/apis lists the aggregated groups after the built-in ones, versions by priority")
    void groupList() throws IOException {
        List<JsonNode> groups = new ArrayList<>();
        body(handler.handle(get("/apis"))).path("groups").forEach(groups::add);
        JsonNode wardle = groups.get(groups.size() - 2);
        assertEquals("wardle.example.com", wardle.path("name").asText());
        assertEquals("wardle.example.com/v1beta1", wardle.path("versions").path(0).path("groupVersion").asText());
        assertEquals("wardle.example.com/v1alpha1", wardle.path("versions").path(1).path("groupVersion").asText());
        assertEquals("wardle.example.com/v1beta1", wardle.path("preferredVersion").path("groupVersion").asText());
        assertEquals("metrics.k8s.io", groups.getLast().path("name").asText());
    }

    @Test
    @DisplayName("/apis/<group> of an aggregated group is its APIGroup; its versions are not answered here")
    void group() throws IOException {
        JsonNode group = body(handler.handle(get("/apis/metrics.k8s.io")));
        assertEquals("APIGroup", group.path("kind").asText());
        assertEquals("metrics.k8s.io/v1beta1", group.path("preferredVersion").path("groupVersion").asText());
        assertEquals(404, assertThrows(ApiException.class,
                () -> handler.handle(get("/apis/metrics.k8s.io/v1beta1"))).code());
    }

    @Test
    @DisplayName("aggregated discovery lists the resources a backend answered with, subresources nested")
    void aggregated() throws IOException {
        JsonNode wardle = null;
        for (JsonNode item : body(handler.handle(get("/apis", "Accept", V2))).path("items")) {
            if (item.path("metadata").path("name").asText().equals("wardle.example.com")) {
                wardle = item;
            }
            assertNotEquals("metrics.k8s.io", item.path("metadata").path("name").asText(),
                    "a group none of whose versions answered is left out");
        }
        assertEquals(1, wardle.path("versions").size(), "only the version that answered");
        JsonNode version = wardle.path("versions").path(0);
        assertEquals("v1alpha1", version.path("version").asText());
        assertEquals("Current", version.path("freshness").asText());
        JsonNode flunders = version.path("resources").path(0);
        assertEquals(parse("""
                {"resource":"flunders","responseKind":{"group":"","version":"","kind":"Flunder"},"scope":"Namespaced",
                 "singularResource":"flunder","verbs":["get","list"],"shortNames":["fl"],"categories":["all"],
                 "subresources":[{"subresource":"status","responseKind":{"group":"","version":"","kind":"Flunder"},
                 "verbs":["get","update"]}]}"""), flunders);
    }

    @Test
    @DisplayName("the documents are made again when the aggregated group-versions change")
    void follows() throws IOException {
        assertEquals(200, handler.handle(get("/apis/metrics.k8s.io")).status());
        externals.set(List.of());
        assertEquals(404, assertThrows(ApiException.class, () -> handler.handle(get("/apis/metrics.k8s.io"))).code());
    }

    private static ObjectNode parse(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
