package io.kapi.endpoint.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.DecodeBudget;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A one-pass JSON parser that builds a Jackson tree and, unlike Jackson's tree reader, reports duplicate
 * keys (by path: {@code metadata.name}, {@code spec.containers[0].name}) instead of silently keeping the last.
 * Its syntax errors carry Go's {@code encoding/json} wording ({@code invalid character 'x' looking for
 * beginning of value}, {@code unexpected end of JSON input}), because kube-apiserver shows those to kubectl.
 * The last of duplicate keys wins, as in Go. Not thread-safe: one instance per body.
 */
final class JsonTreeReader {

    /**
     * Go's limit, 10,000 levels: deeper bodies fail with Go's {@code exceeded max depth} (see
     * {@link DecodeBudget#MAX_DEPTH}). The decoded tree is never larger than the body, so only depth is
     * budgeted here.
     */
    static final int MAX_DEPTH = DecodeBudget.MAX_DEPTH;
    private static final JsonNodeFactory NODES = Json.NODES;

    private final byte[] in;
    private int pos;
    private final DecodeBudget budget = new DecodeBudget();
    private final List<Object> path = new ArrayList<>();
    private final List<String> duplicates = new ArrayList<>();

    private JsonTreeReader(byte[] in) {
        this.in = in;
    }

    /** The parsed value of {@code data}; duplicate key paths are added to {@code duplicates}. */
    static JsonNode read(byte[] data, List<String> duplicates) {
        JsonTreeReader r = new JsonTreeReader(data);
        r.skipSpace();
        JsonNode value = r.value();
        r.skipSpace();
        if (r.pos < data.length) {
            throw r.invalid("after top-level value");
        }
        duplicates.addAll(r.duplicates);
        return value;
    }

    /**
     * A copy of {@code tree} as reading its JSON (as {@link Json#MAPPER} writes it) would make it: the same
     * containers, keys in order, and numbers of the node types a parse gives (an int that a long node held
     * is an int node, a floating one is what its written form reads back as); immutable leaves shared. Null
     * for what only the JSON can tell: a tree deeper than {@link #MAX_DEPTH}, a number whose written form
     * this reader refuses, a node of no JSON type of its own (binary, POJO).
     */
    static JsonNode copyOf(JsonNode tree) {
        if (!tree.isContainerNode()) {
            return copyLeaf(tree);
        }
        JsonNode top = tree.isObject() ? NODES.objectNode() : NODES.arrayNode(tree.size());
        List<Object[]> open = new ArrayList<>(); // {source iterator, target container}
        open.add(new Object[] {entries(tree), top});
        while (!open.isEmpty()) {
            Object[] frame = open.getLast();
            @SuppressWarnings("unchecked")
            java.util.Iterator<java.util.Map.Entry<String, JsonNode>> it =
                    (java.util.Iterator<java.util.Map.Entry<String, JsonNode>>) frame[0];
            if (!it.hasNext()) {
                open.removeLast();
                continue;
            }
            java.util.Map.Entry<String, JsonNode> child = it.next();
            JsonNode value = child.getValue();
            JsonNode copy;
            if (value.isContainerNode()) {
                if (open.size() >= MAX_DEPTH) {
                    return null;
                }
                copy = value.isObject() ? NODES.objectNode() : NODES.arrayNode(value.size());
            } else {
                copy = copyLeaf(value);
                if (copy == null) {
                    return null;
                }
            }
            if (frame[1] instanceof ObjectNode o) {
                o.set(child.getKey(), copy);
            } else {
                ((ArrayNode) frame[1]).add(copy);
            }
            if (value.isContainerNode()) {
                open.add(new Object[] {entries(value), copy});
            }
        }
        return top;
    }

    private static java.util.Iterator<java.util.Map.Entry<String, JsonNode>> entries(JsonNode container) {
        if (container.isObject()) {
            return container.properties().iterator();
        }
        java.util.Iterator<JsonNode> elements = container.elements();
        return new java.util.Iterator<>() {
            @Override
            public boolean hasNext() {
                return elements.hasNext();
            }

            @Override
            public java.util.Map.Entry<String, JsonNode> next() {
                return new java.util.AbstractMap.SimpleImmutableEntry<>(null, elements.next());
            }
        };
    }

