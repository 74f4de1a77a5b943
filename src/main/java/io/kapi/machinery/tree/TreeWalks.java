package io.kapi.machinery.tree;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Map;

/**
 * The whole-tree operations of a Jackson tree — copy, equality, hash code, serialization — done with an
 * explicit stack instead of Jackson's recursion, so a tree as deep as a request may make it (Go's decoder
 * allows 10,000 levels) is copied, compared and written on any thread. Results are those of Jackson's own
 * operations: the same equality and hash codes (so trees of these nodes and of Jackson's mix freely in
 * maps and sets), the same tokens written.
 */
final class TreeWalks {

    private TreeWalks() {
    }

    /** A copy of the container {@code root}, its containers made by {@code nodes}, its scalars shared. */
    static JsonNode copy(JsonNode root, JsonNodeFactory nodes) {
        OpenContainers sources = new OpenContainers();
        ArrayDeque<JsonNode> targets = new ArrayDeque<>();
        JsonNode top = emptyLike(root, nodes);
        sources.push(root, null);
        targets.push(top);
        while (!sources.isEmpty()) {
            if (!sources.next()) {
                sources.pop();
                targets.pop();
                continue;
            }
            JsonNode value = sources.value();
            JsonNode copied = value.isContainerNode() ? emptyLike(value, nodes) : value;
            if (targets.peek() instanceof ObjectNode o) {
                o.set(sources.key(), copied);
            } else {
                ((ArrayNode) targets.peek()).add(copied);
            }
            if (value.isContainerNode()) {
                sources.push(value, sources.key());
                targets.push(copied);
            }
        }
        return top;
    }

    /** Whether {@code a} and {@code b} are equal as Jackson's {@code equals} has it (same types, same order). */
    static boolean equal(JsonNode a, JsonNode b) {
        return equal(a, b, null);
    }

