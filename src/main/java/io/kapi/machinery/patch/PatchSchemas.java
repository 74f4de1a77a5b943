package io.kapi.machinery.patch;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.schema.Schemas;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Strategic-merge views of the built-in kinds, built from {@link Schemas} and cached per kind and per
 * definition. Thread-safe; create one per server and share it.
 */
public final class PatchSchemas {

    private static final String REF_PREFIX = "#/definitions/";

    private final Schemas schemas;
    private final ConcurrentMap<String, PatchSchema> byDefinition = new ConcurrentHashMap<>();
    private final ConcurrentMap<GroupVersionKind, Optional<PatchSchema>> byKind = new ConcurrentHashMap<>();

    public PatchSchemas(Schemas schemas) {
        this.schemas = schemas;
    }

    /**
     * The view of a kind, or empty when {@link Schemas} has no definition for it (custom resources), in
     * which case a strategic merge patch is answered with 415 by {@link Patches#apply}.
     */
    public Optional<PatchSchema> forKind(GroupVersionKind gvk) {
        return byKind.computeIfAbsent(gvk, k -> definitionOf(k).map(this::forDefinition));
    }

    /**
     * The definition of a kind: by the Go package naming of the Kubernetes API first, because the
     * fabric8 {@code x-fabric8-info} leaves the group empty for the dot-less groups (apps, batch,
     * autoscaling, policy), then by {@link Schemas#definitionName}.
     */
    private Optional<String> definitionOf(GroupVersionKind gvk) {
        String byPackage = packageOf(gvk.group()) + "." + gvk.version() + "." + gvk.kind();
        if (schemas.definition(byPackage) != null) {
            return Optional.of(byPackage);
        }
        return schemas.definitionName(gvk);
    }

    private static String packageOf(String group) {
        return switch (group) {
            case "" -> "io.k8s.api.core";
            case "internal.apiserver.k8s.io" -> "io.k8s.api.apiserverinternal";
            case "apiextensions.k8s.io" -> "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions";
            case "apiregistration.k8s.io" -> "io.k8s.kube-aggregator.pkg.apis.apiregistration";
            case "meta.k8s.io" -> "io.k8s.apimachinery.pkg.apis.meta";
            default -> "io.k8s.api." + (group.contains(".") ? group.substring(0, group.indexOf('.')) : group);
        };
    }

    /** The view of a definition by name, e.g. {@code io.k8s.api.apps.v1.Deployment}. */
    public PatchSchema forDefinition(String name) {
        PatchSchema cached = byDefinition.get(name);
        if (cached != null) {
            return cached;
        }
        JsonNode def = schemas.definition(name);
        PatchSchema built = def == null ? PatchSchema.ANY : of(def);
        PatchSchema raced = byDefinition.putIfAbsent(name, built);
        return raced == null ? built : raced;
    }

    /** The view of a schema node: follows {@code $ref}, {@code allOf}, array {@code items} and maps. */
    private PatchSchema of(JsonNode schema) {
        if (schema == null || !schema.isObject()) {
            return PatchSchema.ANY;
        }
        JsonNode ref = schema.get("$ref");
        if (ref != null && ref.isTextual() && ref.textValue().startsWith(REF_PREFIX)) {
            return forDefinition(ref.textValue().substring(REF_PREFIX.length()));
        }
        JsonNode allOf = schema.get("allOf");
        if (allOf != null && allOf.isArray() && allOf.size() == 1) {
            return of(allOf.get(0));
        }
        if (schema.has("items")) {
            return of(schema.get("items"));
        }
        if (schema.has("properties")) {
            return PatchSchema.struct(schema.get("properties"), this::of);
        }
        JsonNode values = schema.get("additionalProperties");
        if (values != null && values.isObject()) {
            return PatchSchema.mapOf(values, this::of);
        }
        return PatchSchema.ANY;
    }
}
