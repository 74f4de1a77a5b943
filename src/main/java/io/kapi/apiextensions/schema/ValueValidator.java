package io.kapi.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * Validates a custom resource (or a default value) against its OpenAPI v3 schema as kube-apiserver's
 * schema validator (kube-openapi's {@code SchemaValidator}, go-swagger's rules) does, and words the
 * failures as {@code ValidateCustomResource} does: {@code spec.replicas: Invalid value: "string":
 * spec.replicas in body must be of type integer: "string"}, {@code spec.color: Unsupported value:
 * "pink": supported values: "red", "blue"}, {@code spec.size: Required value}, ...
 *
 * <p>Per schema node, in the validator's order: type, {@code allOf}/{@code anyOf}/{@code oneOf}/{@code not},
 * string bounds and pattern, format, number bounds, items, enum, object properties. Properties are
 * visited in name order so that messages come out in a stable order.
 */
public final class ValueValidator {

    private ValueValidator() {
    }

    /**
     * The field errors of {@code data} against {@code schema}.
     *
     * @param prefix the field path the errors are below ("" for an object's root)
     */
    public static List<FieldError> validate(String prefix, JsonNode data, StructuralSchema schema) {
        List<Violation> found = new ArrayList<>();
        check(data, schema, "", found);
        List<FieldError> errors = new ArrayList<>();
        found.forEach(v -> errors.add(v.toFieldError(prefix)));
        return errors;
    }

    /** The failures of {@code data} at {@code path}, appended to {@code out}. */
    static void check(JsonNode data, StructuralSchema s, String path, List<Violation> out) {
        List<String> types = types(s);
        if (data == null || data.isNull()) {
            if (!types.isEmpty() && !s.nullable()) {
                out.add(typeFailure(path, String.join(",", types), "null"));
            }
            return;
        }
        String kind = kind(data);
        checkType(data, s, types, kind, path, out);
        junctors(data, s, path, out);
        if (data.isTextual()) {
            strings(data.asText(), s, path, out);
            if (!s.format().isEmpty() && (types.isEmpty() || types.contains("string")) && !Formats.valid(s.format(), data.asText())) {
                out.add(new Violation(Violation.Code.TYPE, path, data, typeMessage(path, s.format(), data.asText()), null));
            }
        }
        if (data.isNumber()) {
            numbers(data, s, path, out);
        }
        if (data.isArray()) {
            arrays(data, s, path, out);
        }
        enumeration(data, s, path, out);
        if (data.isObject()) {
            objects(data, s, path, out);
        }
    }

    private static List<String> types(StructuralSchema s) {
        if (s.intOrString()) {
            return List.of("integer", "string");
        }
        return s.type().isEmpty() ? List.of() : List.of(s.type());
    }

    /** The JSON type of a decoded value, as the validator infers it (integers decode as int64). */
    static String kind(JsonNode v) {
        if (v.isTextual()) {
            return "string";
        }
        if (v.isBoolean()) {
            return "boolean";
        }
        if (v.isIntegralNumber()) {
            return "integer";
        }
        if (v.isNumber()) {
            return "number";
        }
        return v.isArray() ? "array" : "object";
    }

    private static void checkType(JsonNode data, StructuralSchema s, List<String> types, String kind, String path,
                                  List<Violation> out) {
        if (types.isEmpty()) {
            return;
        }
        boolean numericType = types.contains("number") || types.contains("integer");
        if (!numericType && !s.format().isEmpty() && (data.isTextual() || data.isArray())) {
            return;
        }
        boolean floatInt = kind.equals("number") && integral(data.decimalValue()) && types.contains("integer");
        boolean intFloat = kind.equals("integer") && types.contains("number");
        if (!(types.contains(kind) || floatInt || intFloat)) {
            out.add(typeFailure(path, String.join(",", types), kind));
        }
    }

    private static boolean integral(BigDecimal d) {
        return d.signum() == 0 || d.stripTrailingZeros().scale() <= 0;
    }

