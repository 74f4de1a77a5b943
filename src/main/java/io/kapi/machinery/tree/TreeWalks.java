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
import java.util.Iterator;
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
        JsonNode top = emptyLike(root, nodes);
        ArrayDeque<Object[]> open = new ArrayDeque<>(); // {source iterator, target container}
        open.push(new Object[] {children(root), top});
        while (!open.isEmpty()) {
            Object[] frame = open.peek();
            @SuppressWarnings("unchecked")
            Iterator<Map.Entry<String, JsonNode>> it = (Iterator<Map.Entry<String, JsonNode>>) frame[0];
            if (!it.hasNext()) {
                open.pop();
                continue;
            }
            Map.Entry<String, JsonNode> child = it.next();
            JsonNode value = child.getValue();
            JsonNode copied = value.isContainerNode() ? emptyLike(value, nodes) : value;
            if (frame[1] instanceof ObjectNode o) {
                o.set(child.getKey(), copied);
            } else {
                ((ArrayNode) frame[1]).add(copied);
            }
            if (value.isContainerNode()) {
                open.push(new Object[] {children(value), copied});
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
        ArrayDeque<Object[]> open = new ArrayDeque<>(); // {node, child iterator, running hash, pending key}
        open.push(new Object[] {root, children(root), root.isObject() ? 0 : 1, null});
        int result = 0;
        while (!open.isEmpty()) {
            Object[] frame = open.peek();
            @SuppressWarnings("unchecked")
            Iterator<Map.Entry<String, JsonNode>> it = (Iterator<Map.Entry<String, JsonNode>>) frame[1];
            if (!it.hasNext()) {
                open.pop();
                int h = (int) frame[2];
                if (open.isEmpty()) {
                    result = h;
                } else {
                    Object[] parent = open.peek();
                    parent[2] = combine(parent, h);
                }
                continue;
            }
            Map.Entry<String, JsonNode> child = it.next();
            frame[3] = child.getKey();
            JsonNode value = child.getValue();
            if (value.isContainerNode()) {
                open.push(new Object[] {value, children(value), value.isObject() ? 0 : 1, null});
            } else {
                frame[2] = combine(frame, value.hashCode());
            }
        }
        return result;
    }

    private static int combine(Object[] frame, int childHash) {
        int h = (int) frame[2];
        return ((JsonNode) frame[0]).isObject() ? h + (((String) frame[3]).hashCode() ^ childHash) : 31 * h + childHash;
    }

    /** Writes {@code root} as Jackson's serializers do (empty arrays and null fields as the provider says). */
    static void write(JsonNode root, JsonGenerator g, SerializerProvider provider) throws IOException {
        boolean trimEmptyArrays = provider != null && !provider.isEnabled(SerializationFeature.WRITE_EMPTY_JSON_ARRAYS);
        boolean skipNulls = provider != null && !provider.isEnabled(JsonNodeFeature.WRITE_NULL_PROPERTIES);
        ArrayDeque<Object[]> open = new ArrayDeque<>(); // {node, child iterator}
        start(root, g);
        open.push(new Object[] {root, children(root)});
        while (!open.isEmpty()) {
            Object[] frame = open.peek();
            @SuppressWarnings("unchecked")
            Iterator<Map.Entry<String, JsonNode>> it = (Iterator<Map.Entry<String, JsonNode>>) frame[1];
            if (!it.hasNext()) {
                open.pop();
                if (((JsonNode) frame[0]).isObject()) {
                    g.writeEndObject();
                } else {
                    g.writeEndArray();
                }
                continue;
            }
            Map.Entry<String, JsonNode> child = it.next();
            JsonNode value = child.getValue();
            if (child.getKey() != null) {
                if ((skipNulls && value.isNull()) || (trimEmptyArrays && value.isArray() && value.isEmpty())) {
                    continue;
                }
                g.writeFieldName(child.getKey());
            }
            if (value.isContainerNode()) {
                start(value, g);
                open.push(new Object[] {value, children(value)});
            } else {
                ((com.fasterxml.jackson.databind.JsonSerializable) value).serialize(g, provider);
            }
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

    /** A container's children as entries: fields with their names, elements with a null name. */
    private static Iterator<Map.Entry<String, JsonNode>> children(JsonNode container) {
        if (container.isObject()) {
            return container.properties().iterator();
        }
        Iterator<JsonNode> elements = container.elements();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return elements.hasNext();
            }

            @Override
            public Map.Entry<String, JsonNode> next() {
                return new java.util.AbstractMap.SimpleImmutableEntry<>(null, elements.next());
            }
        };
    }
}
