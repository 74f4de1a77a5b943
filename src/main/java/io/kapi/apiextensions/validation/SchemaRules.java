package io.kapi.apiextensions.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.apiextensions.schema.FieldPaths;
import io.kapi.apiextensions.schema.StructuralSchema;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rules a CRD's OpenAPI v3 schema must follow node by node, as kube-apiserver's
 * {@code ValidateCustomResourceDefinitionOpenAPISchema} (with its v3 standard validator) states them:
 * the OpenAPI features Kubernetes does not support ({@code $ref}, {@code id}, {@code definitions},
 * {@code patternProperties}, {@code uniqueItems}, type {@code null}, item tuples ...), defaults where
 * they cannot apply (object meta), {@code properties} beside {@code additionalProperties}, the
 * {@code x-kubernetes-*} list and map types and keys, and the static parts of the validation rules.
 * Properties are visited in name order so that errors come out in a stable order.
 */
final class SchemaRules {

    static final List<String> TYPES = List.of("array", "boolean", "integer", "number", "object", "string");
    private static final Set<String> META_FIELDS = Set.of("metadata", "kind", "apiVersion");
    private static final List<String> RULE_REASONS = List.of("FieldValueDuplicate", "FieldValueForbidden",
            "FieldValueInvalid", "FieldValueRequired");

    /**
     * What the validator carries down the schema (kube's {@code specStandardValidatorV3} and options).
     *
     * @param forbidDefaults why defaults are not allowed here, or null when they are
     * @param uncorrelatable the path below which {@code oldSelf} cannot be used, or null
     */
    record Context(String forbidDefaults, boolean insideResourceMeta, boolean requireValidPropertyType,
                   boolean requireAtomicSetType, boolean requireMapListKeysMapSet, String uncorrelatable) {

        Context withForbiddenDefaults(String reason) {
            return new Context(reason, insideResourceMeta, requireValidPropertyType, requireAtomicSetType,
                    requireMapListKeysMapSet, uncorrelatable);
        }

        Context insideMeta() {
            return new Context(forbidDefaults, true, requireValidPropertyType, requireAtomicSetType,
                    requireMapListKeysMapSet, uncorrelatable);
        }

        Context forbidOldSelf(String path) {
            return uncorrelatable != null ? this : new Context(forbidDefaults, insideResourceMeta,
                    requireValidPropertyType, requireAtomicSetType, requireMapListKeysMapSet, path);
        }
    }

    /** Compiles the validation rules of one schema node (CEL); none when CEL is not available. */
    interface RuleCompiler {
        RuleCompiler NONE = (schema, path, ctx, errors) -> { };

        void compile(StructuralSchema schema, String path, Context ctx, List<FieldError> errors);
    }

    private final RuleCompiler rules;

    SchemaRules(RuleCompiler rules) {
        this.rules = rules;
    }

    /** The errors of {@code node} at {@code path} and below (schema errors first, then rule errors). */
    List<FieldError> validate(JsonNode node, String path, Context ctx, boolean isRoot) {
        List<FieldError> schemaErrors = new ArrayList<>();
        List<FieldError> ruleErrors = new ArrayList<>();
        walk(node, path, ctx, isRoot, schemaErrors, ruleErrors);
        schemaErrors.addAll(ruleErrors);
        return schemaErrors;
    }

