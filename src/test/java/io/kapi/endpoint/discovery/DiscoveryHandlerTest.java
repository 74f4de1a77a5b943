package io.kapi.endpoint.discovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.machinery.resource.ResourceTable;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DiscoveryHandlerTest {

    static final String V2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    static final String V2BETA1 = "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";

    private final DiscoveryHandler handler = new DiscoveryHandler(ResourceTable.builtin(), "127.0.0.1:6444");

    static RestRequest get(String path, String... headers) {
        Map<String, List<String>> h = new HashMap<>();
        for (int i = 0; i < headers.length; i += 2) {
            h.put(headers[i].toLowerCase(), List.of(headers[i + 1]));
        }
        return new RestRequest("GET", path, Map.of(), h, InputStream.nullInputStream(), null);
    }

    static JsonNode body(RestResponse response) throws IOException {
        return Json.MAPPER.readTree(((RestResponse.Bytes) response.body()).data());
    }

    static String header(RestResponse response, String name) {
        return response.headers().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue).findFirst().orElse(null);
    }

    static JsonNode reference() throws IOException {
        try (InputStream in = DiscoveryHandlerTest.class.getResourceAsStream("/reference/discovery-v1.32.13.json")) {
            return Json.MAPPER.readTree(in);
        }
    }

    @Test
    @DisplayName("/api answers APIVersions with the server address, as the reference")
    void apiVersions() throws IOException {
        RestResponse r = handler.handle(get("/api"));
        assertEquals(200, r.status());
        assertEquals("application/json", ((RestResponse.Bytes) r.body()).contentType());
        assertEquals(reference().get("core"), body(r));
    }

    @Test
    @DisplayName("/apis lists the reference's groups in the same order, then resource.k8s.io")
    void groupList() throws IOException {
        JsonNode ours = body(handler.handle(get("/apis")));
        ObjectNode expected = reference().get("groups").deepCopy();
        ObjectNode resource = ((ArrayNode) expected.get("groups")).addObject();
        resource.put("name", "resource.k8s.io");
        ObjectNode v1 = resource.putArray("versions").addObject();
        v1.put("groupVersion", "resource.k8s.io/v1");
        v1.put("version", "v1");
        resource.set("preferredVersion", v1.deepCopy());
        assertEquals(expected, ours);
    }

    @Test
    @DisplayName("every reference APIResourceList is served alike, with 1.34's additions only")
    void resourceLists() throws IOException {
        for (Map.Entry<String, JsonNode> e : reference().get("resources").properties()) {
            String path = e.getKey().contains("/") ? "/apis/" + e.getKey() : "/api/" + e.getKey();
            ObjectNode ours = (ObjectNode) body(handler.handle(get(path)));
            JsonNode expected = e.getValue();
            Set<String> names = new HashSet<>();
            expected.get("resources").forEach(r -> names.add(r.get("name").asText()));
            ArrayNode kept = Json.MAPPER.createArrayNode();
            ours.get("resources").forEach(r -> {
                if (names.contains(r.get("name").asText())) {
                    kept.add(r);
                }
            });
            ours.set("resources", kept);
            assertEquals(expected, ours, path);
        }
    }

    @Test
    @DisplayName("/apis/{group} answers the APIGroup; an unknown group or version is a 404")
    void groupAndUnknowns() throws IOException {
        JsonNode group = body(handler.handle(get("/apis/autoscaling")));
        assertEquals("APIGroup", group.get("kind").asText());
        assertEquals("autoscaling/v2", group.at("/preferredVersion/groupVersion").asText());
        ApiException e = assertThrows(ApiException.class, () -> handler.handle(get("/apis/example.com")));
        assertEquals(StatusReason.NOT_FOUND, e.reason());
        assertThrows(ApiException.class, () -> handler.handle(get("/apis/apps/v1beta1")));
        assertThrows(ApiException.class, () -> handler.handle(get("/api/v2")));
    }

    @Test
    @DisplayName("paths outside discovery are left to the next handler")
    void notMine() {
        assertNull(handler.handle(get("/api/v1/pods")));
        assertNull(handler.handle(get("/apis/apps/v1/deployments")));
        assertNull(handler.handle(get("/healthz")));
        assertNull(handler.handle(get("/openapi/v2")));
    }

    @Test
    @DisplayName("aggregated discovery v2 for /apis: content type, Vary, groups, responseKind of subresources")
    void aggregatedGroups() throws IOException {
        RestResponse r = handler.handle(get("/apis", "Accept", V2 + "," + V2BETA1 + ",application/json"));
        assertEquals(V2, ((RestResponse.Bytes) r.body()).contentType());
        assertEquals("Accept", header(r, "Vary"));
        JsonNode doc = body(r);
        assertEquals("APIGroupDiscoveryList", doc.get("kind").asText());
        assertEquals("apidiscovery.k8s.io/v2", doc.get("apiVersion").asText());
        JsonNode apps = null;
        for (JsonNode item : doc.get("items")) {
            if (item.at("/metadata/name").asText().equals("apps")) {
                apps = item;
            }
        }
        assertNotNull(apps);
        JsonNode deployments = null;
        for (JsonNode res : apps.at("/versions/0/resources")) {
            if (res.get("resource").asText().equals("deployments")) {
                deployments = res;
            }
        }
        assertNotNull(deployments);
        assertEquals("Namespaced", deployments.get("scope").asText());
        assertEquals("deployment", deployments.get("singularResource").asText());
        assertEquals("Deployment", deployments.at("/responseKind/kind").asText());
        assertEquals("deploy", deployments.at("/shortNames/0").asText());
        JsonNode scale = deployments.at("/subresources/0");
        assertEquals("scale", scale.get("subresource").asText());
        assertEquals("autoscaling", scale.at("/responseKind/group").asText());
        assertEquals("Scale", scale.at("/responseKind/kind").asText());
        assertEquals("Current", apps.at("/versions/0/freshness").asText());
    }

    @Test
    @DisplayName("aggregated discovery v2beta1 for /api: only the core group, unnamed")
    void aggregatedCore() throws IOException {
        RestResponse r = handler.handle(get("/api", "Accept", V2BETA1));
        assertEquals(V2BETA1, ((RestResponse.Bytes) r.body()).contentType());
        JsonNode doc = body(r);
        assertEquals("apidiscovery.k8s.io/v2beta1", doc.get("apiVersion").asText());
        assertEquals(1, doc.get("items").size());
        assertTrue(doc.at("/items/0/metadata/name").isMissingNode());
        assertEquals("v1", doc.at("/items/0/versions/0/version").asText());
    }

    @Test
    @DisplayName("protobuf first gets the legacy document in protobuf, as kube-apiserver serves it")
    void negotiation() throws IOException {
        for (String accept : new String[] {"application/vnd.kubernetes.protobuf, */*",
                "application/vnd.kubernetes.protobuf"}) {
            RestResponse r = handler.handle(get("/apis", "Accept", accept));
            RestResponse.Bytes bytes = (RestResponse.Bytes) r.body();
            assertEquals("application/vnd.kubernetes.protobuf", bytes.contentType());
            JsonNode doc = ProtobufCodec.decode(bytes.data(), new GroupVersionKind("", "v1", "APIGroupList"));
            assertEquals("APIGroupList", doc.get("kind").asText());
            assertEquals("apps", findGroup(doc, "apps"));
        }
        JsonNode json = body(handler.handle(get("/apis", "Accept", "application/json, application/vnd.kubernetes.protobuf")));
        assertEquals("APIGroupList", json.get("kind").asText());
        ApiException e = assertThrows(ApiException.class,
                () -> handler.handle(get("/apis", "Accept", "application/cbor")));
        assertEquals(406, e.code());
    }

    private static String findGroup(JsonNode doc, String name) {
        for (JsonNode g : doc.get("groups")) {
            if (g.get("name").asText().equals(name)) {
                return name;
            }
        }
        return "";
    }

    @Test
    @DisplayName("aggregated discovery v2 in protobuf: the APIGroupDiscoveryList message, its own Content-Type")
    void aggregatedProtobuf() throws Exception {
        String accept = "application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
                + "application/json";
        RestResponse.Bytes bytes = (RestResponse.Bytes) handler.handle(get("/apis", "Accept", accept)).body();
        assertEquals("application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
                bytes.contentType());
        var list = io.kubernetes.client.proto.V2Apidiscovery.APIGroupDiscoveryList.parseFrom(
                io.kubernetes.client.proto.Runtime.Unknown.parseFrom(
                        java.util.Arrays.copyOfRange(bytes.data(), 4, bytes.data().length)).getRaw());
        assertTrue(list.getItemsList().stream().anyMatch(g -> g.getMetadata().getName().equals("apps")));
        JsonNode json = body(handler.handle(get("/apis", "Accept", V2)));
        assertEquals(json.get("items").size(), list.getItemsCount());
    }

    @Test
    @DisplayName("a malformed Accept header (only separators) is 406, never a server error")
    void malformedAccept() {
        for (String accept : new String[] {";;", ";,;", ";q=1"}) {
            ApiException e = assertThrows(ApiException.class, () -> handler.handle(get("/apis", "Accept", accept)));
            assertEquals(406, e.code(), accept);
        }
    }

    @Test
    @DisplayName("ETag is stable and If-None-Match answers 304 without a body")
    void etags() throws IOException {
        RestResponse first = handler.handle(get("/apis/apps/v1"));
        String etag = header(first, "ETag");
        assertNotNull(etag);
        assertTrue(etag.startsWith("\"") && etag.endsWith("\""));
        RestResponse again = handler.handle(get("/apis/apps/v1"));
        assertArrayEquals(((RestResponse.Bytes) first.body()).data(), ((RestResponse.Bytes) again.body()).data());
        RestResponse notModified = handler.handle(get("/apis/apps/v1", "If-None-Match", etag));
        assertEquals(304, notModified.status());
        assertEquals(0, ((RestResponse.Bytes) notModified.body()).data().length);
        assertEquals(etag, header(notModified, "ETag"));
        RestResponse aggregated = handler.handle(get("/apis", "Accept", V2));
        assertEquals(304, handler.handle(get("/apis", "Accept", V2, "If-None-Match", header(aggregated, "ETag"))).status());
    }

    @Test
    @DisplayName("the server address is written as Go's JoinHostPort, IPv6 in brackets")
    void hostPort() {
        assertEquals("10.0.0.1:6443", DiscoveryHandler.hostPort("10.0.0.1", 6443));
        assertEquals("[fd00::1]:6443", DiscoveryHandler.hostPort("fd00::1", 6443));
    }
}
