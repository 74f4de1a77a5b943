package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.schema.Schemas;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns Swagger / OpenAPI schemas into {@link SchemaType}s by kube-openapi's rules ({@code schemaconv}):
 * {@code x-kubernetes-list-type} decides lists (atomic, set, map with {@code x-kubernetes-list-map-keys});
 * without it, {@code x-kubernetes-patch-strategy: merge} makes a map keyed by
 * {@code x-kubernetes-patch-merge-key} (or a set when there is no key), {@code retainKeys} and no
 * extension make it atomic. {@code x-kubernetes-map-type} makes maps and structs atomic or granular
 * (granular by default); on a property beside a {@code $ref} it overrides the referenced definition.
 * Schemas without a shape ({@code type: object} with neither properties nor additionalProperties, or
 * no type) are untyped.
 *
 * <p>A built-in kind's structs get the implicit values of its Go type ({@link SchemaType.MapType#implicit()}):
 * kube decodes every built-in object into that type, so a struct held by value survives as {@code {}}
 * even when an apply removes all its fields. A custom resource stays unstructured in kube-apiserver: its
 * schema's structs get no implicit values (only {@code metadata}, ObjectMeta, has them), so a struct left
 * empty is removed as structured-merge-diff's {@code RemoveItems} removes it.
 */
final class TypeResolver {

    private static final String REF_PREFIX = "#/definitions/";
    private static final String OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
    /** The owner of a custom resource's inline schema: it has no Go type, so no implicit values. */
    private static final String CUSTOM = null;
    /** Struct fields kube's Go types hold by value: present as {} in every encoded object. */
    private static final Set<String> VALUE_STRUCTS = Set.of("metadata", "spec", "status", "template", "strategy",
            "updateStrategy", "jobTemplate", "resources");
    /** The exceptions, held by pointer: absent when empty (definition, then field). */
    private static final Set<String> POINTER_STRUCTS = Set.of("io.k8s.api.core.v1.PodSpec.resources",
            "io.k8s.api.core.v1.ReplicationControllerSpec.template");

    private final Schemas schemas;
    private final Map<String, SchemaType> byDefinition = new HashMap<>();
    private final Map<GroupVersionKind, SchemaType> byKind = new ConcurrentHashMap<>();

    TypeResolver(Schemas schemas) {
        this.schemas = schemas;
    }

    /** The type of a built-in kind, or null if the schemas do not define it. */
    SchemaType forKind(GroupVersionKind gvk) {
        SchemaType cached = byKind.get(gvk);
        if (cached != null) {
            return cached;
        }
        String name = definitionName(gvk);
        SchemaType t = name == null ? null : definition(name);
        if (t != null) {
            byKind.put(gvk, t);
        }
        return t;
    }

    /**
     * The definition of a kind. Looked up by name ({@code io.k8s.api.<group's first label>.<version>.<Kind>}
     * and the like) rather than through {@code x-fabric8-info}, whose group is empty for the
     * single-label groups (apps, batch, autoscaling, policy).
     */
    private String definitionName(GroupVersionKind gvk) {
        String suffix = "." + gvk.version() + "." + gvk.kind();
        String pkg = switch (gvk.group()) {
            case "" -> "core";
            case "internal.apiserver.k8s.io" -> "apiserverinternal";
            default -> gvk.group().split("\\.")[0];
        };
        List<String> candidates = new ArrayList<>();
        for (String name : schemas.definitions().keySet()) {
            if (name.endsWith(suffix)) {
                String head = name.substring(0, name.length() - suffix.length());
                if (head.endsWith("." + pkg)) {
                    return name;
                }
                candidates.add(name);
            }
        }
        if (gvk.group().isEmpty() || candidates.isEmpty()) {
            return schemas.definitionName(gvk).orElse(null);
        }
        return candidates.size() == 1 ? candidates.getFirst() : null;
    }

    /** The type of an inline OpenAPI schema (a CRD version's); its {@code metadata} is ObjectMeta. */
    synchronized SchemaType forSchema(JsonNode schema) {
        if (schema == null || schema.isNull()) {
            return untypedRoot();
        }
        SchemaType t = resolve(schema, CUSTOM);
        if (t instanceof SchemaType.MapType mt && !mt.fields().isEmpty()) {
            mt.fields().put("metadata", definition(OBJECT_META));
            mt.implicit().put("metadata", Json.object());
            mt.fields().putIfAbsent("apiVersion", SchemaType.SCALAR);
            mt.fields().putIfAbsent("kind", SchemaType.SCALAR);
            return mt;
        }
        return untypedRoot();
    }

    private SchemaType untypedRoot() {
        SchemaType.MapType root = new SchemaType.MapType(new HashMap<>(), new HashMap<>(), SchemaType.UNTYPED, false);
        root.fields().put("metadata", definition(OBJECT_META));
        root.implicit().put("metadata", Json.object());
        root.fields().put("apiVersion", SchemaType.SCALAR);
        root.fields().put("kind", SchemaType.SCALAR);
        return root;
    }

