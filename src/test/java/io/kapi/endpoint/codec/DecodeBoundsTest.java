package io.kapi.endpoint.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.DecodeBudget;
import io.kapi.machinery.GroupVersionKind;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("request bodies are decoded within the depth and size budget")
public class DecodeBoundsTest {

    private static final GroupVersionKind CM = new GroupVersionKind("", "v1", "ConfigMap");

    private static Decoded decode(String contentType, String body) {
        return RequestDecoder.decode(contentType, new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), CM);
    }

    private static ApiException refused(String contentType, String body) {
        return refused(contentType, body, 2_000);
    }

    private static ApiException refused(String contentType, String body, long maxMillis) {
        long t0 = System.nanoTime();
        ApiException e = assertThrows(ApiException.class, () -> decode(contentType, body));
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertTrue(took.toMillis() < maxMillis, "refused in " + took);
        assertEquals(400, e.code(), e.getMessage());
        return e;
    }

    /** The 395-byte "billion laughs": nine levels of nine aliases, 9^9 strings once expanded. */
    /** The alias bomb of kube's yaml tests: nine levels of nine aliases each (also sent by bench/hostile.sh). */
    public static String aliasBomb() {
        StringBuilder b = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n");
        b.append("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        char previous = 'a';
        for (char c = 'b'; c <= 'i'; c++) {
            b.append(c).append(": &").append(c).append(" [");
            for (int k = 0; k < 9; k++) {
                b.append(k == 0 ? "" : ",").append('*').append(previous);
            }
            b.append("]\n");
            previous = c;
        }
        return b.toString();
    }

    static String nestedJson(int depth) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"x\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
    }

    @Test
    @DisplayName("a YAML alias bomb is 400 'excessive aliasing' before anything is expanded")
    void aliasBombIsRefused() {
        ApiException e = refused("application/yaml", aliasBomb());
        assertEquals("the object provided is unrecognized (must be of type ConfigMap): error converting YAML to "
                + "JSON: yaml: document contains excessive aliasing (61706956657273696f6e3a2076310a6b696e643a20436f"
                + "6e6669674d6170 ...)", e.getMessage());
    }

    @Test
    @DisplayName("aliases below go-yaml's ratio still decode, each a copy of its anchor")
    void modestAliasesDecode() {
        Decoded d = decode("application/yaml", "a: &x {k: [1, 2]}\nb: *x\nc: *x\n");
        assertEquals("{\"a\":{\"k\":[1,2]},\"b\":{\"k\":[1,2]},\"c\":{\"k\":[1,2]}}", d.object().toString());
        d.object().withObject("b").put("k", 0);
        assertEquals("[1,2]", d.object().path("c").path("k").toString());
    }

    @Test
    @DisplayName("aliases whose copies pass the size budget are refused, whatever their ratio")
    void aliasesPastTheSizeBudget() {
        String big = "\"" + "x".repeat(200_000) + "\"";
        StringBuilder b = new StringBuilder("a: &a [" + big + "]\nb: [");
        for (int i = 0; i < 40; i++) {
            b.append(i == 0 ? "" : ",").append("*a");
        }
        b.append("]\n");
        assertTrue(refused("application/yaml", b.toString()).getMessage().contains("excessive aliasing"));
    }

    @Test
    @DisplayName("an alias that would nest past the depth limit is refused")
    void aliasPastTheDepthLimit() {
        int half = DecodeBudget.MAX_DEPTH / 2 + 5;
        String yaml = "a: &a " + "[".repeat(half) + "]".repeat(half) + "\nb: " + "[".repeat(half) + "*a"
                + "]".repeat(half) + "\n";
        // SnakeYAML scans flow collections in time quadratic in their depth (as go-yaml v2): two of 5,000
        // levels take a second or two, so this case gets more time than refused() gives
        ApiException e = assertThrows(ApiException.class, () -> decode("application/yaml", yaml));
        assertEquals(400, e.code());
        assertTrue(e.getMessage().contains("yaml: exceeded max depth of " + DecodeBudget.MAX_DEPTH), e.getMessage());
    }

    @Test
    @DisplayName("JSON at the depth limit decodes; one level more is Go's 'exceeded max depth'")
    void jsonDepth() {
        int inField = DecodeBudget.MAX_DEPTH - 1;
        decode("application/json", nestedJson(inField));
        ApiException e = refused("application/json", nestedJson(inField + 1));
        assertTrue(e.getMessage().contains("json parse error: invalid character '[' exceeded max depth"),
                e.getMessage());
        refused("application/json", nestedJson(100_000));
    }

    @Test
    @DisplayName("YAML deeper than the limit, flow or block style, 100,000 levels included, is refused")
    void yamlDepth() {
        String flow = "x: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n";
        // SnakeYAML scans flow collections in time quadratic in their depth (as go-yaml v2): the 10,000 levels
        // read before the refusal take about a second
        assertTrue(refused("application/yaml", flow, 10_000).getMessage().contains("exceeded max depth of 10000"));
        String block = "x:\n" + "- ".repeat(50_000) + "1\n";
        assertTrue(refused("application/yaml", block).getMessage().contains("exceeded max depth of 10000"));
        decode("application/yaml", "x: " + "[".repeat(9_999) + "]".repeat(9_999) + "\n");
    }

    @Test
    @DisplayName("a tree built elsewhere (a patch result) is measured without recursion")
    void treeCheck() {
        var deep = io.kapi.machinery.Json.object();
        var at = deep;
        for (int i = 0; i < 100_000; i++) {
            at = at.putObject("a");
        }
        var e = assertThrows(DecodeBudget.Exceeded.class, () -> DecodeBudget.check(deep));
        assertEquals(DecodeBudget.Exceeded.Limit.DEPTH, e.limit());
        assertEquals(10, DecodeBudget.sizeOf(io.kapi.machinery.Json.object().put("a", "b"), 100));
    }
}
