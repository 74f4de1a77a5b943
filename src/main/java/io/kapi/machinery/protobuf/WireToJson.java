package io.kapi.machinery.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads a message's wire bytes straight into the JSON tree {@link ProtoToJson} makes of the parsed message,
 * without building a {@code DynamicMessage} first: each message's fields are read into an array of slots by
 * a plan made once per message type (slot by field number, JSON name, inlining, special type, which zeros are
 * kept), then written in the plan's order with {@link ProtoToJson}'s rules. The tree is the same, node for
 * node (a test holds every built-in kind to it); only the work differs: no descriptor map lookups, no
 * message builders, no boxing into field maps.
 */
final class WireToJson {

    private final JsonNodeFactory nodes;
    private final ProtoToJson rules;
    private final RequiredFields required;
    private final Map<Descriptor, Plan> plans = new ConcurrentHashMap<>();

    /** @param rules the converter whose tree this one makes (its nodes, raw JSON reader and required fields) */
    WireToJson(JsonNodeFactory nodes, ObjectReader raw, RequiredFields required) {
        this.nodes = nodes;
        this.required = required;
        this.rules = new ProtoToJson(nodes, raw, required);
    }

    /** Adds the fields of the {@code type} message in {@code in} (read to its end or limit) to {@code out}. */
    void writeFields(Descriptor type, CodedInputStream in, ObjectNode out) throws IOException {
        Plan plan = plan(type);
        write(plan, read(plan, in), out);
    }

    private Plan plan(Descriptor type) {
        Plan p = plans.get(type);
        if (p == null) {
            p = plans.computeIfAbsent(type, t -> new Plan(t, required));
        }
        return p;
    }

    /** One message type: its fields in JSON order, and the slot of each field number. */
    private static final class Plan {
        final Descriptor type;
        final FieldDescriptor[] fields;
        final String[] jsonNames;
        final boolean[] inline;
        final boolean[] keepZero;
        final int[] slotOfNumber;
        final Special special;

        Plan(Descriptor type, RequiredFields required) {
            this.type = type;
            this.special = Special.of(type);
            List<Fields.Field> all = Fields.of(type).all();
            int n = all.size();
            fields = new FieldDescriptor[n];
            jsonNames = new String[n];
            inline = new boolean[n];
            keepZero = new boolean[n];
            int max = 0;
            for (Fields.Field f : all) {
                max = Math.max(max, f.descriptor().getNumber());
            }
            slotOfNumber = new int[max + 1];
            java.util.Arrays.fill(slotOfNumber, -1);
            for (int i = 0; i < n; i++) {
                Fields.Field f = all.get(i);
                fields[i] = f.descriptor();
                jsonNames[i] = f.jsonName();
                inline[i] = f.inline();
                slotOfNumber[f.descriptor().getNumber()] = i;
                if (!inline[i]) {
                    boolean string = f.descriptor().getJavaType() == FieldDescriptor.JavaType.STRING;
                    keepZero[i] = ProtoToJson.keepZero(string ? "" : 0, type.getName(), f.jsonName())
                            || required != null && required.contains(type, f.jsonName());
                }
            }
        }

        int slot(int number) {
            return number < slotOfNumber.length ? slotOfNumber[number] : -1;
        }
    }

    /** A read message: each slot a scalar, a nested {@link Read}, or a list of them (repeated), null when absent. */
    private record Read(Plan plan, Object[] slots) {
    }

    private Read read(Plan plan, CodedInputStream in) throws IOException {
        Object[] slots = new Object[plan.fields.length];
        for (int tag; (tag = in.readTag()) != 0; ) {
            int slot = plan.slot(WireFormat.getTagFieldNumber(tag));
            if (slot < 0) {
                in.skipField(tag);
                continue;
            }
            FieldDescriptor fd = plan.fields[slot];
            int wireType = WireFormat.getTagWireType(tag);
            boolean packed = wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED && fd.isRepeated() && isPackable(fd);
            if (!packed && wireType != fd.getLiteType().getWireType()) {
                in.skipField(tag); // as protobuf-java: a field on the wire in another type is an unknown one
                continue;
            }
            if (fd.isRepeated()) {
                @SuppressWarnings("unchecked")
                List<Object> list = (List<Object>) slots[slot];
                if (list == null) {
                    list = new ArrayList<>(4);
                    slots[slot] = list;
                }
                if (packed) {
                    int limit = in.pushLimit(in.readRawVarint32());
                    while (in.getBytesUntilLimit() > 0) {
                        list.add(scalar(fd, in));
                    }
                    in.popLimit(limit);
                } else {
                    list.add(value(fd, in));
                }
            } else {
                slots[slot] = value(fd, in);
            }
        }
        return new Read(plan, slots);
    }

