package io.kapi.apis.defaults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoValues;
import java.util.ArrayList;
import java.util.List;

/**
 * Filling fields of a JSON object left at Go's zero value ({@link GoValues}: a pointer field is unset
 * when absent or null; a plain string when also empty; a plain integer when also zero). Defaulting in
 * kube-apiserver tests exactly these conditions, so each helper names which one it uses.
 */
final class Fields {

    private Fields() {
    }

    /** The object at {@code field}, or null when absent or not an object. */
    static ObjectNode child(ObjectNode parent, String field) {
        return parent != null && parent.get(field) instanceof ObjectNode o ? o : null;
    }

    /** The object at {@code field}, created empty when absent or null. */
    static ObjectNode ensure(ObjectNode parent, String field) {
        if (parent.get(field) instanceof ObjectNode o) {
            return o;
        }
        return parent.putObject(field);
    }

    /** The object elements of the array at {@code field}; empty when absent. */
    static List<ObjectNode> items(ObjectNode parent, String field) {
        List<ObjectNode> out = new ArrayList<>();
        if (parent != null && parent.get(field) instanceof ArrayNode array) {
            for (JsonNode item : array) {
                if (item instanceof ObjectNode o) {
                    out.add(o);
                }
            }
        }
        return out;
    }

    /** Absent or null: a Go pointer, slice or map left nil. */
    static boolean unset(ObjectNode parent, String field) {
        return GoValues.isUnset(parent.get(field));
    }

    /** Unset, or an empty string: a Go string left at its zero value. */
    static boolean blank(ObjectNode parent, String field) {
        return GoValues.isBlank(parent.get(field));
    }

    /** Unset, or the number zero: a Go integer left at its zero value. */
    static boolean zero(ObjectNode parent, String field) {
        return GoValues.isZero(parent.get(field));
    }

    /** Unset, or an empty array or object: a Go slice or map of length zero. */
    static boolean empty(ObjectNode parent, String field) {
        return GoValues.isEmpty(parent.get(field));
    }

    /** The text at {@code field}, "" when absent (decoding has made it a string when present). */
    static String text(ObjectNode parent, String field) {
        return GoValues.text(parent, field);
    }

    /** Sets a plain string field left blank. */
    static void text(ObjectNode parent, String field, String value) {
        if (blank(parent, field)) {
            parent.put(field, value);
        }
    }

    /** Sets a pointer string field left unset ("" counts as set). */
    static void textPointer(ObjectNode parent, String field, String value) {
        if (unset(parent, field)) {
            parent.put(field, value);
        }
    }

    /** Sets a plain integer field left at zero. */
    static void integer(ObjectNode parent, String field, int value) {
        if (zero(parent, field)) {
            parent.put(field, value);
        }
    }

    /** Sets a pointer integer field left unset (0 counts as set). */
    static void integerPointer(ObjectNode parent, String field, int value) {
        if (unset(parent, field)) {
            parent.put(field, value);
        }
    }

    /** Sets a pointer boolean field left unset. */
    static void bool(ObjectNode parent, String field, boolean value) {
        if (unset(parent, field)) {
            parent.put(field, value);
        }
    }

    /** Sets a pointer-to-struct field left unset to an empty object. */
    static void emptyObject(ObjectNode parent, String field) {
        if (unset(parent, field)) {
            parent.putObject(field);
        }
    }
}
