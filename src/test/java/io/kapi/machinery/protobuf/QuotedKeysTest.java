package io.kapi.machinery.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.kapi.machinery.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class QuotedKeysTest {

    private static final List<String> KEYS = List.of("", ".", "f:metadata", "k:{\"uid\":\"0a1b\"}", "back\\slash",
            "tab\there", "nul\u0000", "\u001f", "\u007f", "\u0080", "é", "日本語", "emoji \uD83D\uDE00",
            "x".repeat(QuotedKeys.MAX_KEPT), "y".repeat(10 * QuotedKeys.MAX_KEPT), "\"".repeat(QuotedKeys.MAX_KEPT));

    @Test
    @DisplayName("a key is quoted as RawJson quotes a string, the first time and once kept, whatever its chars")
    void asAString() {
        for (int round = 0; round < 3; round++) {
            for (String key : KEYS) {
                assertArrayEquals(string(key), QuotedKeys.of(key), key);
                assertArrayEquals(string(key), QuotedKeys.of(new String(key)), key); // equal, not the same
            }
        }
    }

    @Test
    @DisplayName("a key without surrogates is quoted as the mapper writes it (the mapper escapes a surrogate pair)")
    void asTheMapper() {
        for (String key : KEYS) {
            if (key.chars().noneMatch(c -> Character.isSurrogate((char) c))) {
                assertArrayEquals(mapper(key), QuotedKeys.of(key), key);
            }
        }
    }

    @Test
    @DisplayName("a key with a lone surrogate is refused, as a string value with one is, and not kept")
    void loneSurrogate() {
        for (int round = 0; round < 2; round++) {
            assertThrows(IllegalArgumentException.class, () -> RawJson.bytes(TextNode.valueOf("lone \uD800")));
            assertThrows(IllegalArgumentException.class, () -> QuotedKeys.of("lone \uD800"));
        }
    }

    @Test
    @DisplayName("keys of one hash take each other's slot and are each still quoted as themselves")
    void collisions() {
        assertEquals("Aa".hashCode(), "BB".hashCode());
        for (int i = 0; i < 5; i++) {
            assertArrayEquals(string("Aa"), QuotedKeys.of("Aa"));
            assertArrayEquals(string("BB"), QuotedKeys.of("BB"));
        }
    }

    @Test
    @DisplayName("a key asked again while it keeps its slot gets the kept bytes")
    void kept() {
        String key = "f:quotedKeysTest-kept";
        assertSame(QuotedKeys.of(key), QuotedKeys.of(key));
    }

    @Test
    @DisplayName("threads sharing the table, with more keys than slots, each get their own key's bytes")
    void threads() throws Exception {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            keys.add("f:k" + i + (i % 7 == 0 ? "\"q\"" : ""));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int offset = t * 997;
                done.add(pool.submit(() -> {
                    for (int r = 0; r < 5; r++) {
                        for (int i = 0; i < keys.size(); i++) {
                            String key = keys.get((i + offset) % keys.size());
                            byte[] got = QuotedKeys.of(key);
                            if (!Arrays.equals(string(key), got)) {
                                throw new AssertionError(key + ": " + new String(got));
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    /** {@code "key":{}} as RawJson writes a string value, then a colon and an empty object. */
    private static byte[] string(String key) {
        byte[] quoted = RawJson.bytes(TextNode.valueOf(key));
        byte[] json = Arrays.copyOf(quoted, quoted.length + 3);
        json[quoted.length] = ':';
        json[quoted.length + 1] = '{';
        json[quoted.length + 2] = '}';
        return json;
    }

    /** {@code "key":{}} as Json.MAPPER writes it in an object. */
    private static byte[] mapper(String key) {
        try {
            ObjectNode parent = Json.object();
            parent.putObject(key);
            byte[] object = Json.MAPPER.writeValueAsBytes(parent);
            return Arrays.copyOfRange(object, 1, object.length - 1);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