    private static boolean isPackable(FieldDescriptor fd) {
        return switch (fd.getJavaType()) {
            case STRING, BYTE_STRING, MESSAGE -> false;
            default -> true;
        };
    }

    private Object value(FieldDescriptor fd, CodedInputStream in) throws IOException {
        if (fd.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
            return scalar(fd, in);
        }
        int limit = in.pushLimit(in.readRawVarint32());
        Read nested = read(plan(fd.getMessageType()), in);
        in.checkLastTagWas(0);
        in.popLimit(limit);
        return nested;
    }

    private static Object scalar(FieldDescriptor fd, CodedInputStream in) throws IOException {
        return switch (fd.getType()) {
            case INT32 -> in.readInt32();
            case SINT32 -> in.readSInt32();
            case SFIXED32 -> in.readSFixed32();
            case UINT32 -> in.readUInt32();
            case FIXED32 -> in.readFixed32();
            case INT64 -> in.readInt64();
            case SINT64 -> in.readSInt64();
            case SFIXED64 -> in.readSFixed64();
            case UINT64 -> in.readUInt64();
            case FIXED64 -> in.readFixed64();
            case BOOL -> in.readBool();
            case DOUBLE -> in.readDouble();
            case FLOAT -> in.readFloat();
            case STRING -> in.readString();
            case BYTES -> in.readBytes();
            case ENUM -> {
                int number = in.readEnum();
                var value = fd.getEnumType().findValueByNumber(number);
                yield value == null ? Integer.toString(number) : value.getName();
            }
            case MESSAGE, GROUP -> throw new IOException("not a scalar: " + fd.getFullName());
        };
    }

    /** {@link ProtoToJson#writeFields}, over read slots. */
    private void write(Plan plan, Read read, ObjectNode out) {
        Object[] slots = read.slots();
        for (int i = 0; i < slots.length; i++) {
            Object v = slots[i];
            if (v == null) {
                continue;
            }
            if (plan.inline[i]) {
                Read nested = (Read) v;
                write(nested.plan(), nested, out);
                continue;
            }
            FieldDescriptor fd = plan.fields[i];
            JsonNode value;
            if (fd.isMapField()) {
                value = map(fd, (List<?>) v);
            } else if (fd.isRepeated()) {
                List<?> list = (List<?>) v;
                ArrayNode arr = nodes.arrayNode(list.size());
                for (Object item : list) {
                    arr.add(json(fd, item));
                }
                value = arr;
            } else {
                if (!plan.keepZero[i] && ProtoToJson.isZero(v)) {
                    continue;
                }
                value = json(fd, v);
            }
            out.set(plan.jsonNames[i], value);
        }
    }

    private ObjectNode map(FieldDescriptor fd, List<?> entries) {
        TreeMap<String, JsonNode> sorted = new TreeMap<>();
        FieldDescriptor valueField = fd.getMessageType().findFieldByNumber(2);
        for (Object e : entries) {
            Read entry = (Read) e;
            int keySlot = entry.plan().slot(1);
            int valueSlot = entry.plan().slot(2);
            Object key = keySlot < 0 ? null : entry.slots()[keySlot];
            Object value = valueSlot < 0 ? null : entry.slots()[valueSlot];
            sorted.put(key == null ? defaultText(entry.plan().fields[keySlot]) : String.valueOf(key),
                    json(valueField, value == null ? defaultValue(valueField) : value));
        }
        ObjectNode out = nodes.objectNode();
        sorted.forEach(out::set);
        return out;
    }

    private static String defaultText(FieldDescriptor fd) {
        return String.valueOf(fd.getDefaultValue());
    }

