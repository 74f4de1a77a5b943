package io.kapi.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * One failure of the OpenAPI schema validator (kube-openapi's {@code errors.Validation}) and its
 * translation into the field error kube-apiserver answers ({@code ValidateCustomResource}): required,
 * enum, too long, too many and type failures get their own error types; every other failure is an
 * {@code Invalid value} carrying the validator's message ({@code spec.replicas in body should be
 * greater than or equal to 1}). Failures of {@code allOf}, {@code anyOf}, {@code oneOf} and
 * {@code not} are composite errors without a field ({@code <nil>}).
 *
 * @param code what failed
 * @param name the failing value's path as the validator names it ({@code spec.items[0].name}), "" for the root
 * @param value the failing value (for types: the JSON type found, as a text node)
 * @param message the validator's own message
 * @param limit the bound for too-long and too-many failures; the allowed values for enums
 */
record Violation(Code code, String name, JsonNode value, String message, Object limit) {

    enum Code { TYPE, REQUIRED, TOO_LONG, ENUM, MAX_ITEMS, MAX_PROPERTIES, COMPOSITE, OTHER }

    /** The field error of this failure, with its path below {@code prefix} ("" for an object's root). */
    FieldError toFieldError(String prefix) {
        String trimmed = name.startsWith(".") ? name.substring(1) : name;
        String field = trimmed.isEmpty() ? (prefix.isEmpty() ? "<nil>" : prefix)
                : prefix.isEmpty() ? trimmed : prefix + "." + trimmed;
        return switch (code) {
            case REQUIRED -> FieldError.required(field, "");
            case ENUM -> new FieldError(FieldError.Type.NOT_SUPPORTED, field, GoValues.errorValue(value),
                    supported(limit));
            case TOO_LONG -> new FieldError(FieldError.Type.TOO_LONG, field, null,
                    "may not be more than " + limit + " bytes");
            case MAX_ITEMS, MAX_PROPERTIES -> new FieldError(FieldError.Type.TOO_MANY, field,
                    GoValues.errorValue(value), "must have at most " + limit + " items");
            case TYPE -> new FieldError(FieldError.Type.TYPE_INVALID, field, GoValues.errorValue(value), message);
            case COMPOSITE -> FieldError.invalid(prefix.isEmpty() ? "<nil>" : prefix, "\"\"", message);
            case OTHER -> FieldError.invalid(field, GoValues.errorValue(value), message);
        };
    }

    private static String supported(Object limit) {
        List<String> quoted = new ArrayList<>();
        if (limit instanceof List<?> values) {
            for (Object v : values) {
                JsonNode n = (JsonNode) v;
                String text = n.isTextual() ? n.asText() : write(n);
                quoted.add(GoStrings.quote(text));
            }
        }
        return quoted.isEmpty() ? "" : "supported values: " + String.join(", ", quoted);
    }

    private static String write(JsonNode n) {
        try {
            return Json.MAPPER.writeValueAsString(n);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return n.toString();
        }
    }
}
