package io.kapi.machinery.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.NumericNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.kapi.machinery.protobuf.MessagePlan.FieldPlan;
import io.kapi.machinery.tree.CompactFields;
import io.kapi.machinery.tree.StacklessNodes;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;

/**
 * Writes a JSON tree as a protobuf message in one walk of the tree, the same bytes as {@link TreeEncoder}
 * makes in two: each embedded message is written after one byte kept for its length, which is filled in
 * once the message is written; a message of 128 bytes or more needs more than one byte, and is moved up
 * to make room (a copy of bytes, cheaper than walking its tree again to measure it first).
 *
 * <p>{@link TreeEncoder} stays for lists streamed without keeping their items' messages: there the
 * list's length must be known before its first item is written, and a first pass measures them all.
 * What is written, left out and refused is as {@link TreeEncoder} says. Not thread-safe: one per thread;
 * its buffer is reused by every {@link #message} call.
 */
final class TreeWriter {

    private byte[] buf;
    private int pos;
    private final RawJson raw = new RawJson();

    TreeWriter() {
        this(4096);
    }

    TreeWriter(int initialCapacity) {
        this.buf = new byte[Math.max(16, initialCapacity)];
    }

    /**
     * The message of {@code json} as {@code plan}, without tag or length.
     *
     * @throws IllegalArgumentException as {@link TreeEncoder#size}
     */
    byte[] message(JsonNode json, MessagePlan plan) {
        int length = write(json, plan); // before reading buf: writing may replace it with a larger one
        return Arrays.copyOf(buf, length);
    }

    /** Writes the message of {@code json} into this writer's buffer, and returns its length (see {@link #buffer}). */
    int write(JsonNode json, MessagePlan plan) {
        pos = 0;
        body(json, plan);
        return pos;
    }

    /** The buffer {@link #write} wrote into, valid until the next call. */
    byte[] buffer() {
        return buf;
    }

    private void body(JsonNode json, MessagePlan plan) {
        if (plan.special == null) {
            object(json, plan);
        } else {
            special(json, plan);
        }
    }

    // ---- objects

    private void object(JsonNode json, MessagePlan plan) {
        if (!(json instanceof ObjectNode)) {
            throw new IllegalArgumentException("expected an object for " + plan.descriptor.getName() + ", got "
                    + json.getNodeType());
        }
        CompactFields inline = StacklessNodes.inlineFields(json);
        if (inline != null) { // the watch cache's objects: read by index, nothing allocated per field
            for (int i = 0, n = inline.inlineSize(); i < n; i++) {
                FieldPlan f = plan.field(inline.keyAt(i));
                if (f != null) {
                    field(f, inline.valueAt(i));
                }
            }
        } else {
            for (Map.Entry<String, JsonNode> e : json.properties()) {
                FieldPlan f = plan.field(e.getKey());
                if (f != null) {
                    field(f, e.getValue());
                }
            }
        }
        for (FieldPlan f : plan.inline) {
            int start = pos;
            varint32(f.tag);
            int mark = begin();
            object(json, f.message());
            if (end(mark) == 0) {
                pos = start; // an inlined message with nothing in it is left out
            }
        }
    }

    private void field(FieldPlan f, JsonNode v) {
        if (v instanceof NullNode) {
            if (f.time) {
                varint32(f.tag);
                varint32(0);
            }
            return;
        }
        if (f.map) {
            map(f, v);
        } else if (f.repeated) {
            repeated(f, v);
        } else {
            varint32(f.tag);
            value(f, v);
        }
    }

