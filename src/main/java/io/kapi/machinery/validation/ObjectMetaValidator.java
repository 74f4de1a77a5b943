package io.kapi.machinery.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * kube-apiserver's {@code ValidateObjectMetaAccessor} on a (schema-validated) {@code metadata} tree: name and
 * generateName by the resource's {@link NameRule} (and the path-segment rule kube applies to every name),
 * namespace presence and syntax, generation, label keys and values, annotation keys and total size, owner
 * references, finalizers. Paths are {@code metadata.name}, {@code metadata.labels}, ... and messages are
 * kube's. Run it after the name has been generated from generateName.
 */
public final class ObjectMetaValidator {

    /** kube's {@code TotalAnnotationSizeLimitB}: 256 KiB over all keys and values. */
    public static final int ANNOTATIONS_MAX_BYTES = 256 * 1024;

    private static final String ORPHAN = "orphan";
    private static final String FOREGROUND = "foregroundDeletion";

    private ObjectMetaValidator() {
    }

    /**
     * The errors of {@code metadata} (may be null or missing) for an object of a resource.
     *
     * @param namespaced whether the resource is namespace-scoped
     */
    public static List<FieldError> validate(JsonNode metadata, boolean namespaced, NameRule rule) {
        JsonNode meta = metadata == null ? MissingNode.getInstance() : metadata;
        List<FieldError> errs = new ArrayList<>();
        String generateName = meta.path("generateName").asText("");
        if (!generateName.isEmpty()) {
            names(errs, "metadata.generateName", generateName, rule, true);
        }
        String name = meta.path("name").asText("");
        if (name.isEmpty()) {
            errs.add(FieldError.required("metadata.name", "name or generateName is required"));
        } else {
            names(errs, "metadata.name", name, rule, false);
        }
        String namespace = meta.path("namespace").asText("");
        if (namespaced) {
            if (namespace.isEmpty()) {
                errs.add(FieldError.required("metadata.namespace", ""));
            } else {
                Identifiers.dns1123Label(namespace).forEach(m -> errs.add(invalid("metadata.namespace", namespace, m)));
            }
        } else if (!namespace.isEmpty()) {
            errs.add(FieldError.forbidden("metadata.namespace", "not allowed on this type"));
        }
        long generation = meta.path("generation").asLong(0);
        if (generation < 0) {
            errs.add(FieldError.invalid("metadata.generation", Long.toString(generation),
                    "must be greater than or equal to 0"));
        }
        errs.addAll(validateLabels(meta.path("labels"), "metadata.labels"));
        annotations(errs, meta.path("annotations"));
        ownerReferences(errs, meta.path("ownerReferences"));
        finalizers(errs, meta.path("finalizers"));
        return errs;
    }

    /**
     * kube-apiserver's {@code EnsureObjectNamespaceMatchesRequestNamespace}, run before validation: an object
     * without a namespace takes the request's; on a cluster-scoped request ({@code requestNamespace} empty) the
     * object's namespace is cleared; a different namespace is 400 {@code the namespace of the provided object
     * does not match the namespace sent on the request}.
     */
    public static void matchRequestNamespace(ObjectNode obj,
                                             String requestNamespace) {
        String request = requestNamespace == null ? "" : requestNamespace;
        JsonNode metaNode = obj.get("metadata");
        ObjectNode meta =
                metaNode instanceof ObjectNode o ? o : obj.putObject("metadata");
        String own = meta.path("namespace").asText("");
        if (own.equals(request)) {
            return;
        }
        if (own.isEmpty()) {
            meta.put("namespace", request);
        } else if (request.isEmpty()) {
            meta.remove("namespace");
        } else {
            throw ApiException.badRequest(
                    "the namespace of the provided object does not match the namespace sent on the request");
        }
    }

    /** kube's name checks for one resource: its own rule, then the path-segment rule every name obeys. */
    private static void names(List<FieldError> errs, String field, String value, NameRule rule, boolean prefix) {
        List<String> msgs = rule.check(value, prefix);
        msgs.forEach(m -> errs.add(invalid(field, value, m)));
        if (msgs.isEmpty() && rule != NameRule.PATH_SEGMENT) {
            NameRule.PATH_SEGMENT.check(value, prefix).forEach(m -> errs.add(invalid(field, value, m)));
        }
    }

    /**
     * kube's {@code ValidateLabels}: keys are qualified names, values label values; every error is on
     * {@code field} itself (e.g. {@code metadata.labels}, {@code spec.template.metadata.labels}).
     */
    public static List<FieldError> validateLabels(JsonNode labels, String field) {
        List<FieldError> errs = new ArrayList<>(0);
        for (Map.Entry<String, JsonNode> e : labels.properties()) {
            String key = e.getKey();
            Identifiers.qualifiedName(key).forEach(m -> errs.add(invalid(field, key, m)));
            String value = e.getValue().asText("");
            Identifiers.labelValue(value).forEach(m -> errs.add(invalid(field, value, m)));
        }
        return errs;
    }

    private static void annotations(List<FieldError> errs, JsonNode annotations) {
        long size = 0;
        for (Map.Entry<String, JsonNode> e : annotations.properties()) {
            String key = e.getKey();
            Identifiers.qualifiedName(key.toLowerCase(Locale.ROOT))
                    .forEach(m -> errs.add(invalid("metadata.annotations", key, m)));
            size += key.getBytes(StandardCharsets.UTF_8).length
                    + e.getValue().asText("").getBytes(StandardCharsets.UTF_8).length;
        }
        if (size > ANNOTATIONS_MAX_BYTES) {
            errs.add(new FieldError(FieldError.Type.TOO_LONG, "metadata.annotations", null,
                    "may not be more than " + ANNOTATIONS_MAX_BYTES + " bytes"));
        }
    }

    private static void ownerReferences(List<FieldError> errs, JsonNode refs) {
        String field = "metadata.ownerReferences";
        for (JsonNode ref : refs) {
            String apiVersion = ref.path("apiVersion").asText("");
            String version = apiVersion.contains("/") ? apiVersion.substring(apiVersion.indexOf('/') + 1) : apiVersion;
            if (version.isEmpty()) {
                errs.add(invalid(field + ".apiVersion", apiVersion, "version must not be empty"));
            }
            String kind = ref.path("kind").asText("");
            if (kind.isEmpty()) {
                errs.add(invalid(field + ".kind", kind, "kind must not be empty"));
            }
            String name = ref.path("name").asText("");
            if (name.isEmpty()) {
                errs.add(invalid(field + ".name", name, "name must not be empty"));
            }
            String uid = ref.path("uid").asText("");
            if (uid.isEmpty()) {
                errs.add(invalid(field + ".uid", uid, "uid must not be empty"));
            }
        }
    }

    private static void finalizers(List<FieldError> errs, JsonNode finalizers) {
        boolean orphan = false;
        boolean foreground = false;
        List<String> all = new ArrayList<>();
        for (JsonNode f : finalizers) {
            String value = f.asText("");
            all.add(value);
            Identifiers.qualifiedName(value).forEach(m -> errs.add(invalid("metadata.finalizers", value, m)));
            orphan |= value.equals(ORPHAN);
            foreground |= value.equals(FOREGROUND);
        }
        if (orphan && foreground) {
            errs.add(new FieldError(FieldError.Type.INVALID, "metadata.finalizers", "[]string{" + String.join(", ",
                    all.stream().map(GoStrings::quote).toList()) + "}",
                    "finalizer orphan and foregroundDeletion cannot be both set"));
        }
    }

    private static FieldError invalid(String field, String value, String detail) {
        return FieldError.invalid(field, GoStrings.quote(value), detail);
    }
}
