package io.kapi.machinery.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.kapi.machinery.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CompactFieldsTest {

    @Test
    @DisplayName("behaves as a LinkedHashMap under random puts, removes, iterator removes and setValue, inline and large")
    void sameAsLinkedHashMap() {
        Random random = new Random(42);
        for (int round = 0; round < 300; round++) {
            CompactFields compact = new CompactFields();
            Map<String, JsonNode> model = new LinkedHashMap<>();
            int keys = 1 + random.nextInt(round % 3 == 0 ? 40 : 14);
            for (int op = 0; op < 200; op++) {
                // new String: keys equal but not identical to the ones stored
                String key = new String("k" + random.nextInt(keys));
                JsonNode value = TextNode.valueOf("v" + op);
                switch (random.nextInt(6)) {
                    case 0, 1, 2 -> assertEquals(model.put(key, value), compact.put(key, value));
                    case 3 -> assertEquals(model.remove(key), compact.remove(key));
                    case 4 -> {
                        int skip = random.nextInt(Math.max(1, model.size()));
                        Iterator<Map.Entry<String, JsonNode>> m = model.entrySet().iterator();
                        Iterator<Map.Entry<String, JsonNode>> c = compact.entrySet().iterator();
                        for (int i = 0; i < skip && m.hasNext(); i++) {
                            assertEquals(m.next(), c.next());
                        }
                        if (m.hasNext()) {
                            Map.Entry<String, JsonNode> me = m.next();
                            Map.Entry<String, JsonNode> ce = c.next();
                            if (random.nextBoolean()) {
                                m.remove();
                                c.remove();
                            } else {
                                assertEquals(me.setValue(value), ce.setValue(value));
                            }
                        }
                    }
                    default -> {
                        assertEquals(model.get(key), compact.get(key));
                        assertEquals(model.containsKey(key), compact.containsKey(key));
                    }
                }
                assertEquals(model.size(), compact.size());
                assertEquals(new ArrayList<>(model.keySet()), new ArrayList<>(compact.keySet()), "iteration order");
                assertEquals(new ArrayList<>(model.values()), new ArrayList<>(compact.values()));
                assertEquals(model, compact);
                assertEquals(compact, model);
                assertEquals(model.hashCode(), compact.hashCode());
            }
            compact.clear();
            assertTrue(compact.isEmpty());
            assertNull(compact.get("k0"));
        }
    }

    @Test
    @DisplayName("an iterator refuses a second remove and next past the end")
    void iteratorContract() {
        CompactFields fields = new CompactFields();
        fields.put("a", TextNode.valueOf("1"));
        Iterator<Map.Entry<String, JsonNode>> it = fields.entrySet().iterator();
        assertThrows(IllegalStateException.class, it::remove);
        it.next();
        it.remove();
        assertThrows(IllegalStateException.class, it::remove);
        assertFalse(it.hasNext());
        assertThrows(java.util.NoSuchElementException.class, it::next);
        assertTrue(fields.isEmpty());
    }

    @Test
    @DisplayName("the compact reader reads the same trees as the mapper: equal, same order, same JSON, copies ordinary")
    void compactReaderReadsTheSameTrees() throws Exception {
        StringBuilder big = new StringBuilder("{");
        for (int i = 0; i < 100; i++) {
            big.append(i == 0 ? "" : ",").append("\"key-").append(i).append("\":\"").append(i).append('"');
        }
        big.append('}');
        String json = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"labels\":"
                + "{\"x\":\"1\",\"y\":\"2\"},\"managedFields\":[{\"manager\":\"m\",\"fieldsV1\":{\"f:data\":{}}}]},"
                + "\"data\":" + big + ",\"n\":1.50,\"i\":12345678901234567890,\"b\":true,\"z\":null}";
        JsonNode plain = Json.MAPPER.readTree(json);
        JsonNode compact = Json.COMPACT_READER.readTree(json);
        assertEquals(plain, compact);
        assertEquals(compact, plain);
        assertEquals(plain.hashCode(), compact.hashCode());
        assertEquals(Json.MAPPER.writeValueAsString(plain), Json.MAPPER.writeValueAsString(compact));
        assertEquals(List.of("apiVersion", "kind", "metadata", "data", "n", "i", "b", "z"),
                iterate(compact.fieldNames()));
        ObjectNode copy = (ObjectNode) compact.deepCopy();
        copy.with("metadata").put("name", "b");
        assertEquals("a", compact.path("metadata").path("name").asText(), "a copy's change leaves the original");
        ObjectNode edited = (ObjectNode) Json.COMPACT_READER.readTree(json);
        ((ObjectNode) edited.get("metadata")).put("resourceVersion", "7").remove("labels");
        assertEquals("{\"name\":\"a\",\"managedFields\":[{\"manager\":\"m\",\"fieldsV1\":{\"f:data\":{}}}],"
                + "\"resourceVersion\":\"7\"}", Json.MAPPER.writeValueAsString(edited.get("metadata")));
    }

    private static List<String> iterate(Iterator<String> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
