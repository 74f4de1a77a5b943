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
import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;

/**
 * Writes a JSON tree as a protobuf message straight from the tree, without building the message: as
 * gogo-protobuf's generated code, a first pass ({@link #size}) measures every embedded message, and a
 * second ({@link #write}) writes the same fields in the same order, each embedded message after its
 * measured length. The measures are kept in tree order, so the second pass reads them back in turn; so
 * are values both passes need and that cost to make (raw JSON bytes, decoded base64, parsed times), up to
 * {@link #MEMO_BYTES} bytes of them, past which the second pass makes them again.
 *
 * <p>What is written is the message Go's JSON decoder would have filled from the tree: JSON keys the
 * message does not know are left out, and so are {@code null} values, except that a null
 * {@code metav1.Time} is an empty message (Go writes the zero time so). Object keys are written in the
 * tree's order, which a decoder accepts whatever it is. Not thread-safe: one per encoding.
 *
 * @throws IllegalArgumentException (from {@link #size}) when a value cannot be converted: a time that is
 *         not RFC 3339, invalid base64, a value where an object must be
 */
final class TreeEncoder {

    /** How many bytes of values the first pass keeps for the second. */
    static final long MEMO_BYTES = 8L << 20;

    private int[] sizes = new int[64];
    private int sizeCount;
    private int sizeCursor;
    private Object[] memo = new Object[16];
    private int memoCount;
    private int memoCursor;
    private long memoBytes;
    private final long memoBudget;

    TreeEncoder() {
        this(MEMO_BYTES);
    }

    /** @param memoBudget how many bytes of values the first pass keeps for the second */
    TreeEncoder(long memoBudget) {
        this.memoBudget = memoBudget;
    }

    /** The size of {@code json} as a message of {@code plan} (without tag or length); first pass. */
    int size(JsonNode json, MessagePlan plan) {
        return plan.special == null ? objectSize(json, plan) : specialSize(json, plan);
    }

    /** Writes what {@link #size} measured for the same arguments, in the same order of calls. */
    void write(JsonNode json, MessagePlan plan, CodedOutputStream out) throws IOException {
        if (plan.special == null) {
            writeObject(json, plan, out);
        } else {
            writeSpecial(json, plan, out);
        }
    }

    /** The size of one value of {@code field} with its tag, as an element of a repeated field. */
    int elementSize(FieldPlan field, JsonNode value) {
        return field.tagSize + valueSize(field, value);
    }

    /** Writes one value of {@code field} with its tag, as {@link #elementSize} measured it. */
    void writeElement(FieldPlan field, JsonNode value, CodedOutputStream out) throws IOException {
        out.writeUInt32NoTag(field.tag);
        writeValue(field, value, out);
    }

    /** The measure the second pass reads next: for a message value, its size. */
    int nextSize() {
        return sizes[sizeCursor];
    }

    /** The size of the JSON value of a field with its tag(s); 0 when it is left out. */
    int fieldSize(FieldPlan f, JsonNode v) {
        if (v instanceof NullNode) {
            return f.time ? f.tagSize + 1 : 0;
        }
        if (f.map) {
            return mapSize(f, v);
        }
        if (f.repeated) {
            return repeatedSize(f, v);
        }
        return f.tagSize + valueSize(f, v);
    }

    /** Writes a field as {@link #fieldSize} measured it. */
    void writeField(FieldPlan f, JsonNode v, CodedOutputStream out) throws IOException {
        if (v instanceof NullNode) {
            if (f.time) {
                out.writeUInt32NoTag(f.tag);
                out.writeUInt32NoTag(0);
            }
            return;
        }
        if (f.map) {
            writeMap(f, v, out);
        } else if (f.repeated) {
            writeRepeated(f, v, out);
        } else {
            out.writeUInt32NoTag(f.tag);
            writeValue(f, v, out);
        }
    }

    // ---- objects

    private int objectSize(JsonNode json, MessagePlan plan) {
        if (!(json instanceof ObjectNode)) {
            throw new IllegalArgumentException("expected an object for " + plan.descriptor.getName() + ", got "
                    + json.getNodeType());
        }
        int size = 0;
        for (Map.Entry<String, JsonNode> e : json.properties()) {
            FieldPlan f = plan.field(e.getKey());
            if (f != null) {
                size += fieldSize(f, e.getValue());
            }
        }
        for (FieldPlan f : plan.inline) {
            int slot = reserve();
            int inner = objectSize(json, f.message());
            sizes[slot] = inner;
            if (inner > 0) {
                size += f.tagSize + CodedOutputStream.computeUInt32SizeNoTag(inner) + inner;
            } else {
                sizeCount = slot + 1; // nothing inside was written: its own (empty) inline slots go
            }
        }
        return size;
    }

