package io.kapi.machinery.tree;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;

/**
 * The open containers of a depth-first walk of a tree, innermost on top, each with its position, for
 * {@link TreeWalks}: {@link #next} moves to the innermost container's next child without allocating for it.
 * Inline {@link CompactFields} (the watch cache's objects) and arrays are read by index; other objects through
 * their entry iterator (one per object). A LIST of 10,000 objects walks every field of every item, and the
 * entry and iterator objects of a walk by {@code properties()} were most of what its encoding allocated.
 * The tree must not change during the walk.
 */
final class OpenContainers {

    private static final int FIRST_DEPTH = 16;

    private JsonNode[] containers = new JsonNode[FIRST_DEPTH];
    /** Per open container: its inline fields, its entry iterator, or null (an array). */
    private Object[] sources = new Object[FIRST_DEPTH];
    private int[] positions = new int[FIRST_DEPTH];
    /** Per open container: the key it has in its parent (null in an array or at the root). */
    private String[] keys = new String[FIRST_DEPTH];
    /** Per open container: a running figure of the caller's (a hash). */
    private int[] sums = new int[FIRST_DEPTH];
    private int depth;
    private String key;
    private JsonNode value;

    /** Opens {@code container}, which has {@code keyInParent} in its parent (null in an array or at the root). */
    void push(JsonNode container, String keyInParent) {
        if (depth == containers.length) {
            int grown = depth * 2;
            containers = Arrays.copyOf(containers, grown);
            sources = Arrays.copyOf(sources, grown);
            positions = Arrays.copyOf(positions, grown);
            keys = Arrays.copyOf(keys, grown);
            sums = Arrays.copyOf(sums, grown);
        }
        containers[depth] = container;
        sources[depth] = container.isObject() ? fieldsOf((ObjectNode) container) : null;
        positions[depth] = 0;
        keys[depth] = keyInParent;
        sums[depth] = 0;
        depth++;
    }

    private static Object fieldsOf(ObjectNode object) {
        CompactFields inline = StacklessNodes.inlineFields(object);
        return inline != null ? inline : object.properties().iterator();
    }

    boolean isEmpty() {
        return depth == 0;
    }

    /** The innermost open container. */
    JsonNode top() {
        return containers[depth - 1];
    }

    /** The key the innermost container has in its parent (null in an array or at the root). */
    String topKey() {
        return keys[depth - 1];
    }

    int topSum() {
        return sums[depth - 1];
    }

    void topSum(int sum) {
        sums[depth - 1] = sum;
    }

    /** Closes the innermost container. */
    void pop() {
        depth--;
        containers[depth] = null;
        sources[depth] = null;
        keys[depth] = null;
    }

    /**
     * Moves to the innermost container's next child ({@link #key} and {@link #value}).
     *
     * @return false when it has none left
     */
    boolean next() {
        int d = depth - 1;
        int i = positions[d];
        switch (sources[d]) {
            case CompactFields fields -> {
                if (i >= fields.inlineSize()) {
                    return false;
                }
                key = fields.keyAt(i);
                value = fields.valueAt(i);
            }
            case Iterator<?> entries -> {
                if (!entries.hasNext()) {
                    return false;
                }
                Map.Entry<?, ?> entry = (Map.Entry<?, ?>) entries.next();
                key = (String) entry.getKey();
                value = (JsonNode) entry.getValue();
            }
            case null -> {
                JsonNode array = containers[d];
                if (i >= array.size()) {
                    return false;
                }
                key = null;
                value = array.get(i);
            }
            default -> throw new IllegalStateException("not a container's children: " + sources[d]);
        }
        positions[d] = i + 1;
        return true;
    }

    /** The current child's key: its field name, or null in an array. */
    String key() {
        return key;
    }

    /** The current child. */
    JsonNode value() {
        return value;
    }
}