    /** A scalar as a parse makes it; null for what only the JSON can tell. */
    private static JsonNode copyLeaf(JsonNode node) {
        return switch (node.getNodeType()) {
            case STRING, BOOLEAN, NULL -> node;
            case NUMBER -> node.isIntegralNumber() ? integral(node.bigIntegerValue()) : reread(node);
            default -> null;
        };
    }

    /** The node {@link #number} makes of an integer's digits. */
    private static JsonNode integral(BigInteger value) {
        if (value.bitLength() >= 64) {
            return NODES.numberNode(value);
        }
        long v = value.longValue();
        return v == (int) v ? NODES.numberNode((int) v) : NODES.numberNode(v);
    }

    /** A floating-point number as its written form reads back; null when this reader would refuse that form. */
    private static JsonNode reread(JsonNode number) {
        try {
            return read(Json.MAPPER.writeValueAsBytes(number), new ArrayList<>());
        } catch (SyntaxError | com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }

    /**
     * The value at {@code pos}, read with an explicit stack of the containers open around it: a body may
     * nest {@link #MAX_DEPTH} levels, which must not need as many frames of the thread's stack.
     */
    private JsonNode value() {
        List<ContainerNode<?>> open = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        while (true) {
            JsonNode v = start(open, keys);
            if (v == null) {
                continue; // a container was opened: read its first value
            }
            // v is complete: add it to the containers it closes, until one expects another value
            while (true) {
                if (open.isEmpty()) {
                    return v;
                }
                ContainerNode<?> parent = open.getLast();
                boolean isObject = parent instanceof ObjectNode;
                if (parent instanceof ObjectNode obj) {
                    if (obj.replace(keys.getLast(), v) != null) {
                        duplicates.add(pathString());
                    }
                } else {
                    ((ArrayNode) parent).add(v);
                }
                path.removeLast();
                skipSpace();
                byte c = peek();
                pos++;
                if (c == (isObject ? '}' : ']')) {
                    budget.exit();
                    open.removeLast();
                    if (isObject) {
                        keys.removeLast();
                    }
                    v = parent;
                    continue;
                }
                if (c != ',') {
                    pos--;
                    throw invalid(isObject ? "after object key:value pair" : "after array element");
                }
                skipSpace();
                if (isObject) {
                    keys.set(keys.size() - 1, key());
                    path.add(keys.getLast());
                } else {
                    path.add(parent.size());
                }
                break;
            }
        }
    }

    /**
     * Reads the start of a value: a scalar whole (returned), or the opening of a container, which is pushed
     * on {@code open} (with its first key on {@code keys} for an object) and null returned; an empty
     * container is returned whole.
     */
    private JsonNode start(List<ContainerNode<?>> open, List<String> keys) {
        if (pos >= in.length) {
            throw eof();
        }
        byte c = in[pos];
        switch (c) {
            case '{' -> {
                enter();
                pos++;
                ObjectNode obj = NODES.objectNode();
                skipSpace();
                if (peek() == '}') {
                    pos++;
                    budget.exit();
                    return obj;
                }
                open.add(obj);
                keys.add(key());
                path.add(keys.getLast());
                return null;
            }
            case '[' -> {
                enter();
                pos++;
                ArrayNode arr = NODES.arrayNode();
                skipSpace();
                if (peek() == ']') {
                    pos++;
                    budget.exit();
                    return arr;
                }
                open.add(arr);
                path.add(0);
                return null;
            }
            case '"' -> {
                return NODES.textNode(string());
            }
            case 't' -> {
                return literal("true", NODES.booleanNode(true));
            }
            case 'f' -> {
                return literal("false", NODES.booleanNode(false));
            }
            case 'n' -> {
                return literal("null", NODES.nullNode());
            }
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw invalid("looking for beginning of value");
            }
        }
    }

    /** An object's key and its colon, leaving {@code pos} at the value. */
    private String key() {
        if (peek() != '"') {
            throw invalid("looking for beginning of object key string");
        }
        String key = string();
        skipSpace();
        if (peek() != ':') {
            throw invalid("after object key");
        }
        pos++;
        skipSpace();
        return key;
    }

    private void enter() {
        try {
            budget.enter();
        } catch (DecodeBudget.Exceeded e) {
            throw invalid("exceeded max depth");
        }
    }