    /** What a parsed message holds for an absent field: the default, an empty message for a message. */
    private Object defaultValue(FieldDescriptor fd) {
        if (fd.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
            Plan p = plan(fd.getMessageType());
            return new Read(p, new Object[p.fields.length]);
        }
        Object d = fd.getDefaultValue();
        return d instanceof com.google.protobuf.Descriptors.EnumValueDescriptor e ? e.getName() : d;
    }

    private JsonNode json(FieldDescriptor fd, Object v) {
        return switch (fd.getJavaType()) {
            case STRING, ENUM -> nodes.textNode((String) v);
            case INT -> nodes.numberNode((Integer) v);
            case LONG -> rules.integral((Long) v);
            case BOOLEAN -> nodes.booleanNode((Boolean) v);
            case DOUBLE -> rules.number((Double) v);
            case FLOAT -> rules.number((Float) v);
            case BYTE_STRING -> nodes.textNode(Base64.getEncoder().encodeToString(((ByteString) v).toByteArray()));
            case MESSAGE -> message((Read) v);
        };
    }

    /** {@link ProtoToJson#message}, over a read message. */
    private JsonNode message(Read m) {
        Plan p = m.plan();
        if (p.special == null) {
            return tree(m);
        }
        return switch (p.special) {
            case TIME -> has(m, "seconds") ? nodes.textNode(GoTime.formatTime(longOf(m, "seconds"))) : nodes.nullNode();
            case MICRO_TIME -> has(m, "seconds")
                    ? nodes.textNode(GoTime.formatMicroTime(longOf(m, "seconds"), (int) longOf(m, "nanos")))
                    : nodes.nullNode();
            case DURATION -> nodes.textNode(GoTime.formatDuration(longOf(m, "duration")));
            case RAW_JSON -> {
                Object raw = m.slots()[0];
                yield rules.rawJson(raw == null ? ByteString.EMPTY : (ByteString) raw);
            }
            case STRING_LIST -> strings(m.slots()[0]);
            case INT_OR_STRING -> longOf(m, "type") == 1 ? nodes.textNode(textOf(m, "strVal"))
                    : nodes.numberNode((int) longOf(m, "intVal"));
            case QUANTITY -> nodes.textNode(textOf(m, "string"));
            case PROPS_OR_ARRAY -> {
                Object many = field(m, "jSONSchemas");
                if (many instanceof List<?> list && !list.isEmpty()) {
                    ArrayNode arr = nodes.arrayNode();
                    list.forEach(s -> arr.add(tree((Read) s)));
                    yield arr;
                }
                yield schemaOr(m, nodes.nullNode());
            }
            case PROPS_OR_BOOL -> schemaOr(m, nodes.booleanNode(field(m, "allows") instanceof Boolean b && b));
            case PROPS_OR_STRING_ARRAY -> {
                Object property = field(m, "property");
                yield property instanceof List<?> list && !list.isEmpty() ? strings(list) : schemaOr(m, nodes.nullNode());
            }
        };
    }

    /** The fields of {@code m} as an object, whatever its type ({@link ProtoToJson#tree}). */
    private ObjectNode tree(Read m) {
        ObjectNode out = nodes.objectNode();
        write(m.plan(), m, out);
        return out;
    }

    private JsonNode schemaOr(Read m, JsonNode otherwise) {
        Object schema = field(m, "schema");
        return schema == null ? otherwise : tree((Read) schema);
    }

    private ArrayNode strings(Object list) {
        ArrayNode arr = nodes.arrayNode();
        if (list instanceof List<?> l) {
            l.forEach(s -> arr.add((String) s));
        }
        return arr;
    }

    private static Object field(Read m, String name) {
        FieldDescriptor fd = m.plan().type.findFieldByName(name);
        int slot = fd == null ? -1 : m.plan().slot(fd.getNumber());
        return slot < 0 ? null : m.slots()[slot];
    }

    private static boolean has(Read m, String name) {
        return field(m, name) != null;
    }

    private static long longOf(Read m, String name) {
        return field(m, name) instanceof Number n ? n.longValue() : 0;
    }

    private static String textOf(Read m, String name) {
        return field(m, name) instanceof String s ? s : "";
    }
}