    private void writeObject(JsonNode json, MessagePlan plan, CodedOutputStream out) throws IOException {
        for (Map.Entry<String, JsonNode> e : json.properties()) {
            FieldPlan f = plan.field(e.getKey());
            if (f != null) {
                writeField(f, e.getValue(), out);
            }
        }
        for (FieldPlan f : plan.inline) {
            int inner = sizes[sizeCursor++];
            if (inner > 0) {
                out.writeUInt32NoTag(f.tag);
                out.writeUInt32NoTag(inner);
                writeObject(json, f.message(), out);
            }
        }
    }

    private int mapSize(FieldPlan f, JsonNode v) {
        if (!(v instanceof ObjectNode)) {
            return 0;
        }
        FieldPlan key = f.key();
        FieldPlan value = f.value();
        boolean messages = value.type == FieldDescriptor.Type.MESSAGE;
        int size = 0;
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            if (messages && e.getValue() instanceof NullNode) {
                continue;
            }
            int slot = reserve();
            int entry = key.tagSize + stringSize(e.getKey()) + value.tagSize + valueSize(value, e.getValue());
            sizes[slot] = entry;
            size += f.tagSize + CodedOutputStream.computeUInt32SizeNoTag(entry) + entry;
        }
        return size;
    }

    private void writeMap(FieldPlan f, JsonNode v, CodedOutputStream out) throws IOException {
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
            out.writeUInt32NoTag(f.tag);
            out.writeUInt32NoTag(sizes[sizeCursor++]);
            out.writeUInt32NoTag(key.tag);
            out.writeStringNoTag(e.getKey());
            out.writeUInt32NoTag(value.tag);
            writeValue(value, e.getValue(), out);
        }
    }

    private int repeatedSize(FieldPlan f, JsonNode v) {
        if (!(v instanceof ArrayNode)) {
            return 0;
        }
        if (f.packed) {
            int slot = reserve();
            int body = 0;
            for (JsonNode e : v) {
                body += valueSize(f, e);
            }
            sizes[slot] = body;
            return f.tagSize + CodedOutputStream.computeUInt32SizeNoTag(body) + body;
        }
        int size = 0;
        for (JsonNode e : v) {
            size += f.tagSize + valueSize(f, e);
        }
        return size;
    }

    private void writeRepeated(FieldPlan f, JsonNode v, CodedOutputStream out) throws IOException {
        if (!(v instanceof ArrayNode)) {
            return;
        }
        if (f.packed) {
            out.writeUInt32NoTag(f.tag);
            out.writeUInt32NoTag(sizes[sizeCursor++]);
            for (JsonNode e : v) {
                writeValue(f, e, out);
            }
            return;
        }
        for (JsonNode e : v) {
            out.writeUInt32NoTag(f.tag);
            writeValue(f, e, out);
        }
    }

    // ---- values

    /** The size of one value without its tag (with its length, for length-delimited types). */
    private int valueSize(FieldPlan f, JsonNode v) {
        return switch (f.type) {
            case STRING -> stringSize(text(v));
            case BYTES -> {
                byte[] b = base64(v);
                remember(b, b.length);
                yield CodedOutputStream.computeUInt32SizeNoTag(b.length) + b.length;
            }
            case MESSAGE, GROUP -> {
                int slot = reserve();
                int n = size(v, f.message());
                sizes[slot] = n;
                yield CodedOutputStream.computeUInt32SizeNoTag(n) + n;
            }
            case INT32 -> CodedOutputStream.computeInt32SizeNoTag(asInt(v));
            case INT64 -> CodedOutputStream.computeInt64SizeNoTag(asLong(v));
            case UINT32 -> CodedOutputStream.computeUInt32SizeNoTag(asInt(v));
            case UINT64 -> CodedOutputStream.computeUInt64SizeNoTag(asLong(v));
            case SINT32 -> CodedOutputStream.computeSInt32SizeNoTag(asInt(v));
            case SINT64 -> CodedOutputStream.computeSInt64SizeNoTag(asLong(v));
            case BOOL -> 1;
            case DOUBLE, FIXED64, SFIXED64 -> 8;
            case FLOAT, FIXED32, SFIXED32 -> 4;
            case ENUM -> CodedOutputStream.computeEnumSizeNoTag(enumNumber(f, v));
        };
    }

    private void writeValue(FieldPlan f, JsonNode v, CodedOutputStream out) throws IOException {
        switch (f.type) {
            case STRING -> out.writeStringNoTag(text(v));
            case BYTES -> {
                byte[] b = recall() instanceof byte[] kept ? kept : base64(v);
                out.writeUInt32NoTag(b.length);
                out.writeRawBytes(b);
            }
            case MESSAGE, GROUP -> {
                out.writeUInt32NoTag(sizes[sizeCursor++]);
                write(v, f.message(), out);
            }
            case INT32 -> out.writeInt32NoTag(asInt(v));
            case INT64 -> out.writeInt64NoTag(asLong(v));
            case UINT32 -> out.writeUInt32NoTag(asInt(v));
            case UINT64 -> out.writeUInt64NoTag(asLong(v));
            case SINT32 -> out.writeSInt32NoTag(asInt(v));
            case SINT64 -> out.writeSInt64NoTag(asLong(v));
            case BOOL -> out.writeBoolNoTag(v.asBoolean());
            case DOUBLE -> out.writeDoubleNoTag(v.asDouble());
            case FIXED64, SFIXED64 -> out.writeFixed64NoTag(asLong(v));
            case FLOAT -> out.writeFloatNoTag((float) v.asDouble());
            case FIXED32, SFIXED32 -> out.writeFixed32NoTag(asInt(v));
            case ENUM -> out.writeEnumNoTag(enumNumber(f, v));
        }
    }

    // ---- special messages (see Special)

    private int specialSize(JsonNode json, MessagePlan plan) {
        return switch (plan.special) {
            case TIME, MICRO_TIME -> {
                if (!json.isTextual() || json.textValue().isEmpty()) {
                    yield 0;
                }
                Instant t = GoTime.parseTime(json.textValue());
                long seconds = t.getEpochSecond();
                int nanos = plan.special == Special.TIME ? 0 : t.getNano() / 1000 * 1000;
                keepLong(seconds);
                reserveSet(nanos);
                yield plan.protoField("seconds").tagSize + CodedOutputStream.computeInt64SizeNoTag(seconds)
                        + plan.protoField("nanos").tagSize + CodedOutputStream.computeInt32SizeNoTag(nanos);
            }
            case DURATION -> {
                long nanos = GoTime.parseDuration(json.asText());
                keepLong(nanos);
                yield plan.protoField("duration").tagSize + CodedOutputStream.computeInt64SizeNoTag(nanos);
            }
            case RAW_JSON -> {
                byte[] b = jsonBytes(json);
                remember(b, b.length);
                yield plan.first.tagSize + CodedOutputStream.computeUInt32SizeNoTag(b.length) + b.length;
            }
            case STRING_LIST -> {
                int size = 0;
                for (JsonNode s : json) {
                    size += plan.first.tagSize + stringSize(s.asText());
                }
                yield size;
            }
            case INT_OR_STRING -> json.isNumber()
                    ? plan.protoField("type").tagSize + 1 + elementSize(plan.protoField("intVal"), json)
                    : plan.protoField("type").tagSize + 1 + plan.protoField("strVal").tagSize + stringSize(json.asText());
            case QUANTITY -> elementSize(plan.protoField("string"), json);
            case PROPS_OR_ARRAY -> {
                if (!(json instanceof ArrayNode)) {
                    yield elementSize(plan.protoField("schema"), json);
                }
                int size = 0;
                for (JsonNode s : json) {
                    size += elementSize(plan.protoField("jSONSchemas"), s);
                }
                yield size;
            }
            case PROPS_OR_BOOL -> plan.protoField("allows").tagSize + 1
                    + (json instanceof ObjectNode ? elementSize(plan.protoField("schema"), json) : 0);
            case PROPS_OR_STRING_ARRAY -> json instanceof ArrayNode
                    ? repeatedSize(plan.protoField("property"), json)
                    : elementSize(plan.protoField("schema"), json);
        };
    }

    private void writeSpecial(JsonNode json, MessagePlan plan, CodedOutputStream out) throws IOException {
        switch (plan.special) {
            case TIME, MICRO_TIME -> {
                if (json.isTextual() && !json.textValue().isEmpty()) {
                    long seconds = recallLong();
                    int nanos = sizes[sizeCursor++];
                    out.writeUInt32NoTag(plan.protoField("seconds").tag);
                    out.writeInt64NoTag(seconds);
                    out.writeUInt32NoTag(plan.protoField("nanos").tag);
                    out.writeInt32NoTag(nanos);
                }
            }
            case DURATION -> {
                out.writeUInt32NoTag(plan.protoField("duration").tag);
                out.writeInt64NoTag(recallLong());
            }
            case RAW_JSON -> {
                byte[] b = recall() instanceof byte[] kept ? kept : jsonBytes(json);
                out.writeUInt32NoTag(plan.first.tag);
                out.writeUInt32NoTag(b.length);
                out.writeRawBytes(b);
            }
            case STRING_LIST -> {
                for (JsonNode s : json) {
                    out.writeUInt32NoTag(plan.first.tag);
                    out.writeStringNoTag(s.asText());
                }
            }
            case INT_OR_STRING -> {
                out.writeUInt32NoTag(plan.protoField("type").tag);
                if (json.isNumber()) {
                    out.writeInt64NoTag(0);
                    writeElement(plan.protoField("intVal"), json, out);
                } else {
                    out.writeInt64NoTag(1);
                    out.writeUInt32NoTag(plan.protoField("strVal").tag);
                    out.writeStringNoTag(json.asText());
                }
            }
            case QUANTITY -> writeElement(plan.protoField("string"), json, out);
            case PROPS_OR_ARRAY -> {
                if (!(json instanceof ArrayNode)) {
                    writeElement(plan.protoField("schema"), json, out);
                } else {
                    for (JsonNode s : json) {
                        writeElement(plan.protoField("jSONSchemas"), s, out);
                    }
                }
            }
            case PROPS_OR_BOOL -> {
                out.writeUInt32NoTag(plan.protoField("allows").tag);
                out.writeBoolNoTag(!json.isBoolean() || json.booleanValue());
                if (json instanceof ObjectNode) {
                    writeElement(plan.protoField("schema"), json, out);
                }
            }
            case PROPS_OR_STRING_ARRAY -> {
                if (json instanceof ArrayNode) {
                    writeRepeated(plan.protoField("property"), json, out);
                } else {
                    writeElement(plan.protoField("schema"), json, out);
                }
            }
        }
    }

    // ---- scalars

    /** A string field's value: the text, {@code ""} for null, else the JSON of the value. */
    private static String text(JsonNode v) {
        return v instanceof TextNode t ? t.textValue() : v instanceof NullNode ? "" : v.toString();
    }

    private static int asInt(JsonNode v) {
        return v instanceof NumericNode n ? n.intValue() : v.asInt();
    }

    private static long asLong(JsonNode v) {
        return v instanceof NumericNode n ? n.longValue() : v.asLong();
    }

    private static int stringSize(String s) {
        return CodedOutputStream.computeStringSizeNoTag(s);
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

    private static byte[] jsonBytes(JsonNode json) {
        return RawJson.bytes(json);
    }

    // ---- what the first pass keeps for the second

    private int reserve() {
        if (sizeCount == sizes.length) {
            sizes = Arrays.copyOf(sizes, sizes.length * 2);
        }
        return sizeCount++;
    }

    private void reserveSet(int value) {
        int slot = reserve(); // before reading the field: reserve() may grow the array
        sizes[slot] = value;
    }

    private void keepLong(long value) {
        reserveSet((int) (value >>> 32));
        reserveSet((int) value);
    }

    private long recallLong() {
        long high = sizes[sizeCursor++];
        long low = sizes[sizeCursor++] & 0xffffffffL;
        return high << 32 | low;
    }

    /** Keeps {@code value} for the second pass if the budget allows, else a hole it fills again itself. */
    private void remember(Object value, int bytes) {
        if (memoCount == memo.length) {
            memo = Arrays.copyOf(memo, memo.length * 2);
        }
        if (memoBytes + bytes <= memoBudget) {
            memo[memoCount++] = value;
            memoBytes += bytes;
        } else {
            memo[memoCount++] = null;
        }
    }

    private Object recall() {
        Object value = memo[memoCursor];
        memo[memoCursor++] = null;
        return value;
    }
}