    private String string() {
        int start = ++pos;
        boolean plain = true;
        while (true) {
            if (pos >= in.length) {
                throw eof();
            }
            byte c = in[pos];
            if (c == '"') {
                break;
            }
            if (c == '\\') {
                plain = false;
                pos++;
                if (pos >= in.length) {
                    throw eof();
                }
                byte e = in[pos];
                if (e == 'u') {
                    for (int k = 1; k <= 4; k++) {
                        if (pos + k >= in.length) {
                            pos = in.length;
                            throw eof();
                        }
                        if (Character.digit(in[pos + k], 16) < 0) {
                            pos += k;
                            throw invalid("in \\u hexadecimal character escape");
                        }
                    }
                    pos += 4;
                } else if ("\"\\/bfnrt".indexOf(e) < 0) {
                    throw invalid("in string escape code");
                }
            } else if ((c & 0xff) < 0x20) {
                throw invalid("in string literal");
            }
            pos++;
        }
        int end = pos++;
        return plain ? new String(in, start, end - start, StandardCharsets.UTF_8) : unescape(start, end);
    }

    private String unescape(int start, int end) {
        StringBuilder b = new StringBuilder(end - start);
        int runStart = start;
        int i = start;
        while (i < end) {
            if (in[i] != '\\') {
                i++;
                continue;
            }
            b.append(new String(in, runStart, i - runStart, StandardCharsets.UTF_8));
            byte e = in[i + 1];
            switch (e) {
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> b.append((char) Integer.parseInt(new String(in, i + 2, 4, StandardCharsets.US_ASCII), 16));
                default -> b.append((char) e);
            }
            i += e == 'u' ? 6 : 2;
            runStart = i;
        }
        b.append(new String(in, runStart, end - runStart, StandardCharsets.UTF_8));
        return b.toString();
    }

    private JsonNode number() {
        int start = pos;
        boolean integral = true;
        if (in[pos] == '-') {
            pos++;
            if (pos >= in.length) {
                throw eof();
            }
            if (!digit(in[pos])) {
                throw invalid("in numeric literal");
            }
        }
        if (in[pos] == '0') {
            pos++;
        } else {
            digits();
        }
        if (pos < in.length && in[pos] == '.') {
            integral = false;
            pos++;
            if (pos >= in.length) {
                throw eof();
            }
            if (!digit(in[pos])) {
                throw invalid("after decimal point in numeric literal");
            }
            digits();
        }
        if (pos < in.length && (in[pos] == 'e' || in[pos] == 'E')) {
            integral = false;
            pos++;
            if (pos < in.length && (in[pos] == '+' || in[pos] == '-')) {
                pos++;
            }
            if (pos >= in.length) {
                throw eof();
            }
            if (!digit(in[pos])) {
                throw invalid("in exponent of numeric literal");
            }
            digits();
        }
        String text = new String(in, start, pos - start, StandardCharsets.US_ASCII);
        if (!integral) {
            return NODES.numberNode(new BigDecimal(text));
        }
        if (text.length() < 19) {
            long v = Long.parseLong(text);
            return v == (int) v ? NODES.numberNode((int) v) : NODES.numberNode(v);
        }
        BigInteger big = new BigInteger(text);
        return big.bitLength() < 64 ? NODES.numberNode(big.longValue()) : NODES.numberNode(big);
    }

    private void digits() {
        while (pos < in.length && digit(in[pos])) {
            pos++;
        }
    }

    private static boolean digit(byte c) {
        return c >= '0' && c <= '9';
    }

    private JsonNode literal(String word, JsonNode node) {
        for (int k = 0; k < word.length(); k++) {
            if (pos >= in.length) {
                throw eof();
            }
            if (in[pos] != word.charAt(k)) {
                throw invalid("in literal " + word + " (expecting '" + word.charAt(k) + "')");
            }
            pos++;
        }
        return node;
    }

    private byte peek() {
        if (pos >= in.length) {
            throw eof();
        }
        return in[pos];
    }

    private void skipSpace() {
        while (pos < in.length) {
            byte c = in[pos];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private String pathString() {
        StringBuilder b = new StringBuilder();
        for (Object p : path) {
            if (p instanceof Integer i) {
                b.append('[').append(i).append(']');
            } else {
                if (!b.isEmpty()) {
                    b.append('.');
                }
                b.append(p);
            }
        }
        return b.toString();
    }

    private SyntaxError eof() {
        return new SyntaxError("unexpected end of JSON input");
    }

    private SyntaxError invalid(String context) {
        return new SyntaxError("invalid character " + GoStrings.quoteChar(in[pos] & 0xff) + " " + context);
    }
}
