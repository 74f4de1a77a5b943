package io.kapi.apis.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;

/**
 * Field moves the conversions share. A field counts as set when present and not null, as a Go pointer
 * that decoding left non-nil; values are copied, never shared with the source.
 */
final class Nodes {

    private Nodes() {
    }

    /** Whether {@code parent} has {@code field} set. */
    static boolean has(JsonNode parent, String field) {
        JsonNode v = parent == null ? null : parent.get(field);
        return v != null && !v.isNull();
    }

    /** {@code from.field} copied to {@code to.as} when set. */
    static void copy(JsonNode from, String field, ObjectNode to, String as) {
        if (has(from, field)) {
            to.set(as, from.get(field).deepCopy());
        }
    }

    /** {@code from.field} copied to {@code to.field} when set. */
    static void copy(JsonNode from, String field, ObjectNode to) {
        copy(from, field, to, field);
    }

    /** {@code from.field} copied to {@code to.as}, or {@code zero} when unset: a Go value field, always encoded. */
    static void copyOr(JsonNode from, String field, ObjectNode to, String as, JsonNode zero) {
        to.set(as, has(from, field) ? from.get(field).deepCopy() : zero.deepCopy());
    }

    /** The object at {@code field}, or an empty one when unset (a Go struct left at its zero value). */
    static JsonNode object(JsonNode parent, String field) {
        JsonNode v = parent == null ? null : parent.get(field);
        return v != null && v.isObject() ? v : Json.object();
    }

    /** The text at {@code field}, "" when unset. */
    static String text(JsonNode parent, String field) {
        JsonNode v = parent == null ? null : parent.get(field);
        return v != null && v.isValueNode() && !v.isNull() ? v.asText() : "";
    }

    /** A new object with {@code apiVersion} and {@code kind}, then a copy of {@code source}'s metadata. */
    static ObjectNode header(String apiVersion, String kind, JsonNode source) {
        ObjectNode out = Json.object();
        out.put("apiVersion", apiVersion);
        out.put("kind", kind);
        if (source.get("metadata") instanceof ObjectNode meta) {
            out.set("metadata", meta.deepCopy());
        }
        return out;
    }
}
