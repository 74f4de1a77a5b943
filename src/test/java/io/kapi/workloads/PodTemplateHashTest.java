package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PodTemplateHashTest {

    private static JsonNode json(String text) throws Exception {
        return Json.MAPPER.readTree(text);
    }

    @Test
    @DisplayName("FNV-32a gives the published test vectors")
    void fnv() {
        assertEquals(0x811c9dc5, PodTemplateHash.fnv(0x811c9dc5, new byte[0]));
        assertEquals(0xe40c292c, PodTemplateHash.fnv(0x811c9dc5, "a".getBytes(StandardCharsets.UTF_8)));
        assertEquals(0xbf9cf968, PodTemplateHash.fnv(0x811c9dc5, "foobar".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    @DisplayName("SafeEncodeString maps each digit into kube's alphabet")
    void safeEncode() {
        assertEquals("456789bcdf", PodTemplateHash.safeEncode("0123456789"));
    }

    @Test
    @DisplayName("the hash is the decimal of the unsigned sum, encoded: at most 10 characters of the alphabet")
    void shape() throws Exception {
        String hash = PodTemplateHash.of(json("{\"metadata\":{\"labels\":{\"app\":\"web\"}}}"), null);
        assertTrue(hash.matches("[456789bcdf]{1,10}"), hash);
    }

    @Test
    @DisplayName("the hash ignores key order and nulls, and changes with the template and the collision count")
    void deterministic() throws Exception {
        JsonNode a = json("{\"metadata\":{\"labels\":{\"app\":\"web\",\"tier\":\"x\"},\"creationTimestamp\":null},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}");
        JsonNode b = json("{\"spec\":{\"containers\":[{\"image\":\"nginx\",\"name\":\"c\"}]},"
                + "\"metadata\":{\"labels\":{\"tier\":\"x\",\"app\":\"web\"}}}");
        assertEquals(PodTemplateHash.of(a, null), PodTemplateHash.of(b, null));
        JsonNode c = json("{\"spec\":{\"containers\":[{\"image\":\"nginx:2\",\"name\":\"c\"}]},"
                + "\"metadata\":{\"labels\":{\"tier\":\"x\",\"app\":\"web\"}}}");
        assertNotEquals(PodTemplateHash.of(a, null), PodTemplateHash.of(c, null));
        assertNotEquals(PodTemplateHash.of(a, null), PodTemplateHash.of(a, 1));
        assertNotEquals(PodTemplateHash.of(a, 1), PodTemplateHash.of(a, 2));
    }

    @Test
    @DisplayName("templates are equal without the hash label, an empty label map being no labels")
    void equalIgnoringHash() throws Exception {
        assertTrue(PodTemplateHash.equalIgnoringHash(
                json("{\"metadata\":{\"labels\":{\"app\":\"a\",\"pod-template-hash\":\"5d9\"}},\"spec\":{\"x\":1}}"),
                json("{\"metadata\":{\"labels\":{\"app\":\"a\"}},\"spec\":{\"x\":1}}")));
        assertTrue(PodTemplateHash.equalIgnoringHash(
                json("{\"metadata\":{\"labels\":{\"pod-template-hash\":\"5d9\"}},\"spec\":{}}"),
                json("{\"metadata\":{},\"spec\":{}}")));
        assertFalse(PodTemplateHash.equalIgnoringHash(json("{\"spec\":{\"x\":1}}"), json("{\"spec\":{\"x\":2}}")));
    }
}
