package io.kapi.machinery.protobuf;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.tree.CompactFields;
import io.kapi.machinery.tree.StacklessNodes;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * The compact JSON of a tree, the same bytes as {@code Json.MAPPER.writeValueAsBytes}, written by a loop
 * over the tree: the raw JSON inside protobuf messages ({@code managedFields[].fieldsV1} of every object)
 * is written without making a generator each time. Strings that need escaping, and values other than
 * objects, arrays, strings, integers, booleans and null, are written by Jackson itself; keys come quoted
 * from {@link QuotedKeys}, which keeps the ones every object repeats.
 */
final class RawJson {

    private byte[] buf = new byte[256];
    private int len;

    /** A writer whose buffer is reused by each {@link #write}; not thread-safe. */
    RawJson() {
    }

    static byte[] bytes(JsonNode node) {
        RawJson out = new RawJson();
        out.value(node);
        return Arrays.copyOf(out.buf, out.len);
    }

    /** Writes the JSON of {@code node} into this writer's {@link #buffer}, from its start; returns its length. */
    int write(JsonNode node) {
        len = 0;
        value(node);
        return len;
    }

    /** The buffer {@link #write} wrote into, valid until the next call. */
    byte[] buffer() {
        return buf;
    }

    private void value(JsonNode node) {
        switch (node) {
            case ObjectNode o -> {
                put('{');
                CompactFields inline = StacklessNodes.inlineFields(o);
                if (inline != null) { // the watch cache's objects: read by index, nothing allocated per field
                    for (int i = 0, n = inline.inlineSize(); i < n; i++) {
                        field(i > 0, inline.keyAt(i), inline.valueAt(i));
                    }
                } else {
                    boolean first = true;
                    for (Map.Entry<String, JsonNode> e : o.properties()) {
                        field(!first, e.getKey(), e.getValue());
                        first = false;
                    }
                }
                put('}');
            }
            case ArrayNode a -> {
                put('[');
                for (int i = 0; i < a.size(); i++) {
                    if (i > 0) {
                        put(',');
                    }
                    value(a.get(i));
                }
                put(']');
            }
            case TextNode t -> string(t.textValue());
            case IntNode i -> ascii(Integer.toString(i.intValue()));
            case LongNode l -> ascii(Long.toString(l.longValue()));
            case BigIntegerNode b -> ascii(b.bigIntegerValue().toString());
            case BooleanNode b -> ascii(b.booleanValue() ? "true" : "false");
            case NullNode n -> ascii("null");
            default -> append(jackson(node));
        }
    }

    private void field(boolean comma, String key, JsonNode value) {
        if (comma) {
            put(',');
        }
        byte[] quoted = QuotedKeys.of(key); // "key":{}
        if (value instanceof ObjectNode && value.isEmpty()) {
            append(quoted, quoted.length); // most of a fieldsV1: its leaves
        } else {
            append(quoted, quoted.length - 2);
            value(value);
        }
    }

    /** A string in quotes: ASCII without quote, backslash or control characters as is, else as Jackson escapes it. */
    private void string(String s) {
        if (escaped(s)) {
            put('"');
            append(JsonStringEncoder.getInstance().quoteAsUTF8(s));
            put('"');
            return;
        }
        int n = s.length();
        ensure(n + 2);
        buf[len++] = '"';
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) s.charAt(i); // ASCII only: one byte per char
        }
        buf[len++] = '"';
    }

    /** Whether JSON writes {@code s} other than char for char: a control character, quote, backslash or non-ASCII. */
    static boolean escaped(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
                return true;
            }
        }
        return false;
    }

    private void ascii(String s) {
        append(s.getBytes(StandardCharsets.US_ASCII));
    }

    private void put(char c) {
        ensure(1);
        buf[len++] = (byte) c;
    }

    private void append(byte[] b) {
        append(b, b.length);
    }

    private void append(byte[] b, int n) {
        ensure(n);
        System.arraycopy(b, 0, buf, len, n);
        len += n;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }

    private static byte[] jackson(JsonNode node) {
        try {
            return Json.MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
