package io.kapi.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.machinery.validation.NameRule;
import io.kapi.machinery.validation.ObjectMetaValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The objects a custom resource embeds ({@code x-kubernetes-embedded-resource}), validated as
 * kube-apiserver's {@code objectmeta.Validate}: each needs an {@code apiVersion} and a {@code kind}
 * (strings; the kind a DNS-1035 label in any case), and its {@code metadata} must be valid object
 * metadata (names as path segments, a missing name allowed).
 */
public final class EmbeddedResources {

    private EmbeddedResources() {
    }

    /** The errors of the resources embedded in {@code value} (below {@code prefix}, "" for an object's root). */
    public static List<FieldError> validate(String prefix, JsonNode value, StructuralSchema schema) {
        List<FieldError> errors = new ArrayList<>();
        walk(prefix, value, schema, errors);
        return errors;
    }

    private static void walk(String path, JsonNode x, StructuralSchema s, List<FieldError> errors) {
        if (s == null || x == null) {
            return;
        }
        if (x instanceof ObjectNode obj) {
            if (s.embeddedResource()) {
                embedded(path, obj, errors);
            }
            for (Map.Entry<String, JsonNode> e : obj.properties()) {
                StructuralSchema sub = s.property(e.getKey());
                if (sub != null) {
                    walk(child(path, e.getKey()), e.getValue(), sub, errors);
                } else if (s.additionalProperties() != null) {
                    walk(path + "[" + e.getKey() + "]", e.getValue(), s.additionalProperties(), errors);
                }
            }
        } else if (x.isArray() && s.items() != null) {
            for (int i = 0; i < x.size(); i++) {
                walk(path + "[" + i + "]", x.get(i), s.items(), errors);
            }
        }
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private static void embedded(String path, ObjectNode x, List<FieldError> errors) {
        if (!x.has("apiVersion")) {
            errors.add(FieldError.required(child(path, "apiVersion"), "must not be empty"));
        }
        if (!x.has("kind")) {
            errors.add(FieldError.required(child(path, "kind"), "must not be empty"));
        }
        JsonNode apiVersion = x.get("apiVersion");
        if (apiVersion != null) {
            if (!apiVersion.isTextual()) {
                errors.add(FieldError.invalid(child(path, "apiVersion"), GoValues.errorValue(apiVersion), "must be a string"));
            } else if (apiVersion.asText().isEmpty()) {
                errors.add(FieldError.invalid(child(path, "apiVersion"), "\"\"", "must not be empty"));
            } else if (apiVersion.asText().chars().filter(c -> c == '/').count() > 1) {
                errors.add(FieldError.invalid(child(path, "apiVersion"), GoStrings.quote(apiVersion.asText()),
                        "unexpected GroupVersion string: " + apiVersion.asText()));
            }
        }
        JsonNode kind = x.get("kind");
        if (kind != null) {
            if (!kind.isTextual()) {
                errors.add(FieldError.invalid(child(path, "kind"), GoValues.errorValue(kind), "must be a string"));
            } else if (kind.asText().isEmpty()) {
                errors.add(FieldError.invalid(child(path, "kind"), "\"\"", "must not be empty"));
            } else {
                List<String> errs = Identifiers.dns1035Label(kind.asText().toLowerCase(Locale.ROOT));
                if (!errs.isEmpty()) {
                    errors.add(FieldError.invalid(child(path, "kind"), GoStrings.quote(kind.asText()),
                            "may have mixed case, but should otherwise match: " + String.join(",", errs)));
                }
            }
        }
        if (x.get("metadata") instanceof ObjectNode meta) {
            ObjectNode named = meta.deepCopy();
            if (named.path("name").asText("").isEmpty()) {
                named.put("name", "fakename");
            }
            boolean namespaced = !named.path("namespace").asText("").isEmpty();
            for (FieldError e : ObjectMetaValidator.validate(named, namespaced, NameRule.PATH_SEGMENT)) {
                errors.add(new FieldError(e.type(), child(path, e.field()), e.value(), e.detail()));
            }
        }
    }
}
