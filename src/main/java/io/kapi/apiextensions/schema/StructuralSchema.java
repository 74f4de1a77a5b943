package io.kapi.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.re2j.Pattern;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.regex.GoRegexp;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One node of a CRD's {@code openAPIV3Schema} (an {@code apiextensions.k8s.io/v1 JSONSchemaProps}),
 * read once into typed fields: what kube-apiserver's structural schema ({@code Generic},
 * {@code Extensions}) and its value validations ({@code ValueValidation}) hold, with the junctors
 * ({@code allOf}, {@code anyOf}, {@code oneOf}, {@code not}) as nested nodes. Immutable and
 * thread-safe; the raw JSON is kept for what only the OpenAPI documents need.
 *
 * <p>Building never fails: what kube's {@code NewStructural} refuses ({@code $ref}, {@code id},
 * {@code items} as an array, ...) is reported by {@link StructuralCheck}; such parts are ignored here.
 */
public final class StructuralSchema {

    private final ObjectNode raw;
    private final String type;
    private final String format;
    private final boolean nullable;
    private final JsonNode defaultValue;
    private final Map<String, StructuralSchema> properties;
    private final StructuralSchema items;
    private final StructuralSchema additionalProperties;
    private final boolean additionalPropertiesFalse;
    private final boolean preserveUnknownFields;
    private final boolean embeddedResource;
    private final boolean intOrString;
    private final String listType;
    private final List<String> listMapKeys;
    private final String mapType;
    private final List<JsonNode> enumValues;
    private final BigDecimal maximum;
    private final boolean exclusiveMaximum;
    private final BigDecimal minimum;
    private final boolean exclusiveMinimum;
    private final BigDecimal multipleOf;
    private final Long maxLength;
    private final Long minLength;
    private final String pattern;
    private final Pattern compiledPattern;
    private volatile Boolean deep;
    private final Long maxItems;
    private final Long minItems;
    private final boolean uniqueItems;
    private final Long maxProperties;
    private final Long minProperties;
    private final List<String> required;
    private final List<StructuralSchema> allOf;
    private final List<StructuralSchema> anyOf;
    private final List<StructuralSchema> oneOf;
    private final StructuralSchema not;

    private StructuralSchema(ObjectNode given) {
        ObjectNode raw = given == null ? Json.object() : given;
        this.raw = raw;
        this.type = text(raw, "type");
        this.format = text(raw, "format");
        this.nullable = raw.path("nullable").asBoolean(false);
        this.defaultValue = raw.has("default") ? raw.get("default") : null;
        Map<String, StructuralSchema> props = new LinkedHashMap<>();
        raw.path("properties").properties().forEach(e -> {
            if (e.getValue() instanceof ObjectNode o) {
                props.put(e.getKey(), new StructuralSchema(o));
            }
        });
        this.properties = Collections.unmodifiableMap(props);
        this.items = raw.get("items") instanceof ObjectNode o ? new StructuralSchema(o) : null;
        JsonNode additional = raw.get("additionalProperties");
        this.additionalProperties = additional instanceof ObjectNode o ? new StructuralSchema(o)
                : additional != null && additional.asBoolean(false) ? new StructuralSchema(null) : null;
        this.additionalPropertiesFalse = additional != null && additional.isBoolean() && !additional.asBoolean();
        this.preserveUnknownFields = raw.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        this.embeddedResource = raw.path("x-kubernetes-embedded-resource").asBoolean(false);
        this.intOrString = raw.path("x-kubernetes-int-or-string").asBoolean(false);
        this.listType = text(raw, "x-kubernetes-list-type");
        this.listMapKeys = strings(raw.path("x-kubernetes-list-map-keys"));
        this.mapType = text(raw, "x-kubernetes-map-type");
        List<JsonNode> enums = new ArrayList<>();
        raw.path("enum").forEach(enums::add);
        this.enumValues = List.copyOf(enums);
        this.maximum = decimal(raw, "maximum");
        this.exclusiveMaximum = raw.path("exclusiveMaximum").asBoolean(false);
        this.minimum = decimal(raw, "minimum");
        this.exclusiveMinimum = raw.path("exclusiveMinimum").asBoolean(false);
        this.multipleOf = decimal(raw, "multipleOf");
        this.maxLength = integer(raw, "maxLength");
        this.minLength = integer(raw, "minLength");
        this.pattern = text(raw, "pattern");
        this.compiledPattern = compile(pattern);
        this.maxItems = integer(raw, "maxItems");
        this.minItems = integer(raw, "minItems");
        this.uniqueItems = raw.path("uniqueItems").asBoolean(false);
        this.maxProperties = integer(raw, "maxProperties");
        this.minProperties = integer(raw, "minProperties");
        this.required = strings(raw.path("required"));
        this.allOf = nested(raw.path("allOf"));
        this.anyOf = nested(raw.path("anyOf"));
        this.oneOf = nested(raw.path("oneOf"));
        this.not = raw.get("not") instanceof ObjectNode o ? new StructuralSchema(o) : null;
    }

    /** The schema of a JSONSchemaProps object; an absent schema ({@code null}) is the empty one. */
    public static StructuralSchema of(JsonNode jsonSchemaProps) {
        return new StructuralSchema(jsonSchemaProps instanceof ObjectNode o ? o : null);
    }

    /** The JSONSchemaProps this was read from (an empty object for "anything"). */
    public ObjectNode raw() {
        return raw;
    }

    private static String text(ObjectNode raw, String field) {
        JsonNode v = raw == null ? null : raw.get(field);
        return v != null && v.isTextual() ? v.asText() : "";
    }