    /**
     * Whether {@code a} and {@code b} are equal as Jackson's {@code equals(Comparator, JsonNode)} has it:
     * containers alike, scalars equal by {@code scalars} (by {@code equals} when null).
     */
    static boolean equal(JsonNode a, JsonNode b, java.util.Comparator<JsonNode> scalars) {
        ArrayDeque<JsonNode[]> pairs = new ArrayDeque<>();
        pairs.push(new JsonNode[] {a, b});
        while (!pairs.isEmpty()) {
            JsonNode[] pair = pairs.pop();
            JsonNode x = pair[0];
            JsonNode y = pair[1];
            if (x == y && scalars == null) {
                continue;
            }
            if (y == null) {
                return false;
            }
            if (x instanceof ObjectNode xo) {
                if (!(y instanceof ObjectNode yo) || xo.size() != yo.size()) {
                    return false;
                }
                for (Map.Entry<String, JsonNode> field : xo.properties()) {
                    JsonNode other = yo.get(field.getKey());
                    if (other == null) {
                        return false;
                    }
                    pairs.push(new JsonNode[] {field.getValue(), other});
                }
            } else if (x instanceof ArrayNode xa) {
                if (!(y instanceof ArrayNode ya) || xa.size() != ya.size()) {
                    return false;
                }
                for (int i = 0; i < xa.size(); i++) {
                    pairs.push(new JsonNode[] {xa.get(i), ya.get(i)});
                }
            } else if (y.isContainerNode() || (scalars == null ? !x.equals(y) : scalars.compare(x, y) != 0)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Jackson's hash code of a container, computed bottom-up: an object's is its field map's (the sum of
     * {@code key.hashCode() ^ value.hashCode()}), an array's its element list's ({@code 31 * h + e.hashCode()}).
     */
    static int hash(JsonNode root) {
        OpenContainers open = new OpenContainers(); // each container's running hash in its sum
        open.push(root, null);
        open.topSum(root.isObject() ? 0 : 1);
        while (true) {
            if (!open.next()) {
                int h = open.topSum();
                String key = open.topKey();
                open.pop();
                if (open.isEmpty()) {
                    return h;
                }
                open.topSum(combine(open.top(), open.topSum(), key, h));
                continue;
            }
            JsonNode value = open.value();
            if (value.isContainerNode()) {
                open.push(value, open.key());
                open.topSum(value.isObject() ? 0 : 1);
            } else {
                open.topSum(combine(open.top(), open.topSum(), open.key(), value.hashCode()));
            }
        }
    }

    private static int combine(JsonNode container, int h, String key, int childHash) {
        return container.isObject() ? h + (key.hashCode() ^ childHash) : 31 * h + childHash;
    }

    /**
     * How deep {@link #write} recurses before it walks the rest of a subtree with an explicit stack: a depth any
     * stored object reaches (a pod's deepest field is ~12 levels down), few frames on any thread's stack.
     */
    static final int RECURSION_DEPTH = 32;

    /** Writes {@code root} as Jackson's serializers do (empty arrays and null fields as the provider says). */
    static void write(JsonNode root, JsonGenerator g, SerializerProvider provider) throws IOException {
        boolean trimEmptyArrays = provider != null && !provider.isEnabled(SerializationFeature.WRITE_EMPTY_JSON_ARRAYS);
        boolean skipNulls = provider != null && !provider.isEnabled(JsonNodeFeature.WRITE_NULL_PROPERTIES);
        new Writer(g, provider, trimEmptyArrays, skipNulls).container(root, 0);
    }

    /**
     * Writes a tree by recursion to {@link #RECURSION_DEPTH}, deeper subtrees with an explicit stack. A LIST
     * of 10,000 objects writes each item with this: the explicit stack's five arrays per item were two fifths
     * of what a flood of such LISTs allocated (JFR), and keeping one set per thread instead made the writes
     * slower (stores into old arrays cost the collector's write barrier more than the allocation saved).
     */
    private record Writer(JsonGenerator g, SerializerProvider provider, boolean trimEmptyArrays, boolean skipNulls) {

        void container(JsonNode container, int depth) throws IOException {
            if (depth >= RECURSION_DEPTH) {
                walk(container);
                return;
            }
            start(container, g);
            if (container.isArray()) {
                for (int i = 0, n = container.size(); i < n; i++) {
                    child(null, container.get(i), depth);
                }
                g.writeEndArray();
                return;
            }
            CompactFields inline = StacklessNodes.inlineFields(container);
            if (inline != null) {
                for (int i = 0, n = inline.inlineSize(); i < n; i++) {
                    child(inline.keyAt(i), inline.valueAt(i), depth);
                }
            } else {
                for (Map.Entry<String, JsonNode> field : container.properties()) {
                    child(field.getKey(), field.getValue(), depth);
                }
            }
            g.writeEndObject();
        }

        private void child(String key, JsonNode value, int depth) throws IOException {
            if (!named(key, value)) {
                return;
            }
            if (value.isContainerNode()) {
                container(value, depth + 1);
            } else {
                scalar(value);
            }
        }

        /** Writes the container {@code root} with an explicit stack, as deep as it goes. */
        private void walk(JsonNode root) throws IOException {
            OpenContainers open = new OpenContainers();
            start(root, g);
            open.push(root, null);
            while (!open.isEmpty()) {
                if (!open.next()) {
                    if (open.top().isObject()) {
                        g.writeEndObject();
                    } else {
                        g.writeEndArray();
                    }
                    open.pop();
                    continue;
                }
                JsonNode value = open.value();
                String key = open.key();
                if (!named(key, value)) {
                    continue;
                }
                if (value.isContainerNode()) {
                    start(value, g);
                    open.push(value, key);
                } else {
                    scalar(value);
                }
            }
        }

        /**
         * Writes the field name {@code key} of {@code value} (none in an array, where {@code key} is null);
         * false for a field the provider leaves out (a null, an empty array), which is not written at all.
         */
        private boolean named(String key, JsonNode value) throws IOException {
            if (key == null) {
                return true;
            }
            if ((skipNulls && value.isNull()) || (trimEmptyArrays && value.isArray() && value.isEmpty())) {
                return false;
            }
            g.writeFieldName(key);
            return true;
        }

        private void scalar(JsonNode value) throws IOException {
            ((com.fasterxml.jackson.databind.JsonSerializable) value).serialize(g, provider);
        }
    }

    private static void start(JsonNode container, JsonGenerator g) throws IOException {
        if (container.isObject()) {
            g.writeStartObject(container, container.size());
        } else {
            g.writeStartArray(container, container.size());
        }
    }

    private static JsonNode emptyLike(JsonNode container, JsonNodeFactory nodes) {
        return container.isObject() ? nodes.objectNode() : nodes.arrayNode(container.size());
    }
}