    private void map(FieldPlan f, JsonNode v) {
        if (!(v instanceof ObjectNode)) {
            return;
        }
        FieldPlan key = f.key();
        FieldPlan value = f.value();
        boolean messages = value.type == FieldDescriptor.Type.MESSAGE;
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            if (messages && e.getValue() instanceof NullNode) {
                continue;
            }
            varint32(f.tag);
            int mark = begin();
            varint32(key.tag);
            string(e.getKey());
            varint32(value.tag);
            value(value, e.getValue());
            end(mark);
        }
    }

    private void repeated(FieldPlan f, JsonNode v) {
        if (!(v instanceof ArrayNode)) {
            return;
        }
        if (f.packed) {
            varint32(f.tag);
            int mark = begin();
            for (JsonNode e : v) {
                value(f, e);
            }
            end(mark);
            return;
        }
        for (JsonNode e : v) {
            varint32(f.tag);
            value(f, e);
        }
    }

    private void element(FieldPlan f, JsonNode v) {
        varint32(f.tag);
        value(f, v);
    }

    // ---- values

    private void value(FieldPlan f, JsonNode v) {
        switch (f.type) {
            case STRING -> string(v instanceof TextNode t ? t.textValue() : v instanceof NullNode ? "" : v.toString());
            case BYTES -> bytes(base64(v));
            case MESSAGE, GROUP -> {
                int mark = begin();
                body(v, f.message());
                end(mark);
            }
            case INT32, ENUM -> int32(f.type == FieldDescriptor.Type.ENUM ? enumNumber(f, v) : asInt(v));
            case INT64, UINT64 -> varint64(asLong(v));
            case UINT32 -> varint32(asInt(v));
            case SINT32 -> varint32(CodedOutputStream.encodeZigZag32(asInt(v)));
            case SINT64 -> varint64(CodedOutputStream.encodeZigZag64(asLong(v)));
            case BOOL -> {
                ensure(1);
                buf[pos++] = (byte) (v.asBoolean() ? 1 : 0);
            }
            case DOUBLE -> fixed64(Double.doubleToRawLongBits(v.asDouble()));
            case FIXED64, SFIXED64 -> fixed64(asLong(v));
            case FLOAT -> fixed32(Float.floatToRawIntBits((float) v.asDouble()));
            case FIXED32, SFIXED32 -> fixed32(asInt(v));
        }
    }

    // ---- special messages (see Special)

    private void special(JsonNode json, MessagePlan plan) {
        switch (plan.special) {
            case TIME, MICRO_TIME -> {
                if (json.isTextual() && !json.textValue().isEmpty()) {
                    Instant t = GoTime.parseTime(json.textValue());
                    varint32(plan.protoField("seconds").tag);
                    varint64(t.getEpochSecond());
                    varint32(plan.protoField("nanos").tag);
                    int32(plan.special == Special.TIME ? 0 : t.getNano() / 1000 * 1000);
                }
            }
            case DURATION -> {
                long nanos = GoTime.parseDuration(json.asText());
                varint32(plan.protoField("duration").tag);
                varint64(nanos);
            }
            case RAW_JSON -> {
                int n = raw.write(json);
                varint32(plan.first.tag);
                varint32(n);
                ensure(n);
                System.arraycopy(raw.buffer(), 0, buf, pos, n);
                pos += n;
            }
            case STRING_LIST -> {
                for (JsonNode s : json) {
                    varint32(plan.first.tag);
                    string(s.asText());
                }
            }
            case INT_OR_STRING -> {
                varint32(plan.protoField("type").tag);
                if (json.isNumber()) {
                    varint64(0);
                    element(plan.protoField("intVal"), json);
                } else {
                    varint64(1);
                    varint32(plan.protoField("strVal").tag);
                    string(json.asText());
                }
            }
            case QUANTITY -> element(plan.protoField("string"), json);
            case PROPS_OR_ARRAY -> {
                if (!(json instanceof ArrayNode)) {
                    element(plan.protoField("schema"), json);
                } else {
                    for (JsonNode s : json) {
                        element(plan.protoField("jSONSchemas"), s);
                    }
                }
            }
            case PROPS_OR_BOOL -> {
                varint32(plan.protoField("allows").tag);
                ensure(1);
                buf[pos++] = (byte) (!json.isBoolean() || json.booleanValue() ? 1 : 0);
                if (json instanceof ObjectNode) {
                    element(plan.protoField("schema"), json);
                }
            }
            case PROPS_OR_STRING_ARRAY -> {
                if (json instanceof ArrayNode) {
                    repeated(plan.protoField("property"), json);
                } else {
                    element(plan.protoField("schema"), json);
                }
            }
        }
    }

    // ---- converting scalars, as TreeEncoder does

    private static int asInt(JsonNode v) {
        return v instanceof NumericNode n ? n.intValue() : v.asInt();
    }

    private static long asLong(JsonNode v) {
        return v instanceof NumericNode n ? n.longValue() : v.asLong();
    }

    private static byte[] base64(JsonNode v) {
        if (v instanceof NullNode) {
            return new byte[0];
        }
        String s = v.asText();
        try {
            return Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("illegal base64 data: " + s.length() + " characters", e);
        }
    }

    private static int enumNumber(FieldPlan f, JsonNode v) {
        EnumValueDescriptor value = f.descriptor.getEnumType().findValueByName(v.asText());
        if (value == null) {
            throw new IllegalArgumentException("unknown value " + v.asText() + " of " + f.descriptor.getEnumType().getName());
        }
        return value.getNumber();
    }

    // ---- the wire

    /** Keeps one byte for the length of the message written next; {@link #end} fills it in. */
    private int begin() {
        ensure(1);
        return pos++;
    }

    /** Writes the length of the message begun at {@code mark}, moving it up if it needs more than one byte. */
    private int end(int mark) {
        int length = pos - mark - 1;
        if (length < 0x80) {
            buf[mark] = (byte) length;
            return length;
        }
        int extra = CodedOutputStream.computeUInt32SizeNoTag(length) - 1;
        ensure(extra);
        System.arraycopy(buf, mark + 1, buf, mark + 1 + extra, length);
        int end = pos + extra;
        pos = mark;
        varint32(length);
        pos = end;
        return length;
    }

    /**
     * A string as protobuf writes it: its UTF-8 after its length. {@link String#getBytes} copies an ASCII
     * string's bytes at once, and replaces an unpaired surrogate with {@code ?}, as protobuf-java's own
     * fallback for such strings does.
     */
    private void string(String s) {
        bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    private void bytes(byte[] b) {
        varint32(b.length);
        ensure(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    /** An int32 (or enum) value: a negative one takes ten bytes, sign-extended, as in Go and protobuf-java. */
    private void int32(int v) {
        if (v >= 0) {
            varint32(v);
        } else {
            varint64(v);
        }
    }

    private void varint32(int v) {
        ensure(5);
        byte[] b = buf;
        int p = pos;
        while ((v & ~0x7f) != 0) {
            b[p++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        b[p++] = (byte) v;
        pos = p;
    }

    private void varint64(long v) {
        ensure(10);
        byte[] b = buf;
        int p = pos;
        while ((v & ~0x7fL) != 0) {
            b[p++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        b[p++] = (byte) v;
        pos = p;
    }

    private void fixed32(int v) {
        ensure(4);
        for (int i = 0; i < 4; i++) {
            buf[pos++] = (byte) (v >>> (8 * i));
        }
    }

    private void fixed64(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buf[pos++] = (byte) (v >>> (8 * i));
        }
    }

    private void ensure(int more) {
        if (pos + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + more));
        }
    }
}
