package io.kapi.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-apiserver's pruning of custom resources ({@code structuralpruning.PruneWithOptions}): every object
 * field the structural schema does not specify is removed, unless the schema preserves unknown fields
 * there ({@code x-kubernetes-preserve-unknown-fields}, whose specified sub-fields are still pruned);
 * {@code apiVersion}, {@code kind} and {@code metadata} of the resource root and of embedded resources
 * are left to the metadata coercion. Also the removal of non-nullable {@code null}s that have no
 * default ({@code PruneNonNullableNullsWithoutDefaults}).
 */
public final class Pruning {

    private static final Set<String> META_FIELDS = Set.of("apiVersion", "kind", "metadata");

    private Pruning() {
    }

    /**
     * Prunes {@code value} in place.
     *
     * @param resourceRoot whether {@code value} is a whole object (its type and object meta are kept)
     * @return the removed fields' paths, sorted ({@code spec.foo}, {@code spec.items[0].bar})
     */
    public static List<String> prune(JsonNode value, StructuralSchema schema, boolean resourceRoot) {
        List<String> unknown = new ArrayList<>();
        prune(value, schema, resourceRoot, "", unknown);
        Collections.sort(unknown);
        return unknown;
    }

    private static void prune(JsonNode x, StructuralSchema s, boolean embedded, String path, List<String> unknown) {
        if (s != null && s.preserveUnknownFields()) {
            skipPrune(x, s, embedded || s.embeddedResource(), path, unknown);
            return;
        }
        if (x instanceof ObjectNode obj) {
            boolean keepMeta = embedded || (s != null && s.embeddedResource());
            for (Iterator<Map.Entry<String, JsonNode>> it = obj.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String k = e.getKey();
                if (s != null && keepMeta && META_FIELDS.contains(k)) {
                    continue;
                }
                StructuralSchema prop = s == null ? null : s.property(k);
                if (prop != null) {
                    prune(e.getValue(), prop, false, key(path, k), unknown);
                } else if (s != null && s.additionalProperties() != null) {
                    prune(e.getValue(), s.additionalProperties(), false, key(path, k), unknown);
                } else {
                    if (!META_FIELDS.contains(k) || !path.isEmpty()) {
                        unknown.add(key(path, k));
                    }
                    it.remove();
                }
            }
        } else if (x instanceof ArrayNode arr) {
            for (int i = 0; i < arr.size(); i++) {
                prune(arr.get(i), s == null ? null : s.items(), false, path + "[" + i + "]", unknown);
            }
        }
    }

    private static void skipPrune(JsonNode x, StructuralSchema s, boolean embedded, String path, List<String> unknown) {
        if (x instanceof ObjectNode obj) {
            for (Map.Entry<String, JsonNode> e : obj.properties()) {
                if (embedded && META_FIELDS.contains(e.getKey())) {
                    continue;
                }
                StructuralSchema prop = s.property(e.getKey());
                if (prop != null) {
                    prune(e.getValue(), prop, false, key(path, e.getKey()), unknown);
                } else if (s.additionalProperties() != null) {
                    prune(e.getValue(), s.additionalProperties(), false, key(path, e.getKey()), unknown);
                }
            }
        } else if (x instanceof ArrayNode arr && s.items() != null) {
            for (int i = 0; i < arr.size(); i++) {
                skipPrune(arr.get(i), s.items(), false, path + "[" + i + "]", unknown);
            }
        }
    }

    private static String key(String path, String k) {
        return path.isEmpty() ? k : path + "." + k;
    }

    /** Removes {@code null}s where the schema neither allows them ({@code nullable}) nor has a default. */
    public static void pruneNonNullableNulls(JsonNode x, StructuralSchema s) {
        if (s == null) {
            return; // no schema below: nothing here is removed
        }
        if (x instanceof ObjectNode obj) {
            for (Iterator<Map.Entry<String, JsonNode>> it = obj.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                StructuralSchema field = s.property(e.getKey()) != null ? s.property(e.getKey())
                        : s.additionalProperties();
                if (e.getValue().isNull() && field != null && !field.nullable() && field.defaultValue() == null) {
                    it.remove();
                } else {
                    pruneNonNullableNulls(e.getValue(), field);
                }
            }
        } else if (x instanceof ArrayNode arr) {
            for (JsonNode item : arr) {
                pruneNonNullableNulls(item, s.items());
            }
        }
    }
}
