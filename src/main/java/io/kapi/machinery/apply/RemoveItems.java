package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.util.Map;

/**
 * A copy of a value without the paths of a set, each removed with everything below it
 * (structured-merge-diff's {@code RemoveItems}). A map or list left empty disappears (structured-merge-diff
 * leaves no value for it); only a struct with an implicit {@code {}} stays as {@code {}}, as a built-in kind's
 * Go type holds it by value (custom resources, unstructured in kube, have none: {@link TypeResolver}).
 */
final class RemoveItems {

    private RemoveItems() {
    }

    static ObjectNode of(SchemaType type, ObjectNode value, FieldSet toRemove) {
        if (toRemove.isEmpty()) {
            return value;
        }
        JsonNode out = remove(type instanceof SchemaType.MapType ? type : SchemaType.UNTYPED, value, toRemove);
        return out instanceof ObjectNode o ? o : Json.object();
    }

    /** The value without the paths; null when nothing is left of a non-empty map or list. */
    private static JsonNode remove(SchemaType type, JsonNode v, FieldSet set) {
        if (set.isEmpty() || v == null) {
            return v;
        }
        return switch (type) {
            case SchemaType.Scalar s -> v;
            case SchemaType.Untyped u -> v.isObject() ? removeFromMap(null, v, set) : v;
            case SchemaType.ListType lt -> !lt.atomic() && v.isArray() ? removeFromList(lt, v, set) : v;
            case SchemaType.MapType mt -> !mt.atomic() && v.isObject() ? removeFromMap(mt, v, set) : v;
        };
    }

    private static JsonNode removeFromList(SchemaType.ListType lt, JsonNode v, FieldSet set) {
        if (v.isEmpty()) {
            return v;
        }
        ArrayNode out = Json.MAPPER.createArrayNode();
        for (int i = 0; i < v.size(); i++) {
            JsonNode item = v.get(i);
            PathElement pe;
            try {
                pe = ListItems.element(lt, item);
            } catch (ListItems.InvalidItem e) {
                out.add(item);
                continue;
            }
            if (set.members().contains(pe)) {
                continue;
            }
            FieldSet sub = set.withPrefix(pe);
            JsonNode kept = sub.isEmpty() ? item : remove(lt.elementType(), item, sub);
            out.add(kept == null ? Json.object() : kept);
        }
        return out.isEmpty() ? null : out;
    }

    private static JsonNode removeFromMap(SchemaType.MapType mt, JsonNode v, FieldSet set) {
        if (v.isEmpty()) {
            return v;
        }
        ObjectNode out = Json.object();
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            PathElement pe = new PathElement.Field(e.getKey());
            if (set.members().contains(pe)) {
                if (mt != null && mt.implicit().get(e.getKey()) instanceof ObjectNode) {
                    out.putObject(e.getKey());
                }
                continue;
            }
            FieldSet sub = set.withPrefix(pe);
            if (sub.isEmpty()) {
                out.set(e.getKey(), e.getValue());
                continue;
            }
            SchemaType ct = mt == null ? SchemaType.UNTYPED : mt.entryType(e.getKey());
            JsonNode kept = remove(ct == null ? SchemaType.UNTYPED : ct, e.getValue(), sub);
            if (kept != null) {
                out.set(e.getKey(), kept);
            } else if (mt != null && mt.implicit().get(e.getKey()) instanceof ObjectNode) {
                out.putObject(e.getKey());
            }
        }
        return out.isEmpty() ? null : out;
    }
}
