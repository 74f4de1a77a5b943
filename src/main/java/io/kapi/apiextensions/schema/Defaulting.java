package io.kapi.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver's defaulting of custom resources ({@code structuraldefaulting.Default}): a property that
 * is absent, or {@code null} where the schema does not allow null, gets a copy of its schema's default;
 * then defaulting descends into every property, additional property and item. Defaults apply top-down,
 * so a defaulted object gets the defaults of its own properties too. Done when a request body is decoded
 * and when a stored object is read.
 */
public final class Defaulting {

    private Defaulting() {
    }

    /** Applies the defaults of {@code s} to {@code x} in place. */
    public static void apply(JsonNode x, StructuralSchema s) {
        if (s == null) {
            return;
        }
        if (x instanceof ObjectNode obj) {
            for (Map.Entry<String, StructuralSchema> e : s.properties().entrySet()) {
                JsonNode def = e.getValue().defaultValue();
                if (def == null) {
                    continue;
                }
                JsonNode current = obj.get(e.getKey());
                if (current == null || nonNullableNull(current, e.getValue())) {
                    obj.set(e.getKey(), def.deepCopy());
                }
            }
            List<String> keys = new ArrayList<>();
            obj.fieldNames().forEachRemaining(keys::add);
            for (String k : keys) {
                StructuralSchema prop = s.property(k);
                if (prop != null) {
                    apply(obj.get(k), prop);
                } else if (s.additionalProperties() != null) {
                    StructuralSchema additional = s.additionalProperties();
                    if (nonNullableNull(obj.get(k), additional) && additional.defaultValue() != null) {
                        obj.set(k, additional.defaultValue().deepCopy());
                    }
                    apply(obj.get(k), additional);
                }
            }
        } else if (x instanceof ArrayNode arr && s.items() != null) {
            for (int i = 0; i < arr.size(); i++) {
                if (nonNullableNull(arr.get(i), s.items()) && s.items().defaultValue() != null) {
                    arr.set(i, s.items().defaultValue().deepCopy());
                }
                apply(arr.get(i), s.items());
            }
        }
    }

    private static boolean nonNullableNull(JsonNode v, StructuralSchema s) {
        return v != null && v.isNull() && s != null && !s.nullable();
    }
}
