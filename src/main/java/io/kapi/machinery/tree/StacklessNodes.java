package io.kapi.machinery.tree;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Makes the containers of every tree the server builds (its mappers' and readers' node factory): objects and
 * arrays whose copy, equality, hash code and serialization walk the tree without recursion ({@link TreeWalks}),
 * so that nothing done to a whole object depends on how deeply it nests. Jackson's own containers recurse
 * once per level in each of these, and overflow a request thread's stack a few thousand levels down.
 * Everything else is Jackson's {@link ObjectNode} and {@link ArrayNode}.
 */
public class StacklessNodes extends JsonNodeFactory {

    @java.io.Serial
    private static final long serialVersionUID = 1L;

    private final transient Supplier<Map<String, JsonNode>> fields;
    private final JsonNodeFactory copies;
    private transient ObjectWriter writer;
    private transient ObjectWriter prettyWriter;

    /**
     * @param exactBigDecimals whether decimals keep their scale ({@link JsonNodeFactory#withExactBigDecimals})
     * @param fields makes an object's field map; null for Jackson's
     * @param copies makes the containers of copies ({@code deepCopy}); null for this factory
     */
    public StacklessNodes(boolean exactBigDecimals, Supplier<Map<String, JsonNode>> fields, JsonNodeFactory copies) {
        super(exactBigDecimals);
        this.fields = fields;
        this.copies = copies == null ? this : copies;
    }

    /**
     * The fields of {@code node} when they are inline {@link CompactFields} (readable by index, the watch cache's
     * objects), else null: a walk that reads them so allocates nothing per field.
     */
    public static CompactFields inlineFields(JsonNode node) {
        return node instanceof StacklessObject stackless && stackless.fieldMap() instanceof CompactFields compact
                && compact.inlineSize() >= 0 ? compact : null;
    }

    /** How {@code toString()} and {@code toPrettyString()} write these nodes; set once, by the mapper's owner. */
    public void writers(ObjectWriter compact, ObjectWriter pretty) {
        this.writer = compact;
        this.prettyWriter = pretty;
    }

    @Override
    public ObjectNode objectNode() {
        return fields == null ? new StacklessObject(this) : new StacklessObject(this, fields.get());
    }

    @Override
    public ArrayNode arrayNode() {
        return new StacklessArray(this);
    }

    @Override
    public ArrayNode arrayNode(int capacity) {
        return new StacklessArray(this, capacity);
    }

    private String text(JsonNode node, boolean pretty) {
        ObjectWriter w = pretty ? prettyWriter : writer;
        if (w == null) {
            throw new IllegalStateException("StacklessNodes has no writers");
        }
        try {
            return w.writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An object node whose whole-tree operations need no stack. */
    static final class StacklessObject extends ObjectNode {
        @java.io.Serial
        private static final long serialVersionUID = 1L;

        StacklessObject(StacklessNodes nodes) {
            super(nodes);
        }

        StacklessObject(StacklessNodes nodes, Map<String, JsonNode> fields) {
            super(nodes, fields);
        }

        /** The field map itself (a {@code CompactFields} for the compact trees), for walks that read it by index. */
        Map<String, JsonNode> fieldMap() {
            return _children;
        }

        @Override
        public ObjectNode deepCopy() {
            return (ObjectNode) TreeWalks.copy(this, ((StacklessNodes) _nodeFactory).copies);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof JsonNode other && TreeWalks.equal(this, other);
        }

        @Override
        public boolean equals(java.util.Comparator<JsonNode> comparator, JsonNode other) {
            return TreeWalks.equal(this, other, comparator);
        }

        @Override
        public int hashCode() {
            return TreeWalks.hash(this);
        }

        @Override
        public void serialize(JsonGenerator g, SerializerProvider provider) throws IOException {
            TreeWalks.write(this, g, provider);
        }

        @Override
        public String toString() {
            return ((StacklessNodes) _nodeFactory).text(this, false);
        }

        @Override
        public String toPrettyString() {
            return ((StacklessNodes) _nodeFactory).text(this, true);
        }
    }

    /** An array node whose whole-tree operations need no stack. */
    static final class StacklessArray extends ArrayNode {
        @java.io.Serial
        private static final long serialVersionUID = 1L;

        StacklessArray(StacklessNodes nodes) {
            super(nodes);
        }

        StacklessArray(StacklessNodes nodes, int capacity) {
            super(nodes, capacity);
        }

        @Override
        public ArrayNode deepCopy() {
            return (ArrayNode) TreeWalks.copy(this, ((StacklessNodes) _nodeFactory).copies);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof JsonNode other && TreeWalks.equal(this, other);
        }

        @Override
        public boolean equals(java.util.Comparator<JsonNode> comparator, JsonNode other) {
            return TreeWalks.equal(this, other, comparator);
        }

        @Override
        public int hashCode() {
            return TreeWalks.hash(this);
        }

        @Override
        public void serialize(JsonGenerator g, SerializerProvider provider) throws IOException {
            TreeWalks.write(this, g, provider);
        }

        @Override
        public String toString() {
            return ((StacklessNodes) _nodeFactory).text(this, false);
        }

        @Override
        public String toPrettyString() {
            return ((StacklessNodes) _nodeFactory).text(this, true);
        }
    }
}