    private static Violation typeFailure(String path, String expected, String found) {
        return new Violation(Violation.Code.TYPE, path, TextNode.valueOf(found), typeMessage(path, expected, found), null);
    }

    private static String typeMessage(String path, String expected, String found) {
        return path + " in body must be of type " + expected + ": " + GoStrings.quote(found);
    }

    private static void junctors(JsonNode data, StructuralSchema s, String path, List<Violation> out) {
        if (!s.anyOf().isEmpty()) {
            List<Violation> best = null;
            boolean ok = false;
            for (StructuralSchema alt : s.anyOf()) {
                List<Violation> r = new ArrayList<>();
                check(data, alt, path, r);
                if (r.isEmpty()) {
                    ok = true;
                    best = null;
                    break;
                }
                if (best == null || r.size() < best.size()) {
                    best = r;
                }
            }
            if (!ok) {
                out.add(composite(path, GoStrings.quote(path) + " must validate at least one schema (anyOf)"));
                out.addAll(best);
            }
        }
        if (!s.oneOf().isEmpty()) {
            oneOf(data, s, path, out);
        }
        if (!s.allOf().isEmpty()) {
            int valid = 0;
            for (StructuralSchema all : s.allOf()) {
                List<Violation> r = new ArrayList<>();
                check(data, all, path, r);
                valid += r.isEmpty() ? 1 : 0;
                out.addAll(r);
            }
            if (valid != s.allOf().size()) {
                out.add(composite(path, GoStrings.quote(path) + " must validate all the schemas (allOf)"
                        + (valid == 0 ? ". None validated" : "")));
            }
        }
        if (s.not() != null) {
            List<Violation> r = new ArrayList<>();
            check(data, s.not(), path, r);
            if (r.isEmpty()) {
                out.add(composite(path, GoStrings.quote(path) + " must not validate the schema (not)"));
            }
        }
    }

    private static void oneOf(JsonNode data, StructuralSchema s, String path, List<Violation> out) {
        int valid = 0;
        List<Violation> best = null;
        for (StructuralSchema alt : s.oneOf()) {
            List<Violation> r = new ArrayList<>();
            check(data, alt, path, r);
            if (r.isEmpty()) {
                valid++;
                best = null;
            } else if (valid == 0 && (best == null || r.size() < best.size())) {
                best = r;
            }
        }
        if (valid != 1) {
            out.add(composite(path, GoStrings.quote(path) + " must validate one and only one schema (oneOf). "
                    + (valid == 0 ? "Found none valid" : "Found " + valid + " valid alternatives")));
            if (best != null) {
                out.addAll(best);
            }
        }
    }

    private static Violation composite(String path, String message) {
        return new Violation(Violation.Code.COMPOSITE, path, null, message, null);
    }

    private static void strings(String value, StructuralSchema s, String path, List<Violation> out) {
        long length = value.codePointCount(0, value.length());
        JsonNode node = TextNode.valueOf(value);
        if (s.maxLength() != null && length > s.maxLength()) {
            out.add(new Violation(Violation.Code.TOO_LONG, path, node,
                    path + " in body should be at most " + s.maxLength() + " chars long", s.maxLength()));
        }
        if (s.minLength() != null && length < s.minLength()) {
            out.add(other(path, node, path + " in body should be at least " + s.minLength() + " chars long"));
        }
        if (s.compiledPattern() != null && !s.compiledPattern().matcher(value).find()) {
            out.add(other(path, node, path + " in body should match '" + s.pattern() + "'"));
        }
    }

    private static void numbers(JsonNode data, StructuralSchema s, String path, List<Violation> out) {
        BigDecimal v = data.decimalValue();
        if (s.multipleOf() != null && s.multipleOf().signum() > 0
                && v.remainder(s.multipleOf()).signum() != 0) {
            out.add(other(path, data, path + " in body should be a multiple of " + GoValues.number(s.multipleOf())));
        }
        if (s.maximum() != null) {
            int c = v.compareTo(s.maximum());
            if (c > 0 || (c == 0 && s.exclusiveMaximum())) {
                out.add(other(path, data, path + " in body should be less than " + (s.exclusiveMaximum() ? "" : "or equal to ")
                        + GoValues.number(s.maximum())));
            }
        }
        if (s.minimum() != null) {
            int c = v.compareTo(s.minimum());
            if (c < 0 || (c == 0 && s.exclusiveMinimum())) {
                out.add(other(path, data, path + " in body should be greater than "
                        + (s.exclusiveMinimum() ? "" : "or equal to ") + GoValues.number(s.minimum())));
            }
        }
    }

