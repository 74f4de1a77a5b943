package io.kapi.machinery.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableSet;
import com.google.protobuf.ByteString;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import io.kapi.machinery.GoDuration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * An OpenAPI v3 (or Swagger 2.0) schema as a CEL type, as kube's {@code model.SchemaDeclType}: objects
 * with properties are struct types named by their path from the root ({@code Object.spec.template}) or
 * their definition, maps ({@code additionalProperties}) {@code map(string, T)}, arrays lists, strings
 * with format {@code date-time}, {@code duration} or {@code byte} timestamps, durations and bytes,
 * int-or-string and unknown fields {@code dyn}. {@link #value} turns JSON into values of that type.
 * Immutable; {@code $ref}s are followed lazily (recursive schemas are fine).
 */
public final class CelSchema {

    private final JsonNode schema;
    private final Function<String, JsonNode> refs;
    private final String name;
    private final Map<String, CelSchema> children = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile CelType type;

    private CelSchema(JsonNode schema, Function<String, JsonNode> refs, String name) {
        this.schema = schema;
        this.refs = refs;
        this.name = name;
    }

    /**
     * @param schema the root schema
     * @param refs the schema a {@code $ref} value ({@code #/definitions/X}, {@code #/components/schemas/X})
     *        names, or null
     * @param rootName the root's type name: kube uses {@code Object} for custom resources
     */
    public static CelSchema of(JsonNode schema, Function<String, JsonNode> refs, String rootName) {
        return new CelSchema(schema, refs == null ? ref -> null : refs, rootName);
    }

    /** The schema itself, its {@code $ref} (and a single {@code allOf} of one) resolved. */
    JsonNode node() {
        JsonNode s = schema;
        for (int depth = 0; depth < 32; depth++) {
            if (s.has("$ref")) {
                JsonNode target = refs.apply(s.get("$ref").asText());
                if (target == null) {
                    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
                }
                s = target;
            } else if (s.path("allOf").size() == 1 && !s.has("type") && !s.has("properties")) {
                s = s.get("allOf").get(0);
            } else {
                return s;
            }
        }
        return s;
    }

    /** The CEL type of values of this schema. */
    public CelType type() {
        CelType t = type;
        if (t == null) {
            t = computeType();
            type = t;
        }
        return t;
    }

    private CelType computeType() {
        JsonNode s = node();
        if (isDyn(s)) {
            return SimpleType.DYN;
        }
        return switch (s.path("type").asText(s.has("properties") ? "object" : "")) {
            case "object" -> objectType(s);
            case "array" -> ListType.create(items().map(CelSchema::type).orElse(SimpleType.DYN));
            case "string" -> switch (s.path("format").asText("")) {
                case "date-time" -> SimpleType.TIMESTAMP;
                case "duration" -> SimpleType.DURATION;
                case "byte" -> SimpleType.BYTES;
                default -> SimpleType.STRING;
            };
            case "integer" -> SimpleType.INT;
            case "number" -> SimpleType.DOUBLE;
            case "boolean" -> SimpleType.BOOL;
            default -> SimpleType.DYN;
        };
    }

    private static boolean isDyn(JsonNode s) {
        return s.isMissingNode() || s.path("x-kubernetes-int-or-string").asBoolean(false)
                || s.path("format").asText("").equals("int-or-string")
                || (s.path("x-kubernetes-preserve-unknown-fields").asBoolean(false) && !s.has("properties"));
    }

    private CelType objectType(JsonNode s) {
        if (!s.has("properties")) {
            JsonNode additional = s.get("additionalProperties");
            if (additional != null && additional.isObject()) {
                return MapType.create(SimpleType.STRING, items().map(CelSchema::type).orElse(SimpleType.DYN));
            }
            return MapType.create(SimpleType.STRING, SimpleType.DYN);
        }
        List<String> fields = new ArrayList<>();
        s.get("properties").fieldNames().forEachRemaining(fields::add);
        return StructType.create(name, ImmutableSet.copyOf(fields),
                field -> property(field).map(CelSchema::type));
    }

    /** The schema of a property of an object. */
    public Optional<CelSchema> property(String field) {
        JsonNode p = node().path("properties").get(field);
        if (p == null) {
            return Optional.empty();
        }
        return Optional.of(children.computeIfAbsent("." + field, k -> child(p, name + "." + field)));
    }

    /** The schema of the items of an array, or of the values of a map. */
    public Optional<CelSchema> items() {
        JsonNode s = node();
        JsonNode items = s.path("type").asText("").equals("array") ? s.get("items") : s.get("additionalProperties");
        if (items == null || !items.isObject()) {
            return Optional.empty();
        }
        return Optional.of(children.computeIfAbsent("[]", k -> child(items, name + ".@")));
    }

    private CelSchema child(JsonNode child, String path) {
        String ref = child.path("$ref").asText("");
        String childName = ref.isEmpty() ? path : ref.substring(ref.lastIndexOf('/') + 1);
        return new CelSchema(child, refs, childName);
    }

    /** {@code maxLength}, {@code maxItems} or {@code maxProperties}: the most this schema allows, or -1. */
    long maxSize() {
        JsonNode s = node();
        for (String bound : List.of("maxLength", "maxItems", "maxProperties")) {
            if (s.has(bound)) {
                return s.get(bound).asLong();
            }
        }
        return -1;
    }

    /** The CEL value of {@code json} read as this schema's type (null for a missing node). */
    public Object value(JsonNode json) {
        if (json == null || json.isMissingNode()) {
            return null;
        }
        CelType t = type();
        if (json.isNull() || t == SimpleType.DYN) {
            return CelValues.of(json);
        }
        if (t instanceof StructType) {
            Map<String, Object> map = new LinkedHashMap<>();
            json.properties().forEach(e -> map.put(e.getKey(),
                    property(e.getKey()).map(p -> p.value(e.getValue())).orElseGet(() -> CelValues.of(e.getValue()))));
            return map;
        }
        if (t instanceof MapType && json.isObject()) {
            Optional<CelSchema> values = items();
            Map<String, Object> map = new LinkedHashMap<>();
            json.properties().forEach(e -> map.put(e.getKey(),
                    values.map(v -> v.value(e.getValue())).orElseGet(() -> CelValues.of(e.getValue()))));
            return map;
        }
        if (t instanceof ListType && json.isArray()) {
            Optional<CelSchema> items = items();
            List<Object> list = new ArrayList<>(json.size());
            json.forEach(i -> list.add(items.map(s -> s.value(i)).orElseGet(() -> CelValues.of(i))));
            return list;
        }
        return scalar(t, json);
    }

    private static Object scalar(CelType t, JsonNode json) {
        try {
            if (t == SimpleType.TIMESTAMP && json.isTextual()) {
                return Instant.parse(json.textValue());
            }
            if (t == SimpleType.DURATION && json.isTextual()) {
                return GoDuration.parse(json.textValue());
            }
            if (t == SimpleType.BYTES && json.isTextual()) {
                return ByteString.copyFrom(Base64.getDecoder().decode(json.textValue()));
            }
            if (t == SimpleType.DOUBLE && json.isNumber()) {
                return json.doubleValue();
            }
        } catch (RuntimeException e) {
            return CelValues.of(json);
        }
        return CelValues.of(json);
    }
}
