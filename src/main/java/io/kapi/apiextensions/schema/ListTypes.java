package io.kapi.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The uniqueness of {@code x-kubernetes-list-type} lists ({@code ValidateListSetsAndMaps}): a {@code set}
 * holds no value twice, a {@code map} no two items with the same keys ({@code x-kubernetes-list-map-keys}).
 * Each repeated value is reported once, at its second place: {@code spec.ports[2]: Duplicate value:
 * map[string]interface {}{"name":"http"}}.
 */
public final class ListTypes {

    private ListTypes() {
    }

    /** The errors of {@code object} (a whole object or an object below {@code prefix}). */
    public static List<FieldError> validate(String prefix, JsonNode object, StructuralSchema schema) {
        List<FieldError> errors = new ArrayList<>();
        if (object instanceof ObjectNode obj) {
            fields(prefix, obj, schema, errors);
        }
        return errors;
    }

    private static void fields(String path, ObjectNode obj, StructuralSchema s, List<FieldError> errors) {
        if (s == null) {
            return;
        }
        for (Map.Entry<String, JsonNode> e : obj.properties()) {
            StructuralSchema sub = s.property(e.getKey());
            if (sub != null) {
                value(path.isEmpty() ? e.getKey() : path + "." + e.getKey(), e.getValue(), sub, errors);
            } else if (s.additionalProperties() != null) {
                value(path + "[" + e.getKey() + "]", e.getValue(), s.additionalProperties(), errors);
            }
        }
    }

    private static void value(String path, JsonNode v, StructuralSchema s, List<FieldError> errors) {
        if (v.isArray()) {
            array(path, v, s, errors);
        } else if (v instanceof ObjectNode o) {
            fields(path, o, s, errors);
        }
    }

    private static void array(String path, JsonNode arr, StructuralSchema s, List<FieldError> errors) {
        switch (s.listType()) {
            case "set" -> duplicates(path, values(arr), errors, false);
            case "map" -> mapList(path, arr, s, errors);
            default -> { }
        }
        if (s.items() != null) {
            for (int i = 0; i < arr.size(); i++) {
                value(path + "[" + i + "]", arr.get(i), s.items(), errors);
            }
        }
    }

    private static List<JsonNode> values(JsonNode arr) {
        List<JsonNode> out = new ArrayList<>();
        arr.forEach(out::add);
        return out;
    }

    private static void mapList(String path, JsonNode arr, StructuralSchema s, List<FieldError> errors) {
        for (int i = 0; i < arr.size(); i++) {
            JsonNode x = arr.get(i);
            if (!x.isNull() && !x.isObject()) {
                errors.add(FieldError.invalid(path + "[" + i + "]", GoValues.errorValue(x),
                        "must be an object for an array of list-type map"));
                return;
            }
        }
        List<JsonNode> keys = new ArrayList<>();
        for (JsonNode x : arr) {
            ObjectNode key = Json.object();
            for (String k : s.listMapKeys()) {
                if (x.has(k)) {
                    key.set(k, x.get(k));
                }
            }
            keys.add(key);
        }
        duplicates(path, keys, errors, true);
    }

    /** Reports the second occurrence of each repeated value. */
    private static void duplicates(String path, List<JsonNode> values, List<FieldError> errors, boolean keyMaps) {
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < values.size(); i++) {
            String identity = canonical(values.get(i));
            int times = seen.merge(identity, 1, Integer::sum);
            if (times == 2) {
                JsonNode shown = values.get(i);
                errors.add(new FieldError(FieldError.Type.DUPLICATE, path + "[" + i + "]",
                        keyMaps ? GoValues.goSyntax(shown) : GoValues.errorValue(shown), null));
            }
        }
    }

    /** A value's identity for comparison: numbers by value, objects by sorted keys. */
    private static String canonical(JsonNode v) {
        if (v.isNumber()) {
            return "n:" + v.decimalValue().stripTrailingZeros().toPlainString();
        }
        if (v.isObject()) {
            java.util.TreeMap<String, String> sorted = new java.util.TreeMap<>();
            v.properties().forEach(e -> sorted.put(e.getKey(), canonical(e.getValue())));
            return "o:" + sorted;
        }
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(x -> items.add(canonical(x)));
            return "a:" + items;
        }
        return v.getNodeType() + ":" + v.asText();
    }
}
