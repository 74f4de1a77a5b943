package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ControllerHistoryTest {

    private static ObjectNode json(String text) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(text);
    }

    private static final String SET = """
            {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"web","namespace":"ns","uid":"u1"},
             "spec":{"replicas":3,"template":{"metadata":{"labels":{"app":"web"}},
             "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}""";

    @Test
    @DisplayName("FNV-32 (Go's fnv.New32, multiply then xor) gives the published test vectors")
    void fnv1() {
        assertEquals(0x811c9dc5, ControllerHistory.fnv1(0x811c9dc5, new byte[0]));
        assertEquals(0x050c5d7e, ControllerHistory.fnv1(0x811c9dc5, "a".getBytes(StandardCharsets.UTF_8)));
        assertEquals(0x31f0b262, ControllerHistory.fnv1(0x811c9dc5, "foobar".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    @DisplayName("the data are hashed as Go's json.Marshal writes them: keys sorted, <>& escaped")
    void goJson() throws Exception {
        assertEquals("{\"a\":[1,\"\\u003cx\\u0026y\\u003e\"],\"b\":{\"c\":true,\"d\":null}}",
                ControllerHistory.goJson(json("{\"b\":{\"d\":null,\"c\":true},\"a\":[1,\"<x&y>\"]}")));
    }

    @Test
    @DisplayName("the hash is SafeEncodeString of FNV-32 over the data, then over the collision count in decimal")
    void hash() throws Exception {
        JsonNode data = json("{\"a\":1}");
        int plain = ControllerHistory.fnv1(0x811c9dc5, "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        assertEquals(PodTemplateHash.safeEncode(Integer.toUnsignedString(plain)), ControllerHistory.hash(data, null));
        int probed = ControllerHistory.fnv1(plain, "12".getBytes(StandardCharsets.UTF_8));
        assertEquals(PodTemplateHash.safeEncode(Integer.toUnsignedString(probed)), ControllerHistory.hash(data, 12));
        assertNotEquals(ControllerHistory.hash(data, 0), ControllerHistory.hash(data, 1));
    }

    @Test
    @DisplayName("the patch replaces the whole template; the revision is named <owner>-<hash>, labelled and controlled")
    void newRevision() throws Exception {
        ObjectNode set = json(SET);
        ObjectNode patch = ControllerHistory.patchOf(set);
        assertEquals(json("""
                {"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}},
                "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}"""), patch);
        ObjectNode r = ControllerHistory.newRevision(set, patch, 4, 0);
        String hash = ControllerHistory.hash(patch, 0);
        assertEquals("web-" + hash, r.path("metadata").path("name").asText());
        assertEquals(json("{\"app\":\"web\",\"controller.kubernetes.io/hash\":\"" + hash + "\"}"),
                r.path("metadata").path("labels"));
        assertEquals("StatefulSet/web/u1/true", r.at("/metadata/ownerReferences/0/kind").asText() + "/"
                + r.at("/metadata/ownerReferences/0/name").asText() + "/" + r.at("/metadata/ownerReferences/0/uid").asText()
                + "/" + r.at("/metadata/ownerReferences/0/controller").asText());
        assertEquals(4, r.path("revision").asLong());
        assertEquals("x".repeat(223) + "-h", ControllerHistory.name("x".repeat(300), "h"));
    }

    @Test
    @DisplayName("revisions sort by number; the next is one past the highest; equal data are found whatever the name")
    void ordering() throws Exception {
        ObjectNode a = json("{\"metadata\":{\"name\":\"a\"},\"revision\":2,\"data\":{\"x\":1}}");
        ObjectNode b = json("{\"metadata\":{\"name\":\"b\"},\"revision\":1,\"data\":{\"x\":2}}");
        List<ObjectNode> sorted = new java.util.ArrayList<>(List.of(a, b));
        sorted.sort(ControllerHistory.ORDER);
        assertEquals(List.of(b, a), sorted);
        assertEquals(3, ControllerHistory.nextRevision(sorted));
        assertEquals(1, ControllerHistory.nextRevision(List.of()));
        assertEquals(List.of(b), ControllerHistory.equalTo(sorted, json("{\"data\":{\"x\":2}}")));
        ObjectNode longData = Json.object();
        longData.putObject("data").put("x", 2L);
        assertEquals(List.of(b), ControllerHistory.equalTo(sorted, longData), "a long 2 is the same data as an int 2");
    }
}
