package io.kapi.machinery.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import java.util.ArrayList;
import java.util.List;

/**
 * The second look at required fields. The schema is walked once, when a write's object is decoded;
 * the walk reports the required fields missing then. Defaulting and mutating admission may fill some
 * of them afterwards, so validation keeps only those still missing in the final object, by following
 * each error's field path ({@code spec.template.spec.containers[0].name}) instead of walking the
 * schema again.
 */
public final class RequiredFields {

    private RequiredFields() {
    }

    /** The errors of {@code missing} whose field is still absent, null or an empty list in {@code object}. */
    public static List<FieldError> stillMissing(ObjectNode object, List<FieldError> missing) {
        List<FieldError> out = new ArrayList<>();
        for (FieldError e : missing) {
            JsonNode v = resolve(object, e.field());
            if (v == null || v.isNull() || v.isMissingNode() || (v.isArray() && v.isEmpty())) {
                out.add(e);
            }
        }
        return out;
    }

    /** The node at a kube field path, or null when a step is absent. */
    static JsonNode resolve(JsonNode root, String path) {
        JsonNode node = root;
        int i = 0;
        while (node != null && i < path.length()) {
            char c = path.charAt(i);
            if (c == '.') {
                i++;
                continue;
            }
            if (c == '[') {
                int end = path.indexOf(']', i);
                if (end < 0) {
                    return null;
                }
                String key = path.substring(i + 1, end);
                node = node.isArray() ? index(node, key) : node.get(key);
                i = end + 1;
                continue;
            }
            int end = i;
            while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
                end++;
            }
            node = node.get(path.substring(i, end));
            i = end;
        }
        return node;
    }

    private static JsonNode index(JsonNode array, String key) {
        try {
            return array.get(Integer.parseInt(key));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
