package io.kapi.apiextensions.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.apiextensions.schema.Pruning;
import io.kapi.apiextensions.schema.StructuralCheck;
import io.kapi.apiextensions.schema.StructuralSchema;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Questions about a whole schema that CRD validation asks (kube's {@code SchemaHas} predicates): does
 * any node carry a default, a Kubernetes extension, an invalid type; is the schema structural; are its
 * defaults pruned. Ratcheting asks them of the old CRD, to not hold an update to a rule the stored one
 * already broke.
 */
final class SchemaFacts {

    private SchemaFacts() {
    }

    /** Whether {@code test} holds for any node of the schema, junctors and maps included. */
    static boolean has(JsonNode s, Predicate<JsonNode> test) {
        if (s == null || !s.isObject()) {
            return false;
        }
        if (test.test(s)) {
            return true;
        }
        JsonNode items = s.get("items");
        if (items != null && (items.isArray() ? any(items, test) : has(items, test))) {
            return true;
        }
        for (String list : List.of("allOf", "anyOf", "oneOf")) {
            if (any(s.path(list), test)) {
                return true;
            }
        }
        for (String single : List.of("not", "additionalProperties", "additionalItems")) {
            if (has(s.get(single), test)) {
                return true;
            }
        }
        for (String map : List.of("properties", "patternProperties", "definitions", "dependencies")) {
            for (Map.Entry<String, JsonNode> e : s.path(map).properties()) {
                if (has(e.getValue(), test)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean any(JsonNode list, Predicate<JsonNode> test) {
        for (JsonNode n : list) {
            if (has(n, test)) {
                return true;
            }
        }
        return false;
    }

    static boolean hasDefaults(JsonNode schema) {
        return has(schema, s -> s.has("default"));
    }

    static boolean hasKubernetesExtensions(JsonNode schema) {
        return has(schema, s -> s.path("x-kubernetes-embedded-resource").asBoolean(false)
                || s.has("x-kubernetes-preserve-unknown-fields") || s.path("x-kubernetes-int-or-string").asBoolean(false)
                || !s.path("x-kubernetes-list-map-keys").isEmpty() || s.has("x-kubernetes-list-type")
                || !s.path("x-kubernetes-validations").isEmpty());
    }

    static boolean hasInvalidTypes(JsonNode schema) {
        return has(schema, s -> !s.path("type").asText("").isEmpty() && !SchemaRules.TYPES.contains(s.path("type").asText()));
    }

    static boolean nonStructural(JsonNode schema) {
        return !StructuralCheck.check("", StructuralSchema.of(schema)).isEmpty();
    }

    static boolean hasUnprunedDefaults(JsonNode schema) {
        if (!hasDefaults(schema) || nonStructural(schema)) {
            return false;
        }
        return has(schema, s -> {
            if (!s.has("default")) {
                return false;
            }
            JsonNode copy = s.get("default").deepCopy();
            Pruning.prune(copy, StructuralSchema.of(s), s.path("x-kubernetes-embedded-resource").asBoolean(false));
            return !copy.equals(s.get("default"));
        });
    }

    static boolean hasNonAtomicSetType(JsonNode schema) {
        return has(schema, s -> {
            JsonNode items = s.path("items");
            if (!s.path("x-kubernetes-list-type").asText("").equals("set") || !items.isObject()) {
                return false;
            }
            return switch (items.path("type").asText("")) {
                case "array" -> items.has("x-kubernetes-list-type") && !items.path("x-kubernetes-list-type").asText().equals("atomic");
                case "object" -> !items.path("x-kubernetes-map-type").asText("").equals("atomic");
                default -> false;
            };
        });
    }

    static boolean hasInvalidMapListKeysMapSet(JsonNode schema) {
        return has(schema, s -> {
            java.util.List<io.kapi.machinery.FieldError> errs = new java.util.ArrayList<>();
            SchemaRules.Context ctx = new SchemaRules.Context(null, false, false, false, true, null);
            new SchemaRules(SchemaRules.RuleCompiler.NONE).validate(shallow(s), "", ctx, false).forEach(errs::add);
            return errs.stream().anyMatch(e -> e.detail() != null && (e.detail().contains("x-kubernetes-list-map-keys, so")
                    || e.detail().startsWith("cannot be nullable when x-kubernetes-list-type")));
        });
    }

    /** The node with its items (which the map/set rules read) but without deeper properties. */
    private static JsonNode shallow(JsonNode s) {
        com.fasterxml.jackson.databind.node.ObjectNode copy = ((com.fasterxml.jackson.databind.node.ObjectNode) s).deepCopy();
        copy.remove("properties");
        copy.remove("additionalProperties");
        return copy;
    }
}
