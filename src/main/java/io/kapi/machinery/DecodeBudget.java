package io.kapi.machinery;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;

/**
 * The bounds a request body is decoded within, whatever its format (JSON, YAML, protobuf, patch bodies),
 * so that what a handler receives is held in memory without regard to how it was sent.
 *
 * <ul>
 *   <li><b>Depth</b>: at most {@link #MAX_DEPTH} nested objects and arrays, Go's limit (its JSON decoder's
 *       {@code maxNestingDepth} and go-yaml's {@code max depth}). The readers and every whole-tree operation
 *       ({@link io.kapi.machinery.tree.StacklessNodes}: copy, equality, hashing, writing) keep their own
 *       stack, so this depth never needs as many frames of a request thread's stack.</li>
 *   <li><b>Decoded size</b>: at most {@link #MAX_DECODED_BYTES} of JSON-equivalent text (scalars with
 *       their quotes, keys with their colon, a separator a value, two bytes a container), so a body whose decoding expands
 *       (YAML aliases, protobuf's compact field tags) cannot pin more memory than a JSON body of twice the
 *       3 MiB wire limit.</li>
 * </ul>
 *
 * One instance counts one body, as its reader builds the tree ({@link #enter}, {@link #exit},
 * {@link #add}); {@link #check(JsonNode)} measures a tree built some other way (a patch's result). Not
 * thread-safe. Exceeding a bound throws {@link Exceeded}, which each reader words as its format's errors.
 */
public final class DecodeBudget {

    /** The deepest nesting of objects and arrays a decoded body may have. */
    public static final int MAX_DEPTH = 10_000;

    /** The most JSON-equivalent bytes a decoded body may amount to: twice the wire limit of 3 MiB. */
    public static final long MAX_DECODED_BYTES = 2L * 3 * 1024 * 1024;

    private final int maxDepth;
    private final long maxBytes;
    private int depth;
    private long bytes;

    /** A budget with {@link #MAX_DEPTH} and {@link #MAX_DECODED_BYTES}. */
    public DecodeBudget() {
        this(MAX_DEPTH, MAX_DECODED_BYTES);
    }

    /** A budget with other bounds (tests). */
    public DecodeBudget(int maxDepth, long maxBytes) {
        this.maxDepth = maxDepth;
        this.maxBytes = maxBytes;
    }

    /** One level deeper: an object or array begins (and counts its two bytes). */
    public void enter() {
        if (++depth > maxDepth) {
            throw new Exceeded(Exceeded.Limit.DEPTH, maxDepth);
        }
        add(2);
    }

    /** The object or array begun last has ended. */
    public void exit() {
        depth--;
    }

    /** The current depth: the number of objects and arrays open. */
    public int depth() {
        return depth;
    }

    /** The JSON-equivalent bytes counted so far. */
    public long bytes() {
        return bytes;
    }

    /** Counts {@code n} more bytes of decoded output. */
    public void add(long n) {
        bytes += n;
        if (bytes > maxBytes || bytes < 0) {
            throw new Exceeded(Exceeded.Limit.SIZE, maxBytes);
        }
    }

    /**
     * Counts a subtree that is about to be copied in at the current depth (a YAML alias), of
     * {@code subtreeDepth} levels and {@code subtreeBytes} bytes, before anything is copied.
     */
    public void addCopy(int subtreeDepth, long subtreeBytes) {
        if (depth + subtreeDepth > maxDepth) {
            throw new Exceeded(Exceeded.Limit.DEPTH, maxDepth);
        }
        add(subtreeBytes);
    }

    /**
     * Measures {@code tree} against the default bounds without recursion.
     *
     * @throws Exceeded if it is deeper or larger
     */
    public static void check(JsonNode tree) {
        new DecodeBudget().measure(tree);
    }

    /**
     * The JSON-equivalent size of {@code tree} in bytes, counted without recursion; past
     * {@code limit} counting stops and a number above {@code limit} is returned.
     */
    public static long sizeOf(JsonNode tree, long limit) {
        DecodeBudget budget = new DecodeBudget(Integer.MAX_VALUE, limit);
        try {
            budget.measure(tree);
        } catch (Exceeded e) {
            return budget.bytes;
        }
        return budget.bytes;
    }

    private void measure(JsonNode tree) {
        ArrayDeque<Iterator<Map.Entry<String, JsonNode>>> open = new ArrayDeque<>();
        countNode(null, tree, open);
        while (!open.isEmpty()) {
            Iterator<Map.Entry<String, JsonNode>> it = open.peek();
            if (!it.hasNext()) {
                open.pop();
                exit();
                continue;
            }
            Map.Entry<String, JsonNode> child = it.next();
            countNode(child.getKey(), child.getValue(), open);
        }
    }

    private void countNode(String key, JsonNode node, ArrayDeque<Iterator<Map.Entry<String, JsonNode>>> open) {
        add(key == null ? 1 : key.length() + 3L);
        if (node.isContainerNode()) {
            enter();
            open.push(node.isObject() ? node.properties().iterator() : elements(node));
        } else {
            add(node.isTextual() ? node.textValue().length() + 2L : Math.max(node.asText().length(), 1) + 1L);
        }
    }

    private static Iterator<Map.Entry<String, JsonNode>> elements(JsonNode array) {
        Iterator<JsonNode> values = array.elements();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return values.hasNext();
            }

            @Override
            public Map.Entry<String, JsonNode> next() {
                return new AbstractMap.SimpleImmutableEntry<>(null, values.next());
            }
        };
    }

    /** A bound of {@link DecodeBudget} was passed. */
    public static final class Exceeded extends RuntimeException {

        /** Which bound. */
        public enum Limit { DEPTH, SIZE }

        private final Limit limit;
        private final long max;

        Exceeded(Limit limit, long max) {
            super(limit == Limit.DEPTH ? "exceeded max depth of " + max : "decoded size exceeds " + max + " bytes",
                    null, false, false);
            this.limit = limit;
            this.max = max;
        }

        public Limit limit() {
            return limit;
        }

        public long max() {
            return max;
        }
    }
}
