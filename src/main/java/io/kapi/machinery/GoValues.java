package io.kapi.machinery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads of JSON trees as a Go struct would see the same fields: absent and {@code null} read as the
 * zero value ({@code ""}, {@code 0}, {@code false}, an empty list), so that code written after kube's
 * Go reads the same. Every method takes a node (which may be null or missing) and an optional path of
 * field names below it, and never throws.
 *
 * <p>"Unset", "blank", "zero" and "empty" are the tests kube's defaulting and validation make: a pointer,
 * slice or map is unset when absent or null; a string is blank when also {@code ""}; an integer is zero
 * when also {@code 0}; a slice or map is empty when also of length 0.
 */
public final class GoValues {

    private GoValues() {
    }

    /** The node at {@code path} below {@code node}; a missing node (never null) where anything is absent. */
    public static JsonNode at(JsonNode node, String... path) {
        JsonNode n = node == null ? MissingNode.getInstance() : node;
        for (String p : path) {
            n = n.path(p);
        }
        return n;
    }

    /** Whether the field at {@code path} is present and not {@code null}. */
    public static boolean has(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        return !n.isMissingNode() && !n.isNull();
    }

    /**
     * The text of the scalar at {@code path} (a string as is, a number or boolean as JSON writes it);
     * {@code ""} when absent, null, an object or an array.
     */
    public static String text(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        return n.isValueNode() && !n.isNull() ? n.asText() : "";
    }

    /** {@link #text}, or {@code fallback} when that is empty. */
    public static String textOr(JsonNode node, String fallback, String... path) {
        String s = text(node, path);
        return s.isEmpty() ? fallback : s;
    }

    /** The text at {@code path} as a Go {@code *string} reads: null when absent or null. */
    public static String textPointer(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        return n.isMissingNode() || n.isNull() ? null : n.asText();
    }

    /**
     * The integer at {@code path}: a number (truncated), or a string holding one (an {@code IntOrString}'s
     * text); 0 otherwise.
     */
    public static long integer(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        return n.isNumber() || n.isTextual() ? n.asLong(0) : 0;
    }

    /** The boolean at {@code path} ({@code "true"} text counts); false otherwise. */
    public static boolean bool(JsonNode node, String... path) {
        return at(node, path).asBoolean(false);
    }

    /** The elements of the array at {@code path} (a new list the caller may change); empty when absent or not an array. */
    public static List<JsonNode> items(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        List<JsonNode> out = new ArrayList<>(n.isArray() ? n.size() : 0);
        if (n.isArray()) {
            n.forEach(out::add);
        }
        return out;
    }

    /** How many entries the object or array at {@code path} has; 0 for anything else. */
    public static int size(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        return n.isContainerNode() ? n.size() : 0;
    }

    /** Absent or null: a Go pointer, slice or map left nil. */
    public static boolean isUnset(JsonNode value) {
        return value == null || value.isMissingNode() || value.isNull();
    }

    /** Unset, or an empty string: a Go string left at its zero value. */
    public static boolean isBlank(JsonNode value) {
        return isUnset(value) || (value.isTextual() && value.textValue().isEmpty());
    }

    /** Unset, or the number zero: a Go integer left at its zero value. */
    public static boolean isZero(JsonNode value) {
        return isUnset(value) || (value.isNumber() && value.asLong() == 0);
    }

    /** Unset, or an empty array or object: a Go slice or map of length zero. */
    public static boolean isEmpty(JsonNode value) {
        return isUnset(value) || (value.isContainerNode() && value.isEmpty());
    }

    /**
     * An approximation of {@code apiequality.Semantic.DeepEqual} on two subtrees: equal JSON, where an
     * absent, null, empty object and empty array value all count as the same (Go's nil and empty).
     */
    public static boolean same(JsonNode a, JsonNode b) {
        return Objects.equals(isEmpty(a) ? null : a, isEmpty(b) ? null : b);
    }
}
