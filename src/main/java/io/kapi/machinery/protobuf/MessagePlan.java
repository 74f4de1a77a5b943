package io.kapi.machinery.protobuf;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.WireFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How {@link TreeEncoder} writes one message from a JSON value, read once from its descriptor: its
 * fields by JSON name (as {@link Fields} names them), the fields JSON inlines, and the fields a
 * {@link Special} message uses. Immutable once built; shared by every thread.
 */
final class MessagePlan {

    private static final Map<Descriptor, MessagePlan> CACHE = new ConcurrentHashMap<>();

    final Descriptor descriptor;
    /** The message's special JSON form, or null for an object of its fields. */
    final Special special;
    /** The fields named in the JSON object itself, by JSON name. */
    private final NameTable byJsonName;
    /** Every field by its proto name (the fields of special messages and lists, looked up by literals). */
    private final NameTable byProtoName;
    /** The embedded messages whose fields JSON writes in this object. */
    final FieldPlan[] inline;
    /** The first field declared (the bytes of a raw JSON message, the strings of a string list). */
    final FieldPlan first;

    private MessagePlan(Descriptor descriptor) {
        this.descriptor = descriptor;
        this.special = Special.of(descriptor);
        Map<String, FieldPlan> named = new HashMap<>();
        Map<String, FieldPlan> all = new HashMap<>();
        List<FieldPlan> inlined = new ArrayList<>();
        for (Fields.Field f : Fields.of(descriptor).all()) {
            FieldPlan plan = new FieldPlan(f.descriptor());
            all.put(f.descriptor().getName(), plan);
            if (f.inline()) {
                inlined.add(plan);
            } else {
                named.put(f.jsonName(), plan);
            }
        }
        this.byJsonName = new NameTable(named);
        this.byProtoName = new NameTable(all);
        this.inline = inlined.toArray(FieldPlan[]::new);
        this.first = descriptor.getFields().isEmpty() ? null : all.get(descriptor.getFields().getFirst().getName());
    }

    static MessagePlan of(Descriptor descriptor) {
        MessagePlan plan = CACHE.get(descriptor);
        return plan != null ? plan : CACHE.computeIfAbsent(descriptor, MessagePlan::new);
    }

    /** The field of JSON key {@code name}, or null if the message has none (it is then left out). */
    FieldPlan field(String name) {
        return byJsonName.get(name);
    }

    /** The field named {@code name} in the proto definition (for special messages and lists). */
    FieldPlan protoField(String name) {
        FieldPlan f = byProtoName.get(name);
        if (f == null) {
            throw new IllegalStateException(descriptor.getFullName() + " has no field " + name);
        }
        return f;
    }

    /** One field: its tag, how its values are written, and the plan of its message (made when first used). */
    static final class FieldPlan {
        final FieldDescriptor descriptor;
        final FieldDescriptor.Type type;
        final int number;
        final boolean repeated;
        final boolean map;
        final boolean packed;
        /** Whether this is a singular {@code metav1.Time}: JSON null is written as an empty message. */
        final boolean time;
        /** The tag of the field's wire type (length-delimited for packed fields). */
        final int tag;
        final int tagSize;
        private volatile MessagePlan message;
        private volatile FieldPlan key;
        private volatile FieldPlan value;

        FieldPlan(FieldDescriptor fd) {
            this.descriptor = fd;
            this.type = fd.getType();
            this.number = fd.getNumber();
            this.map = fd.isMapField();
            this.repeated = fd.isRepeated();
            this.packed = fd.isPacked();
            this.time = !repeated && type == FieldDescriptor.Type.MESSAGE
                    && Special.of(fd.getMessageType()) == Special.TIME;
            int wire = packed ? WireFormat.WIRETYPE_LENGTH_DELIMITED : fd.getLiteType().getWireType();
            this.tag = number << 3 | wire;
            this.tagSize = CodedOutputStream.computeUInt32SizeNoTag(tag);
        }

        MessagePlan message() {
            MessagePlan m = message;
            if (m == null) {
                m = MessagePlan.of(descriptor.getMessageType());
                message = m;
            }
            return m;
        }

        /** The key field of a map entry. */
        FieldPlan key() {
            FieldPlan k = key;
            if (k == null) {
                k = new FieldPlan(descriptor.getMessageType().findFieldByNumber(1));
                key = k;
            }
            return k;
        }

        /** The value field of a map entry. */
        FieldPlan value() {
            FieldPlan v = value;
            if (v == null) {
                v = new FieldPlan(descriptor.getMessageType().findFieldByNumber(2));
                value = v;
            }
            return v;
        }
    }
}
