package io.kapi.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.regex.GoRegexp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether a schema is structural, with kube-apiserver's findings ({@code schema.ValidateStructural}):
 * every node specifies its type (outside {@code x-kubernetes-int-or-string} and
 * {@code x-kubernetes-preserve-unknown-fields}); the junctors {@code allOf}, {@code anyOf},
 * {@code oneOf}, {@code not} only restrict values (no type, default, description, nullable or
 * Kubernetes extensions there, no {@code metadata}) and name no field the schema does not specify
 * outside them; the root is an object without {@code additionalProperties}, whose {@code metadata}
 * may only restrict {@code name} and {@code generateName}; embedded resources are objects. Findings
 * are sorted by message, as kube sorts them.
 */
public final class StructuralCheck {

    private enum Level { ROOT, ITEM, FIELD }

    private StructuralCheck() {
    }

    /** The reasons {@code schema} (at {@code path}, e.g. {@code spec.validation.openAPIV3Schema}) is not structural. */
    public static List<FieldError> check(String path, StructuralSchema schema) {
        List<FieldError> errors = new ArrayList<>();
        invariants(schema, Level.ROOT, path, errors);
        completeness(schema, path, errors);
        errors.sort(Comparator.comparing(FieldError::toString));
        return errors;
    }

    private static void invariants(StructuralSchema s, Level lvl, String path, List<FieldError> errors) {
        if (s.type().equals("array") && s.items() == null) {
            errors.add(FieldError.required(path + ".items", "must be specified"));
        }
        if (s.items() != null) {
            invariants(s.items(), Level.ITEM, path + ".items", errors);
        }
        for (Map.Entry<String, StructuralSchema> e : s.properties().entrySet()) {
            invariants(e.getValue(), Level.FIELD, path + ".properties[" + e.getKey() + "]", errors);
        }
        if (s.hasAdditionalProperties()) {
            if (lvl == Level.ROOT) {
                errors.add(FieldError.forbidden(path + ".additionalProperties", "must not be used at the root"));
            }
            if (s.raw().get("additionalProperties") instanceof ObjectNode && s.additionalProperties() != null) {
                invariants(s.additionalProperties(), Level.FIELD, path + ".additionalProperties", errors);
            }
        }
        extensions(s, path, errors);
        valueValidation(s, isIntOrStringAnyOf(s.anyOf()), isIntOrStringAllOf(s), lvl, path, errors);
        typeRules(s, lvl, path, errors);
        boolean checkMetadata = lvl == Level.ROOT || s.embeddedResource();
        for (String field : List.of("kind", "apiVersion")) {
            StructuralSchema f = s.property(field);
            if (f != null && checkMetadata && !f.type().equals("string")) {
                errors.add(FieldError.invalid(path + ".properties[" + field + "].type", GoStrings.quote(f.type()),
                        "must be string"));
            }
        }
        StructuralSchema metadata = s.property("metadata");
        if (metadata != null) {
            metadata(metadata, checkMetadata, lvl, path + ".properties[metadata]", errors);
        }
        if (s.embeddedResource() && !s.preserveUnknownFields() && s.properties().isEmpty()) {
            errors.add(FieldError.required(path + ".properties",
                    "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"));
        }
    }

    private static void extensions(StructuralSchema s, String path, List<FieldError> errors) {
        if (s.intOrString() && s.preserveUnknownFields()) {
            errors.add(FieldError.invalid(path + ".x-kubernetes-preserve-unknown-fields", "true",
                    "must be false if x-kubernetes-int-or-string is true"));
        }
        if (s.intOrString() && s.embeddedResource()) {
            errors.add(FieldError.invalid(path + ".x-kubernetes-embedded-resource", "true",
                    "must be false if x-kubernetes-int-or-string is true"));
        }
    }

