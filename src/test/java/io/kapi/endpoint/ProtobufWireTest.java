package io.kapi.endpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.apiextensions.serving.CrdController;
import io.kapi.assembly.InMemoryServer;
import io.kapi.harness.ApiHarness;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The API in kube's protobuf encoding, through the whole filter chain in memory. */
class ProtobufWireTest {

    static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    static final String CLIENT_GO = "application/vnd.kubernetes.protobuf, application/json";
    static final String CMS = "/api/v1/namespaces/default/configmaps";

    static ApiHarness api;

    @BeforeAll
    static void start() {
        api = new ApiHarness();
        for (int i = 0; i < 3; i++) {
            assertEquals(201, api.post(CMS, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c" + i
                    + "\",\"labels\":{\"app\":\"x\"}},\"data\":{\"k\":\"v" + i + "\"}}").code());
        }
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    static InMemoryServer.Response call(String method, String path, String accept, String contentType, byte[] body) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Accept", List.of(accept));
        if (contentType != null) {
            headers.put("Content-Type", List.of(contentType));
        }
        return api.raw(method, path, headers, body);
    }

    static InMemoryServer.Response get(String path, String accept) {
        return call("GET", path, accept, null, new byte[0]);
    }

    static Runtime.Unknown envelope(byte[] body) throws Exception {
        assertArrayEquals(new byte[] {'k', '8', 's', 0}, Arrays.copyOf(body, 4));
        return Runtime.Unknown.parseFrom(Arrays.copyOfRange(body, 4, body.length));
    }

    @Test
    @DisplayName("a protobuf-only client listing namespaces gets k8s\\0 and a NamespaceList")
    void namespaceList() throws Exception {
        InMemoryServer.Response r = get("/api/v1/namespaces", PROTOBUF);
        assertEquals(200, r.status());
        assertEquals(List.of(PROTOBUF), r.header("content-type"));
        Runtime.Unknown unk = envelope(r.body());
        assertEquals("v1", unk.getTypeMeta().getApiVersion());
        assertEquals("NamespaceList", unk.getTypeMeta().getKind());
        V1.NamespaceList list = V1.NamespaceList.parseFrom(unk.getRaw());
        assertTrue(list.getItemsList().stream().anyMatch(n -> n.getMetadata().getName().equals("default")));
        assertTrue(list.getMetadata().hasResourceVersion());
    }

    @Test
    @DisplayName("get and list decode to what JSON says, item for item")
    void sameAsJson() throws Exception {
        JsonNode json = api.get(CMS + "/c1").body();
        InMemoryServer.Response r = get(CMS + "/c1", CLIENT_GO);
        assertEquals(json, ProtobufCodec.decode(r.body(), new GroupVersionKind("", "v1", "ConfigMap")));
        JsonNode jsonList = api.get(CMS + "?labelSelector=app%3Dx").body();
        JsonNode pbList = ProtobufCodec.decode(get(CMS + "?labelSelector=app%3Dx", CLIENT_GO).body(),
                new GroupVersionKind("", "v1", "ConfigMapList"));
        assertEquals(jsonList.get("items"), pbList.get("items"));
        assertEquals(jsonList.at("/metadata/resourceVersion"), pbList.at("/metadata/resourceVersion"));
    }

