package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Small reads of JSON trees with Go's zero-value semantics: absent, null and empty behave alike where kube's do. */
final class Json {

    private Json() {
    }

    /** The string at {@code name}, or "" when absent or null. */
    static String text(JsonNode n, String name) {
        JsonNode v = n == null ? null : n.get(name);
        return v == null || v.isNull() ? "" : v.asText();
    }

    /** The child, never null (MissingNode when absent). */
    static JsonNode at(JsonNode n, String... names) {
        JsonNode cur = n == null ? MissingNode.getInstance() : n;
        for (String name : names) {
            cur = cur.path(name);
        }
        return cur;
    }

    /** Whether a field is set to a non-null value. */
    static boolean has(JsonNode n, String name) {
        return n != null && n.hasNonNull(name);
    }

    /** The elements of an array (empty when absent). */
    static List<JsonNode> items(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(out::add);
        }
        return out;
    }

    /** Go's Semantic.DeepEqual approximation: absent, null, empty object and empty array are equal. */
    static boolean same(JsonNode a, JsonNode b) {
        return Objects.equals(normal(a), normal(b));
    }

    private static JsonNode normal(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull() || (n.isContainerNode() && n.isEmpty())) {
            return null;
        }
        return n;
    }
}