    private void walk(JsonNode node, String path, Context ctx, boolean isRoot, List<FieldError> errors,
                      List<FieldError> ruleErrors) {
        if (node == null || !node.isObject()) {
            return;
        }
        int before = errors.size();
        standard(node, path, ctx, errors);
        if (node.path("uniqueItems").asBoolean(false)) {
            errors.add(FieldError.forbidden(path + ".uniqueItems",
                    "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));
        }
        children(node, path, ctx, isRoot, errors, ruleErrors);
        extensions(node, path, ctx, errors);
        validations(node, path, ctx, errors.size() == before && ruleErrorsAllowed(errors, before), errors, ruleErrors);
    }

    private static boolean ruleErrorsAllowed(List<FieldError> errors, int before) {
        return errors.size() == before;
    }

    /** kube's {@code specStandardValidatorV3.validate}: what one node may not say. */
    private static void standard(JsonNode s, String path, Context ctx, List<FieldError> errors) {
        String type = s.path("type").asText("");
        if (ctx.requireValidPropertyType() && !type.isEmpty() && !TYPES.contains(type)) {
            errors.add(new FieldError(FieldError.Type.NOT_SUPPORTED, path + ".type", GoStrings.quote(type),
                    supported(TYPES)));
        }
        if (s.has("default") && ctx.forbidDefaults() != null) {
            errors.add(FieldError.forbidden(path + ".default",
                    "must not be set" + (ctx.forbidDefaults().isEmpty() ? "" : " " + ctx.forbidDefaults())));
        }
        if (!s.path("id").asText("").isEmpty()) {
            errors.add(FieldError.forbidden(path + ".id", "id is not supported"));
        }
        forbidIfSet(s, "additionalItems", path, "additionalItems is not supported", errors);
        forbidIfNonEmpty(s, "patternProperties", path, "patternProperties is not supported", errors);
        forbidIfNonEmpty(s, "definitions", path, "definitions is not supported", errors);
        forbidIfSet(s, "dependencies", path, "dependencies is not supported", errors);
        forbidIfSet(s, "$ref", path, "$ref is not supported", errors);
        if (type.equals("null")) {
            errors.add(FieldError.forbidden(path + ".type", "type cannot be set to null, use nullable as an alternative"));
        }
        if (s.path("items").isArray() && !s.path("items").isEmpty()) {
            errors.add(FieldError.forbidden(path + ".items", "items must be a schema object and not an array"));
        }
        if (ctx.insideResourceMeta() && s.path("x-kubernetes-embedded-resource").asBoolean(false)) {
            errors.add(FieldError.forbidden(path + ".x-kubernetes-embedded-resource",
                    "must not be used inside of resource meta"));
        }
    }

    private static void forbidIfSet(JsonNode s, String field, String path, String detail, List<FieldError> errors) {
        if (s.has(field) && !s.get(field).isNull()) {
            errors.add(FieldError.forbidden(path + "." + field, detail));
        }
    }

    private static void forbidIfNonEmpty(JsonNode s, String field, String path, String detail, List<FieldError> errors) {
        if (s.path(field).isObject() && !s.path(field).isEmpty()) {
            errors.add(FieldError.forbidden(path + "." + field, detail));
        }
    }

    private void children(JsonNode s, String path, Context ctx, boolean isRoot, List<FieldError> errors,
                          List<FieldError> ruleErrors) {
        JsonNode additional = s.get("additionalProperties");
        JsonNode props = s.path("properties");
        if (additional != null && !additional.isNull()) {
            if (props.isObject() && !props.isEmpty() && (additional.isObject() || !additional.asBoolean(true))) {
                errors.add(FieldError.forbidden(path + ".additionalProperties",
                        "additionalProperties and properties are mutual exclusive"));
            }
            Context sub = ctx.insideResourceMeta()
                    ? ctx.withForbiddenDefaults("inside additionalProperties applying to object metadata") : ctx;
            walk(additional, path + ".additionalProperties", sub, false, errors, ruleErrors);
        }
        boolean mapCorrelatable = !s.path("x-kubernetes-map-type").asText("").equals("atomic");
        boolean embedded = s.path("x-kubernetes-embedded-resource").asBoolean(false);
        TreeMap<String, JsonNode> sorted = new TreeMap<>();
        props.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
        for (var e : sorted.entrySet()) {
            Context sub = mapCorrelatable ? ctx : ctx.forbidOldSelf(path);
            if ((isRoot || embedded) && META_FIELDS.contains(e.getKey())) {
                sub = sub.insideMeta();
                if (isRoot) {
                    sub = sub.withForbiddenDefaults("in top-level " + e.getKey());
                }
            }
            walk(e.getValue(), path + ".properties[" + e.getKey() + "]", sub, false, errors, ruleErrors);
        }
        walk(s.get("not"), path + ".not", ctx, false, errors, ruleErrors);
        for (String junctor : List.of("allOf", "oneOf", "anyOf")) {
            JsonNode list = s.path(junctor);
            for (int i = 0; i < list.size(); i++) {
                walk(list.get(i), path + "." + junctor + "[" + i + "]", ctx, false, errors, ruleErrors);
            }
        }
        JsonNode items = s.get("items");
        if (items != null && items.isObject()) {
            Context sub = s.path("x-kubernetes-list-type").asText("").equals("map") ? ctx : ctx.forbidOldSelf(path);
            walk(items, path + ".items", sub, false, errors, ruleErrors);
        }
    }

    private static void extensions(JsonNode s, String path, Context ctx, List<FieldError> errors) {
        JsonNode preserve = s.get("x-kubernetes-preserve-unknown-fields");
        if (preserve != null && preserve.isBoolean() && !preserve.asBoolean()) {
            errors.add(FieldError.invalid(path + ".x-kubernetes-preserve-unknown-fields", "false", "must be true or undefined"));
        }
        String type = s.path("type").asText("");
        String mapType = text(s, "x-kubernetes-map-type");
        if (mapType != null && !type.equals("object")) {
            errors.add(type.isEmpty()
                    ? FieldError.required(path + ".type", "must be object if x-kubernetes-map-type is specified")
                    : FieldError.invalid(path + ".type", GoStrings.quote(type), "must be object if x-kubernetes-map-type is specified"));
        }
        if (mapType != null && !mapType.equals("atomic") && !mapType.equals("granular")) {
            errors.add(new FieldError(FieldError.Type.NOT_SUPPORTED, path + ".x-kubernetes-map-type", GoStrings.quote(mapType),
                    supported(List.of("atomic", "granular"))));
        }
        listType(s, path, ctx, type, errors);
        if (ctx.requireMapListKeysMapSet()) {
            mapListKeysMapSet(s, path, errors);
        }
    }

    private static void listType(JsonNode s, String path, Context ctx, String type, List<FieldError> errors) {
        String listType = text(s, "x-kubernetes-list-type");
        JsonNode items = s.path("items");
        if (listType != null && !type.equals("array")) {
            errors.add(type.isEmpty()
                    ? FieldError.required(path + ".type", "must be array if x-kubernetes-list-type is specified")
                    : FieldError.invalid(path + ".type", GoStrings.quote(type), "must be array if x-kubernetes-list-type is specified"));
        } else if (ctx.requireAtomicSetType() && "set".equals(listType) && items.isObject()) {
            String itemType = items.path("type").asText("");
            String itemListType = text(items, "x-kubernetes-list-type");
            if (itemType.equals("array") && itemListType != null && !itemListType.equals("atomic")) {
                errors.add(FieldError.invalid(path + ".items.x-kubernetes-list-type", GoStrings.quote(itemListType),
                        "must be atomic as item of a list with x-kubernetes-list-type=set"));
            } else if (itemType.equals("object") && !"atomic".equals(text(items, "x-kubernetes-map-type"))) {
                errors.add(FieldError.invalid(path + ".items.x-kubernetes-map-type",
                        itemListType == null ? "null" : GoStrings.quote(itemListType),
                        "must be atomic as item of a list with x-kubernetes-list-type=set"));
            }
        }
        if (listType != null && !List.of("atomic", "set", "map").contains(listType)) {
            errors.add(new FieldError(FieldError.Type.NOT_SUPPORTED, path + ".x-kubernetes-list-type",
                    GoStrings.quote(listType), supported(List.of("atomic", "set", "map"))));
        }
        JsonNode keys = s.path("x-kubernetes-list-map-keys");
        if (keys.isArray() && !keys.isEmpty()) {
            if (listType == null) {
                errors.add(FieldError.required(path + ".x-kubernetes-list-type", "must be map if x-kubernetes-list-map-keys is non-empty"));
            } else if (!listType.equals("map")) {
                errors.add(FieldError.invalid(path + ".x-kubernetes-list-type", GoStrings.quote(listType),
                        "must be map if x-kubernetes-list-map-keys is non-empty"));
            }
        }
        if ("map".equals(listType)) {
            mapList(s, path, keys, errors);
        }
    }

    private static void mapList(JsonNode s, String path, JsonNode keys, List<FieldError> errors) {
        if (!keys.isArray() || keys.isEmpty()) {
            errors.add(FieldError.required(path + ".x-kubernetes-list-map-keys", "must not be empty if x-kubernetes-list-type is map"));
        }
        JsonNode items = s.get("items");
        if (items == null || items.isNull()) {
            errors.add(FieldError.required(path + ".items", "must have a schema if x-kubernetes-list-type is map"));
            return;
        }
        if (!items.isObject()) {
            errors.add(FieldError.invalid(path + ".items", "null", "must only have a single schema if x-kubernetes-list-type is map"));
            return;
        }
        String itemType = items.path("type").asText("");
        if (!itemType.equals("object")) {
            errors.add(FieldError.invalid(path + ".items.type", GoStrings.quote(itemType),
                    "must be object if parent array's x-kubernetes-list-type is map"));
            return;
        }
        Set<String> seen = new HashSet<>();
        for (JsonNode k : keys) {
            JsonNode prop = items.path("properties").get(k.asText());
            if (prop != null) {
                String t = prop.path("type").asText("");
                if (t.equals("array") || t.equals("object")) {
                    errors.add(FieldError.invalid(path + ".items.properties[" + k.asText() + "].type", GoStrings.quote(itemType),
                            "must be a scalar type if parent array's x-kubernetes-list-type is map"));
                }
            } else {
                errors.add(FieldError.invalid(path + ".x-kubernetes-list-map-keys", GoStructs.strings(keys),
                        "entries must all be names of item properties"));
            }
            if (!seen.add(k.asText())) {
                errors.add(FieldError.invalid(path + ".x-kubernetes-list-map-keys", GoStructs.strings(keys),
                        "must not contain duplicate entries"));
            }
        }
    }

    /** kube's {@code validateMapListKeysMapSet}: items of sets and maps, and map keys, are not nullable; keys are required or defaulted. */
    private static void mapListKeysMapSet(JsonNode s, String path, List<FieldError> errors) {
        JsonNode items = s.get("items");
        String listType = text(s, "x-kubernetes-list-type");
        if (items == null || !items.isObject() || !("set".equals(listType) || "map".equals(listType))) {
            return;
        }
        if (items.path("nullable").asBoolean(false)) {
            errors.add(FieldError.forbidden(path + ".items.nullable", "cannot be nullable when x-kubernetes-list-type is " + listType));
        }
        if (!listType.equals("map")) {
            return;
        }
        Set<String> required = new HashSet<>();
        items.path("required").forEach(r -> required.add(r.asText()));
        for (JsonNode k : s.path("x-kubernetes-list-map-keys")) {
            JsonNode prop = items.path("properties").get(k.asText());
            if (prop == null) {
                continue;
            }
            String at = path + ".items.properties[" + k.asText() + "]";
            if (!required.contains(k.asText()) && !prop.has("default")) {
                errors.add(FieldError.required(at + ".default",
                        "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"));
            }
            if (prop.path("nullable").asBoolean(false)) {
                errors.add(FieldError.forbidden(at + ".nullable", "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"));
            }
        }
    }

    /** The static checks of {@code x-kubernetes-validations}; the rules are compiled when the schema is otherwise valid. */
    private void validations(JsonNode s, String path, Context ctx, boolean schemaValid, List<FieldError> errors,
                             List<FieldError> ruleErrors) {
        JsonNode list = s.path("x-kubernetes-validations");
        if (!list.isArray() || list.isEmpty()) {
            return;
        }
        int before = errors.size();
        for (int i = 0; i < list.size(); i++) {
            rule(s, list.get(i), path + ".x-kubernetes-validations[" + i + "]", errors);
        }
        if (schemaValid && errors.size() == before) {
            rules.compile(StructuralSchema.of(s), path, ctx, ruleErrors);
        }
    }

    private static void rule(JsonNode schema, JsonNode rule, String at, List<FieldError> errors) {
        String ruleText = rule.path("rule").asText("");
        String message = rule.path("message").asText("");
        String trimmedRule = ruleText.strip();
        String trimmedMessage = message.strip();
        if (trimmedRule.isEmpty()) {
            errors.add(FieldError.required(at + ".rule", "rule is not specified"));
        } else if (!message.isEmpty() && trimmedMessage.isEmpty()) {
            errors.add(FieldError.invalid(at + ".message", GoStrings.quote(message), "message must be non-empty if specified"));
        } else if (hasNewlines(trimmedMessage)) {
            errors.add(FieldError.invalid(at + ".message", GoStrings.quote(message), "message must not contain line breaks"));
        } else if (hasNewlines(trimmedRule) && trimmedMessage.isEmpty()) {
            errors.add(FieldError.required(at + ".message", "message must be specified if rule contains line breaks"));
        }
        String messageExpression = rule.path("messageExpression").asText("");
        if (!messageExpression.isEmpty() && messageExpression.strip().isEmpty()) {
            errors.add(FieldError.required(at + ".messageExpression", "messageExpression must be non-empty if specified"));
        }
        JsonNode reason = rule.get("reason");
        if (reason != null && !reason.isNull() && !RULE_REASONS.contains(reason.asText())) {
            errors.add(new FieldError(FieldError.Type.NOT_SUPPORTED, at + ".reason", GoStrings.quote(reason.asText()),
                    supported(RULE_REASONS)));
        }
        String fieldPath = rule.path("fieldPath").asText("");
        if (!fieldPath.isEmpty() && fieldPath.strip().isEmpty()) {
            errors.add(FieldError.invalid(at + ".fieldPath", GoStrings.quote(fieldPath), "fieldPath must be non-empty if specified"));
        }
        if (hasNewlines(fieldPath)) {
            errors.add(FieldError.invalid(at + ".fieldPath", GoStrings.quote(fieldPath), "fieldPath must not contain line breaks"));
        }
        if (!fieldPath.isEmpty() && !FieldPaths.valid(fieldPath, StructuralSchema.of(schema))) {
            errors.add(FieldError.invalid(at + ".fieldPath", GoStrings.quote(fieldPath), "fieldPath must be a valid path"));
        }
    }

    private static boolean hasNewlines(String s) {
        return s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0;
    }

    private static String text(JsonNode s, String field) {
        JsonNode v = s.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    static String supported(List<String> values) {
        List<String> quoted = new ArrayList<>();
        values.forEach(v -> quoted.add(GoStrings.quote(v)));
        return "supported values: " + String.join(", ", quoted);
    }
}