    @Test
    @DisplayName("objects written after their resource's first protobuf read (served from their stored values) "
            + "read as JSON says: list, get, the watch's events (initial ones, a delete's), beside older objects "
            + "written from their trees")
    void storedValuesSameAsJson() throws Exception {
        GroupVersionKind configMap = new GroupVersionKind("", "v1", "ConfigMap");
        assertEquals(200, get(CMS, CLIENT_GO).status()); // the resource's first protobuf read, if no other test's
        String rv = api.get(CMS).body().at("/metadata/resourceVersion").asText();
        assertEquals(201, api.post(CMS, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"s1\","
                + "\"labels\":{\"app\":\"x\"}},\"data\":{\"k\":\"v\"}}").code());
        assertEquals(200, api.patch(CMS + "/s1", "application/merge-patch+json", "{\"data\":{\"k\":\"w\"}}").code());
        JsonNode json = api.get(CMS + "/s1").body();
        for (int i = 0; i < 2; i++) { // the message made, then kept
            assertEquals(json, ProtobufCodec.decode(get(CMS + "/s1", CLIENT_GO).body(), configMap));
            JsonNode jsonList = api.get(CMS + "?labelSelector=app%3Dx").body();
            JsonNode pbList = ProtobufCodec.decode(get(CMS + "?labelSelector=app%3Dx", CLIENT_GO).body(),
                    new GroupVersionKind("", "v1", "ConfigMapList"));
            assertEquals(jsonList.get("items"), pbList.get("items"));
        }
        List<Meta.WatchEvent> events = frames(get(CMS + "?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Ds1"
                + "&resourceVersion=" + rv, PROTOBUF).body());
        assertEquals(List.of("ADDED", "MODIFIED"), events.stream().map(Meta.WatchEvent::getType).toList());
        assertEquals(json, ProtobufCodec.decode(events.get(1).getObject().getRaw().toByteArray(), configMap));
        assertEquals("v", ProtobufCodec.decode(events.get(0).getObject().getRaw().toByteArray(), configMap)
                .at("/data/k").asText());
        for (int i = 0; i < 2; i++) { // initial events: the object's message, made once and kept by the object
            List<Meta.WatchEvent> initial = frames(get(CMS + "?watch=1&sendInitialEvents=true&resourceVersionMatch="
                    + "NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1&fieldSelector=metadata.name%3Ds1",
                    PROTOBUF).body());
            assertEquals("ADDED", initial.getFirst().getType());
            assertEquals(json, ProtobufCodec.decode(initial.getFirst().getObject().getRaw().toByteArray(), configMap));
        }
        String beforeDelete = api.get(CMS).body().at("/metadata/resourceVersion").asText();
        api.delete(CMS + "/s1");
        String watchDeleted = CMS + "?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Ds1&resourceVersion="
                + beforeDelete;
        Meta.WatchEvent deleted = frames(get(watchDeleted, PROTOBUF).body()).getFirst();
        assertEquals("DELETED", deleted.getType());
        String jsonEvent = new String(get(watchDeleted, "application/json").body(), StandardCharsets.UTF_8).strip();
        JsonNode jsonDeleted = Json.MAPPER.readTree(jsonEvent).get("object");
        assertEquals(jsonDeleted, ProtobufCodec.decode(deleted.getObject().getRaw().toByteArray(), configMap));
        assertTrue(Long.parseLong(jsonDeleted.at("/metadata/resourceVersion").asText())
                > Long.parseLong(json.at("/metadata/resourceVersion").asText()), "the delete's revision");
    }

    @Test
    @DisplayName("every built-in resource's list reads the same in protobuf as in JSON, through the API")
    void everyListSameAsJson() throws Exception {
        List<String> checked = new ArrayList<>();
        List<String> paths = new ArrayList<>(List.of("/api/v1"));
        for (JsonNode g : api.get("/apis").body().path("groups")) {
            paths.add("/apis/" + g.at("/preferredVersion/groupVersion").asText());
        }
        for (String gv : paths) {
            for (JsonNode r : api.get(gv).body().path("resources")) {
                String name = r.path("name").asText();
                if (name.contains("/") || !r.path("verbs").toString().contains("\"list\"")) {
                    continue;
                }
                String apiVersion = gv.equals("/api/v1") ? "v1" : gv.substring("/apis/".length());
                int slash = apiVersion.indexOf('/');
                GroupVersionKind list = new GroupVersionKind(slash < 0 ? "" : apiVersion.substring(0, slash),
                        apiVersion.substring(slash + 1), r.path("kind").asText() + "List");
                if (!ProtobufCodec.supports(list)) {
                    continue;
                }
                JsonNode json = api.get(gv + "/" + name).body();
                InMemoryServer.Response pb = get(gv + "/" + name, PROTOBUF);
                assertEquals(200, pb.status(), gv + "/" + name);
                JsonNode decoded = ProtobufCodec.decode(pb.body(), list);
                JsonNode items = decoded.has("items") ? decoded.get("items") : Json.NODES.arrayNode();
                assertEquals(withoutEmpty(json.get("items")), withoutEmpty(items), gv + "/" + name);
                if (!json.get("items").isEmpty()) {
                    checked.add(list.kind());
                }
            }
        }
        assertTrue(checked.size() >= 12, "kinds with objects: " + checked);
    }

