package io.kapi.machinery.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.schema.Schemas;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Turns Swagger 2.0 definitions into {@link Shape}s, once per definition. Not thread-safe: callers
 * synchronise (compilation happens once per kind, then shapes are read-only).
 */
final class ShapeCompiler {

    private static final String QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
    private static final String INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
    private static final String TIME = "io.k8s.apimachinery.pkg.apis.meta.v1.Time";
    private static final String MICRO_TIME = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime";
    private static final String REF_PREFIX = "#/definitions/";

    private final Schemas schemas;
    private final Map<String, Shape> byDefinition = new HashMap<>();

    ShapeCompiler(Schemas schemas) {
        this.schemas = schemas;
    }

    /** The shape of the named definition; unknown definitions are {@link Shape.Scalar#ANY}. */
    Shape definition(String name) {
        Shape known = byDefinition.get(name);
        if (known != null) {
            return known;
        }
        Shape special = switch (name) {
            case QUANTITY -> Shape.Scalar.QUANTITY;
            case INT_OR_STRING -> Shape.Scalar.INT_OR_STRING;
            case TIME, MICRO_TIME -> Shape.Scalar.TIME;
            default -> null;
        };
        if (special != null) {
            byDefinition.put(name, special);
            return special;
        }
        JsonNode def = schemas.definition(name);
        if (def == null) {
            byDefinition.put(name, Shape.Scalar.ANY);
            return Shape.Scalar.ANY;
        }
        if (!def.has("properties")) {
            Shape s = node(def);
            byDefinition.put(name, s);
            return s;
        }
        Shape.Struct struct = new Shape.Struct(name);
        byDefinition.put(name, struct);
        fill(struct, def);
        return struct;
    }

    /**
     * Fields the schema marks required that kube-apiserver's validation does not insist on (Go has no
     * way to tell an absent list from an empty one there): by definition, e.g. an EndpointSlice without
     * endpoints is valid.
     */
    private static final Map<String, Set<String>> NOT_ENFORCED = Map.of(
            "EndpointSlice", Set.of("endpoints"));

    private void fill(Shape.Struct struct, JsonNode def) {
        Map<String, Shape> fields = new LinkedHashMap<>();
        def.path("properties").properties().forEach(e -> fields.put(e.getKey(), node(e.getValue())));
        struct.fields = fields;
        java.util.List<String> required = new java.util.ArrayList<>();
        Set<String> unenforced = NOT_ENFORCED.getOrDefault(struct.goName, Set.of());
        for (JsonNode r : def.path("required")) {
            if (!unenforced.contains(r.asText())) {
                required.add(r.asText());
            }
        }
        struct.required = required.toArray(String[]::new);
        struct.preserveUnknown = def.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    }

    private Shape node(JsonNode schema) {
        String ref = schema.path("$ref").asText(null);
        if (ref != null) {
            return ref.startsWith(REF_PREFIX) ? definition(ref.substring(REF_PREFIX.length())) : Shape.Scalar.ANY;
        }
        String format = schema.path("format").asText("");
        if (format.equals("int-or-string") || schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            return Shape.Scalar.INT_OR_STRING;
        }
        return switch (schema.path("type").asText("")) {
            case "string" -> switch (format) {
                case "byte" -> Shape.Scalar.BYTES;
                case "date-time" -> Shape.Scalar.TIME;
                default -> Shape.Scalar.STRING;
            };
            case "integer" -> format.equals("int32") ? Shape.Scalar.INT32 : Shape.Scalar.INT64;
            case "number" -> Shape.Scalar.FLOAT64;
            case "boolean" -> Shape.Scalar.BOOL;
            case "array" -> new Shape.ListOf(schema.has("items") ? node(schema.get("items")) : Shape.Scalar.ANY);
            case "object" -> objectNode(schema);
            default -> Shape.Scalar.ANY;
        };
    }

    private Shape objectNode(JsonNode schema) {
        if (schema.has("properties")) {
            Shape.Struct inline = new Shape.Struct("inline.v1.Object");
            fill(inline, schema);
            return inline;
        }
        JsonNode additional = schema.get("additionalProperties");
        if (additional != null && additional.isObject()) {
            return new Shape.MapOf(node(additional));
        }
        return Shape.Scalar.ANY;
    }
}