    private static void typeRules(StructuralSchema s, Level lvl, String path, List<FieldError> errors) {
        if (s.embeddedResource() && !s.type().equals("object")) {
            errors.add(s.type().isEmpty()
                    ? FieldError.required(path + ".type", "must be object if x-kubernetes-embedded-resource is true")
                    : FieldError.invalid(path + ".type", GoStrings.quote(s.type()),
                            "must be object if x-kubernetes-embedded-resource is true"));
        } else if (s.type().isEmpty() && !s.intOrString() && !s.preserveUnknownFields()) {
            errors.add(FieldError.required(path + ".type", switch (lvl) {
                case ROOT -> "must not be empty at the root";
                case ITEM -> "must not be empty for specified array items";
                case FIELD -> "must not be empty for specified object fields";
            }));
        }
        if (s.embeddedResource() && s.hasAdditionalProperties()) {
            errors.add(FieldError.forbidden(path + ".additionalProperties",
                    "must not be used if x-kubernetes-embedded-resource is set"));
        }
        if (lvl == Level.ROOT && !s.type().isEmpty() && !s.type().equals("object")) {
            errors.add(FieldError.invalid(path + ".type", GoStrings.quote(s.type()), "must be object at the root"));
        }
    }

    /** The root's metadata schema may restrict name and generateName, nothing else. */
    private static void metadata(StructuralSchema m, boolean checkMetadata, Level lvl, String path,
                                 List<FieldError> errors) {
        if (checkMetadata && !m.type().equals("object")) {
            errors.add(FieldError.invalid(path + ".type", GoStrings.quote(m.type()), "must be object"));
        }
        if (lvl != Level.ROOT) {
            return;
        }
        Set<String> rest = new HashSet<>();
        m.raw().fieldNames().forEachRemaining(rest::add);
        rest.remove("type");
        rest.remove("default");
        Set<String> props = m.properties().keySet();
        if (!props.isEmpty() && Set.of("name", "generateName").containsAll(props)) {
            rest.remove("properties");
        }
        rest.removeIf(k -> isZero(m.raw().get(k)));
        if (!rest.isEmpty()) {
            errors.add(FieldError.forbidden(path,
                    "must not specify anything other than name and generateName, but metadata is implicitly specified"));
        }
    }

    private static boolean isZero(JsonNode v) {
        return v.isNull() || (v.isBoolean() && !v.asBoolean()) || (v.isTextual() && v.asText().isEmpty())
                || (v.isContainerNode() && v.isEmpty() && !v.isObject());
    }

    private static boolean isIntOrStringAnyOf(List<StructuralSchema> anyOf) {
        return anyOf.size() == 2 && onlyType(anyOf.get(0), "integer") && onlyType(anyOf.get(1), "string");
    }

    private static boolean onlyType(StructuralSchema s, String type) {
        return s.raw().size() == 1 && s.type().equals(type);
    }

    private static boolean isIntOrStringAllOf(StructuralSchema s) {
        return !s.allOf().isEmpty() && isIntOrStringAnyOf(s.allOf().getFirst().anyOf());
    }

    private static void valueValidation(StructuralSchema v, boolean skipAnyOf, boolean skipFirstAllOfAnyOf, Level lvl,
                                        String path, List<FieldError> errors) {
        if (!skipAnyOf) {
            for (int i = 0; i < v.anyOf().size(); i++) {
                nested(v.anyOf().get(i), false, lvl, path + ".anyOf[" + i + "]", errors);
            }
        }
        for (int i = 0; i < v.allOf().size(); i++) {
            nested(v.allOf().get(i), skipFirstAllOfAnyOf && i == 0, lvl, path + ".allOf[" + i + "]", errors);
        }
        for (int i = 0; i < v.oneOf().size(); i++) {
            nested(v.oneOf().get(i), false, lvl, path + ".oneOf[" + i + "]", errors);
        }
        if (v.not() != null) {
            nested(v.not(), false, lvl, path + ".not", errors);
        }
        if (!v.pattern().isEmpty()) {
            GoRegexp.error(v.pattern()).ifPresent(err -> errors.add(FieldError.invalid(path + ".pattern",
                    GoStrings.quote(v.pattern()), "must be a valid regular expression, but isn't: " + err)));
        }
    }