    private synchronized SchemaType definition(String name) {
        SchemaType cached = byDefinition.get(name);
        if (cached != null) {
            return cached;
        }
        ObjectNode def = schemas.definition(name);
        if (def == null) {
            byDefinition.put(name, SchemaType.UNTYPED);
            return SchemaType.UNTYPED;
        }
        if (def.has("properties")) {
            SchemaType.MapType struct = SchemaType.MapType.struct(isAtomicMap(def), preservesUnknown(def));
            byDefinition.put(name, struct);
            fillStruct(struct, def, name);
            return struct;
        }
        SchemaType t = resolve(def, name);
        byDefinition.put(name, t);
        return t;
    }

    private SchemaType resolve(JsonNode schema, String owner) {
        JsonNode ref = schema.get("$ref");
        if (ref == null && schema.path("allOf").size() == 1) {
            ref = schema.get("allOf").get(0).get("$ref");
        }
        if (ref != null && ref.isTextual()) {
            String r = ref.textValue();
            SchemaType t = r.startsWith(REF_PREFIX) ? definition(r.substring(REF_PREFIX.length())) : SchemaType.UNTYPED;
            if (t instanceof SchemaType.MapType mt && schema.has("x-kubernetes-map-type")) {
                return mt.withAtomic(isAtomicMap(schema));
            }
            return t;
        }
        String type = schema.path("type").asText("");
        if (type.equals("array")) {
            return list(schema, owner);
        }
        if (schema.has("properties")) {
            SchemaType.MapType struct = SchemaType.MapType.struct(isAtomicMap(schema), preservesUnknown(schema));
            fillStruct(struct, schema, owner);
            return struct;
        }
        JsonNode additional = schema.get("additionalProperties");
        if (additional instanceof ObjectNode ap && !ap.isEmpty()) {
            return new SchemaType.MapType(Map.of(), Map.of(), resolve(ap, owner), isAtomicMap(schema));
        }
        return switch (type) {
            case "string", "integer", "number", "boolean" -> SchemaType.SCALAR;
            default -> SchemaType.UNTYPED;
        };
    }

    /** Declares the struct's properties; {@code owner} is the definition they are in, or {@link #CUSTOM}. */
    private void fillStruct(SchemaType.MapType struct, JsonNode schema, String owner) {
        Set<String> required = new HashSet<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        for (Map.Entry<String, JsonNode> p : schema.path("properties").properties()) {
            SchemaType t = resolve(p.getValue(), owner);
            struct.fields().put(p.getKey(), t);
            if (owner == CUSTOM) {
                continue;
            }
            boolean isStruct = t instanceof SchemaType.MapType mt && !mt.fields().isEmpty() && mt.elementType() == null
                    || t instanceof SchemaType.MapType && p.getValue().has("$ref");
            if (owner.equals(OBJECT_META) && p.getKey().equals("creationTimestamp")) {
                struct.implicit().put(p.getKey(), NullNode.getInstance()); // a zero metav1.Time encodes as null
            } else if (isStruct && (VALUE_STRUCTS.contains(p.getKey()) && !POINTER_STRUCTS.contains(owner + "." + p.getKey())
                    || required.contains(p.getKey()) && !p.getKey().equals("selector"))) {
                struct.implicit().put(p.getKey(), Json.object());
            } else if (required.contains(p.getKey()) && !(t instanceof SchemaType.Scalar)) {
                struct.implicit().put(p.getKey(), NullNode.getInstance());
            }
        }
    }

    private SchemaType list(JsonNode schema, String owner) {
        JsonNode items = schema.path("items");
        SchemaType element = items.isObject() ? resolve(items, owner == CUSTOM ? CUSTOM : "") : SchemaType.UNTYPED;
        String listType = schema.path("x-kubernetes-list-type").asText(null);
        List<String> keys = new ArrayList<>();
        boolean atomic;
        if (listType != null) {
            atomic = listType.equals("atomic");
            if (listType.equals("map")) {
                schema.path("x-kubernetes-list-map-keys").forEach(k -> keys.add(k.asText()));
            }
        } else {
            String strategy = schema.path("x-kubernetes-patch-strategy").asText("");
            atomic = !(strategy.equals("merge") || strategy.equals("merge,retainKeys"));
            if (!atomic && schema.hasNonNull("x-kubernetes-patch-merge-key")) {
                keys.add(schema.get("x-kubernetes-patch-merge-key").asText());
            }
        }
        if (!atomic && keys.isEmpty() && !(element instanceof SchemaType.Scalar)) {
            atomic = true; // a set of non-scalars cannot be keyed: keep it whole
        }
        Map<String, JsonNode> defaults = new HashMap<>();
        if (!keys.isEmpty()) {
            JsonNode itemSchema = items;
            if (items.has("$ref")) {
                String r = items.get("$ref").asText();
                itemSchema = r.startsWith(REF_PREFIX) ? schemas.definition(r.substring(REF_PREFIX.length())) : null;
            }
            if (itemSchema != null) {
                for (String k : keys) {
                    JsonNode d = itemSchema.path("properties").path(k).get("default");
                    if (d != null && !d.isNull()) {
                        defaults.put(k, d);
                    }
                }
            }
        }
        return new SchemaType.ListType(atomic, keys, defaults, element);
    }

    private static boolean preservesUnknown(JsonNode schema) {
        return schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    }

    private static boolean isAtomicMap(JsonNode schema) {
        return "atomic".equals(schema.path("x-kubernetes-map-type").asText(""));
    }
}
