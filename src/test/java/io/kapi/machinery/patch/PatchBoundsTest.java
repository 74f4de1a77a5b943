package io.kapi.machinery.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.DecodeBudget;
import io.kapi.machinery.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("patches stay within the decoding bounds")
class PatchBoundsTest {

    private static ObjectNode configMap() {
        ObjectNode cm = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
        cm.putObject("metadata").put("name", "x");
        cm.putObject("data").put("k", "v".repeat(1000));
        return cm;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("copies that double the document each time stop at kube's 3 MiB copy limit (422)")
    void copyBomb() {
        StringBuilder ops = new StringBuilder("[{\"op\":\"add\",\"path\":\"/x\",\"value\":{\"d\":\"" + "y".repeat(1000)
                + "\"}}");
        for (int i = 0; i < 64; i++) {
            ops.append(",{\"op\":\"copy\",\"from\":\"/x\",\"path\":\"/x/c").append(i).append("\"}");
        }
        ops.append("]");
        long t0 = System.nanoTime();
        ApiException e = assertThrows(ApiException.class,
                () -> Patches.apply(PatchType.JSON, configMap(), bytes(ops.toString()), null));
        assertEquals(422, e.code());
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L);
    }

    @Test
    @DisplayName("a patch body deeper than the limit is 400 for merge, strategic and JSON patches")
    void deepBodies() {
        int d = DecodeBudget.MAX_DEPTH + 1;
        String deep = "{\"a\":".repeat(d) + "1" + "}".repeat(d);
        for (PatchType type : new PatchType[] {PatchType.MERGE, PatchType.JSON}) {
            String body = type == PatchType.JSON ? "[{\"op\":\"add\",\"path\":\"/x\",\"value\":" + deep + "}]" : deep;
            ApiException e = assertThrows(ApiException.class,
                    () -> Patches.apply(type, configMap(), bytes(body), null));
            assertEquals(400, e.code(), type + ": " + e.getMessage());
        }
    }

    @Test
    @DisplayName("JSON patch operations that each nest one level deeper are stopped at the limit (400)")
    void deepeningOperations() {
        int half = DecodeBudget.MAX_DEPTH / 2 + 2;
        String value = "{\"a\":".repeat(half) + "{}" + "}".repeat(half);
        String path = "/x" + "/a".repeat(half);
        String body = "[{\"op\":\"add\",\"path\":\"/x\",\"value\":" + value + "},{\"op\":\"add\",\"path\":\""
                + path + "/b\",\"value\":" + value + "}]";
        ApiException e = assertThrows(ApiException.class,
                () -> Patches.apply(PatchType.JSON, configMap(), bytes(body), null));
        assertEquals(400, e.code());
        assertTrue(e.getMessage().contains("exceeded max depth of " + DecodeBudget.MAX_DEPTH), e.getMessage());
        String shallower = "[{\"op\":\"add\",\"path\":\"/x\",\"value\":" + value + "}]";
        assertEquals(half + 1, depth(Patches.apply(PatchType.JSON, configMap(), bytes(shallower), null).get("x")),
                "a patch nesting thousands of levels applies (on a deep stack)");
    }

    private static int depth(com.fasterxml.jackson.databind.JsonNode node) {
        int d = 0;
        for (com.fasterxml.jackson.databind.JsonNode n = node; n != null && n.isContainerNode(); n = n.get("a")) {
            d++;
        }
        return d;
    }
}