    private static final List<String[]> FORBIDDEN_NESTED = List.of(
            new String[] {"type", "must be empty to be structural"},
            new String[] {"additionalProperties", "must be undefined to be structural"},
            new String[] {"default", "must be undefined to be structural"},
            new String[] {"title", "must be empty to be structural"},
            new String[] {"description", "must be empty to be structural"},
            new String[] {"nullable", "must be false to be structural"},
            new String[] {"externalDocs", "must be undefined to be structural"},
            new String[] {"x-kubernetes-preserve-unknown-fields", "must be false to be structural"},
            new String[] {"x-kubernetes-embedded-resource", "must be false to be structural"},
            new String[] {"x-kubernetes-int-or-string", "must be false to be structural"},
            new String[] {"x-kubernetes-list-map-keys", "must be empty to be structural"},
            new String[] {"x-kubernetes-list-type", "must be undefined to be structural"},
            new String[] {"x-kubernetes-map-type", "must be undefined to be structural"},
            new String[] {"x-kubernetes-validations", "must be empty to be structural"});

    /** A junctor's schema: value validations only. */
    private static void nested(StructuralSchema v, boolean skipAnyOf, Level lvl, String path, List<FieldError> errors) {
        valueValidation(v, skipAnyOf, false, lvl, path, errors);
        if (v.items() != null) {
            nested(v.items(), false, lvl, path + ".items", errors);
        }
        for (Map.Entry<String, StructuralSchema> e : v.properties().entrySet()) {
            nested(e.getValue(), false, Level.FIELD, path + ".properties[" + e.getKey() + "]", errors);
        }
        for (String[] rule : FORBIDDEN_NESTED) {
            JsonNode value = v.raw().get(rule[0]);
            if (value != null && !isZero(value)) {
                errors.add(FieldError.forbidden(path + "." + rule[0], rule[1]));
            }
        }
        if (v.properties().containsKey("metadata")) {
            errors.add(FieldError.forbidden(path + ".properties[metadata]", "must not be specified in a nested context"));
        }
    }

    /**
     * Every field or array the root's junctors name is specified outside the junctors too (kube checks
     * the root's value validation only).
     */
    private static void completeness(StructuralSchema s, String path, List<FieldError> errors) {
        junctorOnly(s, s, path, path, errors);
    }

    private static void nestedCompleteness(StructuralSchema v, StructuralSchema s, String sPath, String vPath,
                                           List<FieldError> errors) {
        if (s == null) {
            errors.add(FieldError.required(sPath, "because it is defined in " + vPath));
            return;
        }
        junctorOnly(v, s, sPath, vPath, errors);
        if (v.items() != null) {
            nestedCompleteness(v.items(), s.items(), sPath + ".items", vPath + ".items", errors);
        }
        for (Map.Entry<String, StructuralSchema> e : v.properties().entrySet()) {
            StructuralSchema sFld = s.property(e.getKey());
            if (sFld == null) {
                errors.add(FieldError.required(sPath + ".properties[" + e.getKey() + "]",
                        "because it is defined in " + vPath + ".properties[" + e.getKey() + "]"));
            } else {
                nestedCompleteness(e.getValue(), sFld, sPath + ".properties[" + e.getKey() + "]",
                        vPath + ".properties[" + e.getKey() + "]", errors);
            }
        }
    }

    /** The junctors inside a junctor, checked against the same structural node. */
    private static void junctorOnly(StructuralSchema v, StructuralSchema s, String sPath, String vPath,
                                    List<FieldError> errors) {
        if (v.not() != null) {
            nestedCompleteness(v.not(), s, sPath, vPath + ".not", errors);
        }
        for (int i = 0; i < v.allOf().size(); i++) {
            nestedCompleteness(v.allOf().get(i), s, sPath, vPath + ".allOf[" + i + "]", errors);
        }
        for (int i = 0; i < v.anyOf().size(); i++) {
            nestedCompleteness(v.anyOf().get(i), s, sPath, vPath + ".anyOf[" + i + "]", errors);
        }
        for (int i = 0; i < v.oneOf().size(); i++) {
            nestedCompleteness(v.oneOf().get(i), s, sPath, vPath + ".oneOf[" + i + "]", errors);
        }
    }
}
