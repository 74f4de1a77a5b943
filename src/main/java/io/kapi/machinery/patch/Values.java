package io.kapi.machinery.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Helpers on JSON values for the strategic merge: Go-style scalar equality (as {@code ==} on decoded
 * JSON, where {@code 1} and {@code 1.0} and {@code "1"} all differ) and the clean-ups kube-apiserver
 * performs on values it takes from a patch.
 */
final class Values {

    private Values() {
    }

    /**
     * A hashable identity for a scalar, equal exactly when Go's {@code ==} on the decoded values is:
     * type (string, bool, int64, float64, nil) and value. Null for objects and arrays, which Go cannot
     * compare.
     */
    static String scalarKey(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return "n";
        }
        if (node.isContainerNode()) {
            return null;
        }
        if (node.isTextual()) {
            return "s" + node.textValue();
        }
        if (node.isBoolean()) {
            return "b" + node.booleanValue();
        }
        if (node.isIntegralNumber()) {
            return "i" + node.bigIntegerValue();
        }
        return "f" + node.doubleValue();
    }

    /** Go's {@code ==} on two decoded JSON values; containers are never equal. */
    static boolean goEquals(JsonNode a, JsonNode b) {
        String ka = scalarKey(a);
        return ka != null && ka.equals(scalarKey(b));
    }

    /** A type tag for "all elements have the same Go type" checks. */
    static String typeTag(JsonNode node) {
        if (node.isObject()) {
            return "map";
        }
        if (node.isArray()) {
            return "slice";
        }
        String key = scalarKey(node);
        return key.substring(0, 1);
    }

    /** The elements of an array node as a mutable list; empty for null. */
    static List<JsonNode> list(JsonNode array) {
        List<JsonNode> items = new ArrayList<>(array == null ? 0 : array.size());
        if (array != null) {
            array.forEach(items::add);
        }
        return items;
    }

    static ArrayNode array(List<JsonNode> items) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        a.addAll(items);
        return a;
    }

    /** Removes null members of objects, recursively (null array elements stay); in place. */
    static JsonNode discardNulls(JsonNode node) {
        if (node instanceof ObjectNode obj) {
            List<String> nulls = new ArrayList<>();
            for (Map.Entry<String, JsonNode> e : obj.properties()) {
                if (e.getValue().isNull()) {
                    nulls.add(e.getKey());
                } else {
                    discardNulls(e.getValue());
                }
            }
            obj.remove(nulls);
        } else if (node != null && node.isArray()) {
            node.forEach(Values::discardNulls);
        }
        return node;
    }

    /**
     * As strategicpatch's {@code removeDirectives}: an object carrying {@code $patch} is dropped (null is
     * returned for it, and it is removed where nested); other values are kept.
     */
    static JsonNode removeDirectives(JsonNode node) {
        if (node instanceof ObjectNode obj) {
            if (obj.has(StrategicMergePatch.DIRECTIVE)) {
                return null;
            }
            List<String> drop = new ArrayList<>();
            for (Map.Entry<String, JsonNode> e : obj.properties()) {
                JsonNode kept = removeDirectives(e.getValue());
                if (kept == null) {
                    drop.add(e.getKey());
                } else if (kept != e.getValue()) {
                    e.setValue(kept);
                }
            }
            obj.remove(drop);
            return obj;
        }
        if (node != null && node.isArray()) {
            ArrayNode kept = Json.MAPPER.createArrayNode();
            for (JsonNode item : node) {
                JsonNode k = removeDirectives(item);
                if (k != null) {
                    kept.add(k);
                }
            }
            return kept;
        }
        return node;
    }

    /**
     * What decoding into the typed object does to a value taken verbatim from a patch: null members
     * vanish and directive keys ({@code $patch}, {@code $retainKeys}, {@code $setElementOrder/..},
     * {@code $deleteFromPrimitiveList/..}), unknown to the type, are dropped. In place.
     */
    static JsonNode clean(JsonNode node) {
        if (node instanceof ObjectNode obj) {
            List<String> drop = new ArrayList<>();
            for (Map.Entry<String, JsonNode> e : obj.properties()) {
                if (e.getValue().isNull() || isDirectiveKey(e.getKey())) {
                    drop.add(e.getKey());
                } else {
                    clean(e.getValue());
                }
            }
            obj.remove(drop);
        } else if (node != null && node.isArray()) {
            node.forEach(Values::clean);
        }
        return node;
    }

    static boolean isDirectiveKey(String key) {
        return key.equals(StrategicMergePatch.DIRECTIVE)
                || key.equals(StrategicMergePatch.RETAIN_KEYS)
                || key.startsWith(StrategicMergePatch.SET_ORDER + "/")
                || key.startsWith(StrategicMergePatch.DELETE_FROM_LIST + "/");
    }
}