    /**
     * A copy without empty strings, maps and lists, which protobuf cannot tell from absent ones (Go reads
     * them as zero values, which its JSON leaves out of omitempty fields; the decoder does the same), and
     * with every number as a long (int64 fields read back as longs).
     */
    static JsonNode withoutEmpty(JsonNode node) {
        if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
            com.fasterxml.jackson.databind.node.ObjectNode out = Json.object();
            o.properties().forEach(e -> {
                JsonNode v = e.getValue();
                if (!(v.isContainerNode() && v.isEmpty() || v.isTextual() && v.textValue().isEmpty())) {
                    out.set(e.getKey(), withoutEmpty(e.getValue()));
                }
            });
            return out;
        }
        if (node instanceof com.fasterxml.jackson.databind.node.ArrayNode a) {
            com.fasterxml.jackson.databind.node.ArrayNode out = Json.NODES.arrayNode();
            a.forEach(e -> out.add(withoutEmpty(e)));
            return out;
        }
        return node.isIntegralNumber() ? Json.NODES.numberNode(node.longValue()) : node;
    }

    @Test
    @DisplayName("errors are a protobuf Status for a protobuf client; a 406 stays JSON")
    void errors() throws Exception {
        InMemoryServer.Response r = get(CMS + "/missing", CLIENT_GO);
        assertEquals(404, r.status());
        assertEquals(List.of(PROTOBUF), r.header("content-type"));
        Runtime.Unknown unk = envelope(r.body());
        assertEquals("Status", unk.getTypeMeta().getKind());
        Meta.Status status = Meta.Status.parseFrom(unk.getRaw());
        assertEquals("NotFound", status.getReason());
        assertEquals("configmaps \"missing\" not found", status.getMessage());
        assertEquals(404, status.getCode());
        InMemoryServer.Response table = get(CMS, "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io");
        assertEquals(406, table.status());
        assertEquals("only the following media types are accepted: application/json, application/yaml, "
                + "application/vnd.kubernetes.protobuf", table.json().path("message").asText());
    }

    @Test
    @DisplayName("writes answer in protobuf: create 201, delete's Success Status, a subresource's error")
    void writes() throws Exception {
        byte[] body = ProtobufCodec.encode(Json.MAPPER.readTree(
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"pb-w\"},\"data\":{\"a\":\"b\"}}"),
                new GroupVersionKind("", "v1", "ConfigMap"));
        InMemoryServer.Response created = call("POST", CMS, CLIENT_GO, PROTOBUF, body);
        assertEquals(201, created.status(), created.text());
        assertEquals("b", V1.ConfigMap.parseFrom(envelope(created.body()).getRaw()).getDataMap().get("a"));
        InMemoryServer.Response deleted = call("DELETE", CMS + "/pb-w", CLIENT_GO, null, new byte[0]);
        assertEquals(200, deleted.status());
        Runtime.Unknown success = envelope(deleted.body());
        assertEquals("Status", success.getTypeMeta().getKind());
        assertEquals("Success", Meta.Status.parseFrom(success.getRaw()).getStatus());
        InMemoryServer.Response scale = get("/api/v1/namespaces/default/replicationcontrollers/none/scale", CLIENT_GO);
        assertEquals(404, scale.status());
        assertEquals("Status", envelope(scale.body()).getTypeMeta().getKind());
    }

    @Test
    @DisplayName("an object read in protobuf is updated with those very bytes: 200, as client-go's typed clients do")
    void updateWithOwnProtobuf() throws Exception {
        String[][] objects = {
                {"/api/v1/namespaces/default/pods", "{\"metadata\":{\"name\":\"pb-u\",\"labels\":{\"a\":\"b\"}},"
                        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}"},
                {"/apis/apps/v1/namespaces/default/deployments", "{\"metadata\":{\"name\":\"pb-u\"},\"spec\":{\"selector\":"
                        + "{\"matchLabels\":{\"a\":\"b\"}},\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},"
                        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}}}"},
                {"/api/v1/namespaces/default/secrets", "{\"metadata\":{\"name\":\"pb-u\"},\"stringData\":{\"a\":\"b\"}}"},
                {"/api/v1/namespaces/default/services", "{\"metadata\":{\"name\":\"pb-u\"},\"spec\":{\"ports\":[{\"port\":80}]}}"}};
        for (String[] o : objects) {
            assertEquals(201, api.post(o[0], o[1]).code(), o[0]);
            InMemoryServer.Response read = get(o[0] + "/pb-u", PROTOBUF);
            assertEquals(200, read.status(), o[0]);
            for (String dryRun : List.of("?dryRun=All", "")) {
                InMemoryServer.Response updated = call("PUT", o[0] + "/pb-u" + dryRun, "application/json", PROTOBUF,
                        read.body());
                assertEquals(200, updated.status(), o[0] + dryRun + ": " + updated.text());
            }
        }
    }

    @Test
    @DisplayName("PartialObjectMetadataList in protobuf, as the garbage collector's metadata client asks")
    void partialObjectMetadata() throws Exception {
        String accept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
                + "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
        InMemoryServer.Response r = get(CMS + "?labelSelector=app%3Dx", accept);
        assertEquals(List.of(PROTOBUF), r.header("content-type"));
        Runtime.Unknown unk = envelope(r.body());
        assertEquals("meta.k8s.io/v1", unk.getTypeMeta().getApiVersion());
        assertEquals("PartialObjectMetadataList", unk.getTypeMeta().getKind());
        Meta.PartialObjectMetadataList list = Meta.PartialObjectMetadataList.parseFrom(unk.getRaw());
        assertEquals(3, list.getItemsCount());
        assertEquals("x", list.getItems(0).getMetadata().getLabelsMap().get("app"));
        InMemoryServer.Response one = get(CMS + "/c0",
                "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1");
        assertEquals("c0", Meta.PartialObjectMetadata.parseFrom(envelope(one.body()).getRaw()).getMetadata().getName());
    }

    @Test
    @DisplayName("a protobuf watch sends length-prefixed WatchEvent frames: ADDED, MODIFIED, DELETED, ERROR")
    void watchFrames() throws Exception {
        String rv = api.get(CMS).body().at("/metadata/resourceVersion").asText();
        api.post(CMS, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"w1\"}}");
        api.patch(CMS + "/w1", "application/merge-patch+json", "{\"data\":{\"x\":\"y\"}}");
        api.delete(CMS + "/w1");
        InMemoryServer.Response r = get(CMS + "?watch=1&timeoutSeconds=1&resourceVersion=" + rv, PROTOBUF);
        assertEquals(List.of(PROTOBUF + ";stream=watch"), r.header("content-type"));
        List<Meta.WatchEvent> events = frames(r.body());
        assertEquals(List.of("ADDED", "MODIFIED", "DELETED"), events.stream().map(Meta.WatchEvent::getType).toList());
        V1.ConfigMap modified = V1.ConfigMap.parseFrom(envelope(events.get(1).getObject().getRaw().toByteArray()).getRaw());
        assertEquals("y", modified.getDataMap().get("x"));
        InMemoryServer.Response gone = get(CMS + "?watch=1&timeoutSeconds=1&resourceVersion=1", PROTOBUF);
        List<Meta.WatchEvent> error = frames(gone.body());
        assertEquals("ERROR", error.getFirst().getType());
        Meta.Status status = Meta.Status.parseFrom(envelope(error.getFirst().getObject().getRaw().toByteArray()).getRaw());
        assertEquals(410, status.getCode());
    }

    @Test
    @DisplayName("a protobuf watch list ends its initial events with a protobuf BOOKMARK")
    void watchBookmark() throws Exception {
        InMemoryServer.Response r = get(CMS + "?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
                + "&allowWatchBookmarks=true&timeoutSeconds=1", CLIENT_GO);
        List<Meta.WatchEvent> events = frames(r.body());
        Meta.WatchEvent last = events.getLast();
        assertEquals("BOOKMARK", last.getType());
        V1.ConfigMap bookmark = V1.ConfigMap.parseFrom(envelope(last.getObject().getRaw().toByteArray()).getRaw());
        assertEquals("true", bookmark.getMetadata().getAnnotationsMap().get("k8s.io/initial-events-end"));
    }

    /** The frames of a protobuf watch body: each a 4-byte big-endian length and a WatchEvent. */
    static List<Meta.WatchEvent> frames(byte[] body) throws Exception {
        List<Meta.WatchEvent> out = new ArrayList<>();
        ByteBuffer in = ByteBuffer.wrap(body);
        while (in.remaining() > 0) {
            byte[] frame = new byte[in.getInt()];
            in.get(frame);
            out.add(Meta.WatchEvent.parseFrom(frame));
        }
        return out;
    }

    @Test
    @DisplayName("custom resources: 406 to a protobuf-only client, JSON when JSON is acceptable, metadata in protobuf")
    void customResources() throws Exception {
        String crd = """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"gizmos.example.com"},
                 "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"gizmos","kind":"Gizmo"},
                   "versions":[{"name":"v1","served":true,"storage":true,
                     "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}""";
        assertEquals(201, api.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).code());
        api.assembly().hooks().stream().filter(CrdController.class::isInstance).map(CrdController.class::cast)
                .findFirst().orElseThrow().syncAll();
        String gizmos = "/apis/example.com/v1/namespaces/default/gizmos";
        assertEquals(201, api.post(gizmos, "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Gizmo\",\"metadata\":{\"name\":\"g\"}}")
                .code());
        InMemoryServer.Response only = get(gizmos + "/g", PROTOBUF);
        assertEquals(406, only.status());
        assertEquals(List.of("application/json"), only.header("content-type"));
        InMemoryServer.Response either = get(gizmos + "/g", CLIENT_GO);
        assertEquals(200, either.status());
        assertEquals(List.of("application/json"), either.header("content-type"));
        assertEquals("Gizmo", either.json().path("kind").asText());
        InMemoryServer.Response watch = get(gizmos + "?watch=1&timeoutSeconds=1", CLIENT_GO);
        assertEquals(List.of("application/json"), watch.header("content-type"));
        assertTrue(new String(watch.body(), StandardCharsets.UTF_8).contains("\"ADDED\""));
        InMemoryServer.Response meta = get(gizmos,
                "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json");
        assertEquals(List.of(PROTOBUF), meta.header("content-type"));
        Meta.PartialObjectMetadataList list = Meta.PartialObjectMetadataList.parseFrom(envelope(meta.body()).getRaw());
        assertEquals("g", list.getItems(0).getMetadata().getName());
    }
}
