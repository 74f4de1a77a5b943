package io.kapi.endpoint.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
     * Go allows 10000 levels; the server's recursive walks on a request thread's stack do not, so deeper
     * bodies fail as Go's do past its limit (see {@link DecodeBudget#MAX_DEPTH}). The decoded tree is never
     * larger than the body, so only depth is budgeted here.
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
        return copyOf(tree, 0);
    }

    private static JsonNode copyOf(JsonNode node, int depth) {
        switch (node.getNodeType()) {
            case OBJECT -> {
                if (depth >= MAX_DEPTH) {
                    return null;
                }
                ObjectNode copy = NODES.objectNode();
                for (var field : node.properties()) {
                    JsonNode value = copyOf(field.getValue(), depth + 1);
                    if (value == null) {
                        return null;
                    }
                    copy.set(field.getKey(), value);
                }
                return copy;
            }
            case ARRAY -> {
                if (depth >= MAX_DEPTH) {
                    return null;
                }
                ArrayNode copy = NODES.arrayNode(node.size());
                for (JsonNode element : node) {
                    JsonNode value = copyOf(element, depth + 1);
                    if (value == null) {
                        return null;
                    }
                    copy.add(value);
                }
                return copy;
            }
            case STRING, BOOLEAN, NULL -> {
                return node;
            }
            case NUMBER -> {
                return node.isIntegralNumber() ? integral(node.bigIntegerValue()) : reread(node);
            }
            default -> {
                return null;
            }
        }
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

    private JsonNode value() {
        if (pos >= in.length) {
            throw eof();
        }
        byte c = in[pos];
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> NODES.textNode(string());
            case 't' -> literal("true", NODES.booleanNode(true));
            case 'f' -> literal("false", NODES.booleanNode(false));
            case 'n' -> literal("null", NODES.nullNode());
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw invalid("looking for beginning of value");
            }
        };
    }

    private ObjectNode object() {
        enter();
        pos++;
        ObjectNode obj = NODES.objectNode();
        skipSpace();
        if (peek() == '}') {
            pos++;
            budget.exit();
            return obj;
        }
        while (true) {
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
            path.add(key);
            JsonNode value = value();
            if (obj.replace(key, value) != null) {
                duplicates.add(pathString());
            }
            path.removeLast();
            skipSpace();
            byte c = peek();
            pos++;
            if (c == '}') {
                budget.exit();
                return obj;
            }
            if (c != ',') {
                pos--;
                throw invalid("after object key:value pair");
            }
            skipSpace();
        }
    }

    private ArrayNode array() {
        enter();
        pos++;
        ArrayNode arr = NODES.arrayNode();
        skipSpace();
        if (peek() == ']') {
            pos++;
            budget.exit();
            return arr;
        }
        for (int i = 0; ; i++) {
            path.add(i);
            arr.add(value());
            path.removeLast();
            skipSpace();
            byte c = peek();
            pos++;
            if (c == ']') {
                budget.exit();
                return arr;
            }
            if (c != ',') {
                pos--;
                throw invalid("after array element");
            }
            skipSpace();
        }
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
