package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Null-safe reads of an object tree with Go's zero values: a missing string is {@code ""}, a missing number
 * {@code 0}, a missing list empty, a missing timestamp null. Printers read stored objects through this so that
 * a field left out prints exactly as the zero value of the Go struct field would.
 */
final class Obj {

    private Obj() {
    }

    /** The node at {@code path}, or a missing node. */
    static JsonNode at(JsonNode node, String... path) {
        JsonNode n = node == null ? MissingNode.getInstance() : node;
        for (String p : path) {
            n = n.path(p);
        }
        return n;
    }

    static boolean has(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        return !n.isMissingNode() && !n.isNull();
    }

    static String str(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        return n.isValueNode() && !n.isNull() ? n.asText() : "";
    }

    /** The string at {@code path}, or {@code fallback} when it is empty or absent. */
    static String strOr(JsonNode node, String fallback, String... path) {
        String s = str(node, path);
        return s.isEmpty() ? fallback : s;
    }

    static long num(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        return n.isNumber() || n.isTextual() ? n.asLong(0) : 0;
    }

    static boolean bool(JsonNode node, String... path) {
        return at(node, path).asBoolean(false);
    }

    /** The elements of the array at {@code path}; empty when absent. */
    static List<JsonNode> list(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        List<JsonNode> out = new ArrayList<>();
        if (n.isArray()) {
            n.forEach(out::add);
        }
        return out;
    }

    /** The number of entries of the object or array at {@code path}. */
    static int size(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        return n.isContainerNode() ? n.size() : 0;
    }

    static String name(JsonNode obj) {
        return str(obj, "metadata", "name");
    }

    /** The RFC 3339 time at {@code path}, or null when it is absent, empty or unreadable (Go's zero time). */
    static Instant time(JsonNode node, String... path) {
        String s = str(node, path);
        if (s.isEmpty()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The age of the timestamp at {@code path} as the AGE column prints it. */
    static String age(JsonNode node, Instant now, String... path) {
        return HumanDuration.since(time(node, path), now);
    }

    /** The age of the object: its {@code metadata.creationTimestamp}. */
    static String age(JsonNode obj, Instant now) {
        return age(obj, now, "metadata", "creationTimestamp");
    }

    static boolean deleting(JsonNode obj) {
        return has(obj, "metadata", "deletionTimestamp");
    }
}
