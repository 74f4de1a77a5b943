package io.kapi.machinery.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kapi.machinery.Json;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("trees whose copy, equality, hash and writing need no stack")
class StacklessNodesTest {

    /** A random tree of objects, arrays and scalars, built by {@code nodes}: up to 3 fields of 6 names. */
    private static JsonNode random(Random r, JsonNodeFactory nodes, int depth) {
        return random(r, nodes, depth, new Shape(4, 4, 6, 4));
    }

    /**
     * @param scalarOdds one in this many containers is a scalar instead
     * @param fields an object has fewer fields than this, named from {@code names} names
     * @param elements an array has fewer elements than this
     */
    private record Shape(int scalarOdds, int fields, int names, int elements) {
    }

    private static JsonNode random(Random r, JsonNodeFactory nodes, int depth, Shape shape) {
        if (depth == 0 || r.nextInt(shape.scalarOdds()) == 0) {
            return switch (r.nextInt(6)) {
                case 0 -> nodes.textNode("s" + r.nextInt(5));
                case 1 -> nodes.numberNode(r.nextInt(5));
                case 2 -> nodes.numberNode(new java.math.BigDecimal("1.50"));
                case 3 -> nodes.booleanNode(r.nextBoolean());
                case 4 -> nodes.nullNode();
                default -> nodes.numberNode(r.nextLong());
            };
        }
        if (r.nextBoolean()) {
            var o = nodes.objectNode();
            for (int i = r.nextInt(shape.fields()); i > 0; i--) {
                o.set("k" + r.nextInt(shape.names()), random(r, nodes, depth - 1, shape));
            }
            return o;
        }
        var a = nodes.arrayNode();
        for (int i = r.nextInt(shape.elements()); i > 0; i--) {
            a.add(random(r, nodes, depth - 1, shape));
        }
        return a;
    }

    @Test
    @DisplayName("copies, equality, hash codes and JSON are Jackson's, so both kinds of tree mix")
    void sameAsJackson() throws Exception {
        JsonMapper plain = new JsonMapper();
        for (int seed = 0; seed < 500; seed++) {
            JsonNode ours = random(new Random(seed), Json.NODES, 6);
            JsonNode theirs = random(new Random(seed), JsonNodeFactory.withExactBigDecimals(true), 6);
            assertEquals(theirs, ours);
            assertEquals(ours, theirs);
            assertEquals(theirs.hashCode(), ours.hashCode());
            assertEquals(plain.writeValueAsString(theirs), ours.toString());
            assertEquals(plain.writeValueAsString(theirs), Json.MAPPER.writeValueAsString(ours));
            JsonNode copy = ours.deepCopy();
            assertEquals(ours, copy);
            if (ours.isContainerNode()) {
                assertTrue(copy != ours);
            }
            JsonNode other = random(new Random(seed + 10_000), Json.NODES, 6);
            if (!other.equals(theirs)) {
                assertNotEquals(ours, other);
            }
        }
    }

    /** A random tree whose objects have up to 20 fields: compact ones keep up to 12 inline, then a map. */
    private static JsonNode wide(Random r, JsonNodeFactory nodes, int depth) {
        return random(r, nodes, depth, new Shape(5, 21, 24, 5));
    }

    @Test
    @DisplayName("compact trees (fields inline, and past 12 in a map) copy, compare, hash and write as Jackson's")
    void compactSameAsJackson() throws Exception {
        JsonMapper plain = new JsonMapper();
        for (int seed = 0; seed < 300; seed++) {
            JsonNode compact = wide(new Random(seed), Json.compactNodes(), 4);
            JsonNode theirs = wide(new Random(seed), JsonNodeFactory.withExactBigDecimals(false), 4); // as compact
            assertEquals(theirs, compact);
            assertEquals(theirs.hashCode(), compact.hashCode());
            assertEquals(plain.writeValueAsString(theirs), compact.toString());
            assertEquals(plain.writeValueAsString(theirs), Json.MAPPER.writeValueAsString(compact));
            JsonNode copy = compact.deepCopy();
            assertEquals(theirs, copy);
            assertEquals(theirs.hashCode(), copy.hashCode());
            String text = plain.writeValueAsString(theirs);
            JsonNode read = Json.COMPACT_READER.readTree(text);
            JsonNode readByJackson = plain.readTree(text); // both read 1.50 as the double 1.5
            assertEquals(plain.writeValueAsString(readByJackson), read.toString());
            assertEquals(readByJackson.hashCode(), read.hashCode());
        }
    }

    /** A chain {@code depth} containers deep, objects and arrays in turn, with scalars beside each link. */
    private static JsonNode chain(JsonNodeFactory nodes, int depth) {
        var root = nodes.objectNode();
        com.fasterxml.jackson.databind.node.ContainerNode<?> node = root;
        for (int i = 1; i < depth; i++) {
            if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
                o.put("before", i);
                o.putNull("none");
                o.putArray("empty");
                var next = i % 2 == 0 ? o.putObject("o") : o.putArray("a");
                o.put("after", "s" + i);
                node = next;
            } else {
                var a = (com.fasterxml.jackson.databind.node.ArrayNode) node;
                a.add(i);
                var next = a.addObject();
                a.addNull();
                node = next;
            }
        }
        return root;
    }

    @Test
    @DisplayName("trees about as deep as the writer recurses, and deeper, write as Jackson's, compact ones too")
    void writesPastRecursionAsJackson() throws Exception {
        JsonMapper plain = new JsonMapper();
        for (int depth : new int[] {TreeWalks.RECURSION_DEPTH - 1, TreeWalks.RECURSION_DEPTH,
                TreeWalks.RECURSION_DEPTH + 1, TreeWalks.RECURSION_DEPTH + 2, 3 * TreeWalks.RECURSION_DEPTH + 5}) {
            String expected = plain.writeValueAsString(chain(JsonNodeFactory.instance, depth));
            assertEquals(expected, chain(Json.NODES, depth).toString(), "depth " + depth);
            assertEquals(expected, Json.MAPPER.writeValueAsString(chain(Json.NODES, depth)), "depth " + depth);
            assertEquals(expected, chain(Json.compactNodes(), depth).toString(), "compact, depth " + depth);
        }
    }

    @Test
    @DisplayName("a tree 100,000 levels deep is copied, compared, hashed and written, and the mapper reads 20,000, on a 128 KiB stack")
    void deepTreeOnSmallStack() throws Exception {
        var root = Json.NODES.objectNode();
        var node = root;
        for (int i = 0; i < 100_000; i++) {
            node = i % 2 == 0 ? node.putObject("a") : node.putArray("b").addObject();
        }
        node.put("leaf", 1);
        JsonNode tree = root;
        AtomicReference<Object> out = new AtomicReference<>();
        Thread small = new Thread(null, () -> {
            try {
                JsonNode copy = tree.deepCopy();
                boolean equal = copy.equals(tree) && tree.equals(copy);
                boolean sameHash = copy.hashCode() == tree.hashCode();
                boolean withComparator = tree.equals((a, b) -> a.equals(b) ? 0 : 1, copy);
                String json = copy.toString();
                String within = "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH);
                boolean readBack = Json.MAPPER.readTree(within).toString().equals(within);
                out.set(equal && sameHash && withComparator && readBack && json.length() > 400_000);
            } catch (Throwable t) {
                out.set(t);
            }
        }, "small-stack", 128 * 1024);
        small.start();
        small.join();
        assertEquals(true, out.get());
        var changed = tree.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) changed).put("other", 2);
        assertFalse(changed.equals(tree));
    }
}