    private static void arrays(JsonNode data, StructuralSchema s, String path, List<Violation> out) {
        if (s.items() != null) {
            for (int i = 0; i < data.size(); i++) {
                check(data.get(i), s.items(), path + "[" + i + "]", out);
            }
        }
        JsonNode size = io.kapi.machinery.Json.NODES.numberNode(data.size());
        if (s.minItems() != null && data.size() < s.minItems()) {
            out.add(other(path, size, path + " in body should have at least " + s.minItems() + " items"));
        }
        if (s.maxItems() != null && data.size() > s.maxItems()) {
            out.add(new Violation(Violation.Code.MAX_ITEMS, path, size,
                    path + " in body should have at most " + s.maxItems() + " items", s.maxItems()));
        }
        if (s.uniqueItems()) {
            Set<JsonNode> seen = new HashSet<>();
            for (JsonNode item : data) {
                if (!seen.add(item)) {
                    out.add(new Violation(Violation.Code.OTHER, path, null, path + " in body shouldn't contain duplicates",
                            null));
                    break;
                }
            }
        }
    }

    private static void enumeration(JsonNode data, StructuralSchema s, String path, List<Violation> out) {
        if (s.enumValues().isEmpty()) {
            return;
        }
        for (JsonNode allowed : s.enumValues()) {
            if (sameValue(allowed, data)) {
                return;
            }
        }
        List<String> shown = new ArrayList<>();
        s.enumValues().forEach(e -> shown.add(GoValues.errorValue(e).replace("\"", "")));
        out.add(new Violation(Violation.Code.ENUM, path, data,
                path + " in body should be one of [" + String.join(" ", shown) + "]", s.enumValues()));
    }

    private static boolean sameValue(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return a.equals(b);
    }

    private static void objects(JsonNode data, StructuralSchema s, String path, List<Violation> out) {
        int keys = data.size();
        if (s.minProperties() != null && keys < s.minProperties()) {
            out.add(other(path, io.kapi.machinery.Json.NODES.numberNode(keys),
                    path + " in body should have at least " + s.minProperties() + " properties"));
        }
        if (s.maxProperties() != null && keys > s.maxProperties()) {
            out.add(new Violation(Violation.Code.MAX_PROPERTIES, path, io.kapi.machinery.Json.NODES.numberNode(keys),
                    path + " in body should have at most " + s.maxProperties() + " properties", s.maxProperties()));
        }
        TreeMap<String, JsonNode> fields = new TreeMap<>();
        data.properties().forEach(e -> fields.put(e.getKey(), e.getValue()));
        for (var e : fields.entrySet()) {
            if (s.properties().containsKey(e.getKey())) {
                continue;
            }
            if (s.additionalPropertiesFalse()) {
                out.add(other(path, TextNode.valueOf(e.getKey()), path + "." + e.getKey() + " in body is a forbidden property"));
            } else if (s.additionalProperties() != null) {
                check(e.getValue(), s.additionalProperties(), path + "." + e.getKey(), out);
            }
        }
        for (var e : new TreeMap<>(s.properties()).entrySet()) {
            JsonNode v = data.get(e.getKey());
            if (v != null) {
                check(v, e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), out);
            }
        }
        for (String required : s.required()) {
            if (!data.has(required)) {
                out.add(new Violation(Violation.Code.REQUIRED, path + "." + required, null,
                        path + "." + required + " in body is required", null));
            }
        }
    }

    private static Violation other(String path, JsonNode value, String message) {
        return new Violation(Violation.Code.OTHER, path, value, message, null);
    }
}