    private static BigDecimal decimal(ObjectNode raw, String field) {
        JsonNode v = raw == null ? null : raw.get(field);
        return v != null && v.isNumber() ? v.decimalValue() : null;
    }

    private static Long integer(ObjectNode raw, String field) {
        JsonNode v = raw == null ? null : raw.get(field);
        return v != null && v.isNumber() ? v.longValue() : null;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return List.copyOf(out);
    }

    private static List<StructuralSchema> nested(JsonNode array) {
        List<StructuralSchema> out = new ArrayList<>();
        array.forEach(n -> {
            if (n instanceof ObjectNode o) {
                out.add(new StructuralSchema(o));
            }
        });
        return List.copyOf(out);
    }

    /** The schema's {@code pattern} as Go compiles it; null when there is none or it does not compile. */
    private static Pattern compile(String pattern) {
        if (pattern.isEmpty()) {
            return null;
        }
        try {
            return GoRegexp.compile(pattern);
        } catch (GoRegexp.SyntaxError e) {
            return null;
        }
    }

    public String type() {
        return type;
    }

    public String format() {
        return format;
    }

    public boolean nullable() {
        return nullable;
    }

    /** The default value, or null when there is none (a JSON {@code null} default is a NullNode). */
    public JsonNode defaultValue() {
        return defaultValue;
    }

    /**
     * Whether this schema nests deeper than {@link io.kapi.machinery.DeepStack#SHALLOW_DEPTH} levels of
     * properties, items and additional properties: the walks it guides (defaulting, pruning, validation)
     * recurse once per level, so values it shapes are then worked on a deep stack. Measured once, without
     * recursion.
     */
    public boolean isDeep() {
        Boolean deep = this.deep;
        if (deep == null) {
            deep = false;
            java.util.ArrayDeque<Object[]> open = new java.util.ArrayDeque<>();
            open.push(new Object[] {this, 1});
            while (!open.isEmpty() && !deep) {
                Object[] at = open.pop();
                StructuralSchema s = (StructuralSchema) at[0];
                int level = (int) at[1];
                if (level > io.kapi.machinery.DeepStack.SHALLOW_DEPTH) {
                    deep = true;
                    break;
                }
                s.properties().values().forEach(p -> open.push(new Object[] {p, level + 1}));
                if (s.items() != null) {
                    open.push(new Object[] {s.items(), level + 1});
                }
                if (s.additionalProperties() != null) {
                    open.push(new Object[] {s.additionalProperties(), level + 1});
                }
            }
            this.deep = deep;
        }
        return deep;
    }

    public Map<String, StructuralSchema> properties() {
        return properties;
    }

    public StructuralSchema property(String name) {
        return properties.get(name);
    }

    /** The items schema, or null. */
    public StructuralSchema items() {
        return items;
    }

    /**
     * The schema of additional properties: their schema, the empty schema for
     * {@code additionalProperties: true}, null when not set or false.
     */
    public StructuralSchema additionalProperties() {
        return additionalProperties;
    }

    public boolean additionalPropertiesFalse() {
        return additionalPropertiesFalse;
    }

    public boolean hasAdditionalProperties() {
        return raw.has("additionalProperties");
    }

    public boolean preserveUnknownFields() {
        return preserveUnknownFields;
    }

    public boolean embeddedResource() {
        return embeddedResource;
    }

    public boolean intOrString() {
        return intOrString;
    }

    /** {@code atomic}, {@code set}, {@code map}, or "" when not set. */
    public String listType() {
        return listType;
    }

    public List<String> listMapKeys() {
        return listMapKeys;
    }

    /** {@code atomic}, {@code granular}, or "" when not set. */
    public String mapType() {
        return mapType;
    }

    public List<JsonNode> enumValues() {
        return enumValues;
    }

    public BigDecimal maximum() {
        return maximum;
    }

    public boolean exclusiveMaximum() {
        return exclusiveMaximum;
    }

    public BigDecimal minimum() {
        return minimum;
    }

    public boolean exclusiveMinimum() {
        return exclusiveMinimum;
    }

    public BigDecimal multipleOf() {
        return multipleOf;
    }

    public Long maxLength() {
        return maxLength;
    }

    public Long minLength() {
        return minLength;
    }

    public String pattern() {
        return pattern;
    }

    /** The pattern compiled (Go syntax read as Java's), or null when absent or not valid. */
    public Pattern compiledPattern() {
        return compiledPattern;
    }

    public Long maxItems() {
        return maxItems;
    }

    public Long minItems() {
        return minItems;
    }

    public boolean uniqueItems() {
        return uniqueItems;
    }

    public Long maxProperties() {
        return maxProperties;
    }

    public Long minProperties() {
        return minProperties;
    }

    public List<String> required() {
        return required;
    }

    public List<StructuralSchema> allOf() {
        return allOf;
    }

    public List<StructuralSchema> anyOf() {
        return anyOf;
    }

    public List<StructuralSchema> oneOf() {
        return oneOf;
    }

    public StructuralSchema not() {
        return not;
    }

    /** The {@code x-kubernetes-validations} rules, as written. */
    public ArrayNode validations() {
        return raw.get("x-kubernetes-validations") instanceof ArrayNode a ? a : EMPTY_ARRAY;
    }

    private static final ArrayNode EMPTY_ARRAY = Json.MAPPER.createArrayNode();

    /** Whether a field of the raw schema is set at all (for the checks of what must be unset). */
    public boolean has(String field) {
        return raw.has(field);
    }

    public String description() {
        return text(raw, "description");
    }

    public String title() {
        return text(raw, "title");
    }
}
