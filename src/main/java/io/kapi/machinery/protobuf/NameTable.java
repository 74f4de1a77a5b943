package io.kapi.machinery.protobuf;

import io.kapi.machinery.protobuf.MessagePlan.FieldPlan;
import java.util.Map;

/**
 * A message's fields by name, looked up for every key of every object encoded: an open-addressed table of
 * power-of-two size, keys at even slots and fields at odd ones, its names interned so that a key Jackson
 * read (interned too) or a string literal is found by reference. A {@code Map.copyOf} map divides to find a
 * slot and compares names by {@code equals}, which was a tenth of an encoding's time. Immutable.
 */
final class NameTable {

    private final Object[] slots;
    private final int mask;

    NameTable(Map<String, FieldPlan> fields) {
        int size = Integer.highestOneBit(Math.max(1, fields.size()) * 2) * 2;
        this.slots = new Object[size * 2];
        this.mask = size - 1;
        for (Map.Entry<String, FieldPlan> e : fields.entrySet()) {
            String name = e.getKey().intern();
            int i = name.hashCode() & mask;
            while (slots[2 * i] != null) {
                i = (i + 1) & mask;
            }
            slots[2 * i] = name;
            slots[2 * i + 1] = e.getValue();
        }
    }

    /** The field named {@code name}, or null. */
    FieldPlan get(String name) {
        Object[] table = slots;
        for (int i = name.hashCode() & mask; ; i = (i + 1) & mask) {
            Object key = table[2 * i];
            if (key == name) {
                return (FieldPlan) table[2 * i + 1];
            }
            if (key == null) {
                return null;
            }
            if (key.equals(name)) {
                return (FieldPlan) table[2 * i + 1];
            }
        }
    }
}
