package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What changed between two values of one type (structured-merge-diff's {@code Compare}): leaves
 * (scalars, atomic lists and maps, null or empty collections) that were added, removed or modified,
 * and collections and list items that appeared or disappeared as a whole.
 *
 * <p>A struct field kube's Go types always encode (a value struct, a required slice) counts as
 * present with its implicit value when absent from a JSON tree, as it is present in the typed object
 * kube compares; an explicit null on a typed field counts as absent, as decoding drops it.
 */
final class Compare {

    /** The three sets of a comparison. */
    record Comparison(FieldSet added, FieldSet removed, FieldSet modified) {
        FieldSet addedOrModified() {
            return added.union(modified);
        }
    }

    private final FieldSet.Builder added = new FieldSet.Builder();
    private final FieldSet.Builder removed = new FieldSet.Builder();
    private final FieldSet.Builder modified = new FieldSet.Builder();

    private Compare() {
    }

    /** Compares two objects; either may be null, meaning an empty typed object. */
    static Comparison of(SchemaType type, JsonNode oldObj, JsonNode newObj) {
        Compare c = new Compare();
        SchemaType t = type instanceof SchemaType.MapType ? type : SchemaType.UNTYPED;
        JsonNode l = oldObj == null ? io.kapi.machinery.Json.object() : oldObj;
        JsonNode r = newObj == null ? io.kapi.machinery.Json.object() : newObj;
        c.visitMap(t, l, r, c.added, c.removed, c.modified);
        return new Comparison(c.added.build(), c.removed.build(), c.modified.build());
    }

    private void walk(SchemaType type, JsonNode l, JsonNode r, PathElement self, FieldSet.Builder a,
            FieldSet.Builder rm, FieldSet.Builder m) {
        if (l != null && r != null && Values.equal(l, r)) {
            return; // equal subtrees hold no change (the common case: skip the walk)
        }
        JsonNode sample = r != null ? r : l;
        boolean leaf;
        switch (type) {
            case SchemaType.Scalar s -> leaf = true;
            case SchemaType.Untyped u -> {
                leaf = !(isMapOrNull(l) && isMapOrNull(r) && sample.isObject()) || bothEmpty(l, r);
                if (!leaf) {
                    visitMap(SchemaType.UNTYPED, l, r, a.child(self), rm.child(self), m.child(self));
                }
            }
            case SchemaType.ListType lt -> {
                leaf = lt.atomic() || !isListOrNull(l) || !isListOrNull(r) || bothEmpty(l, r);
                if (!leaf) {
                    visitList(lt, l, r, a.child(self), rm.child(self), m.child(self));
                }
            }
            case SchemaType.MapType mt -> {
                leaf = mt.atomic() || !isMapOrNull(l) || !isMapOrNull(r) || bothEmpty(l, r);
                if (!leaf) {
                    visitMap(mt, l, r, a.child(self), rm.child(self), m.child(self));
                }
            }
        }
        if (l == null) {
            a.member(self);
        } else if (r == null) {
            rm.member(self);
        } else if (leaf && !Values.equal(l, r)) {
            m.member(self);
        }
    }

    private void visitList(SchemaType.ListType lt, JsonNode l, JsonNode r, FieldSet.Builder a, FieldSet.Builder rm,
            FieldSet.Builder m) {
        LinkedHashMap<PathElement, JsonNode> left = ListItems.index(lt, l);
        LinkedHashMap<PathElement, JsonNode> right = ListItems.index(lt, r);
        for (Map.Entry<PathElement, JsonNode> e : left.entrySet()) {
            walk(lt.elementType(), e.getValue(), right.get(e.getKey()), e.getKey(), a, rm, m);
        }
        for (Map.Entry<PathElement, JsonNode> e : right.entrySet()) {
            if (!left.containsKey(e.getKey())) {
                walk(lt.elementType(), null, e.getValue(), e.getKey(), a, rm, m);
            }
        }
    }

    private void visitMap(SchemaType type, JsonNode l, JsonNode r, FieldSet.Builder a, FieldSet.Builder rm,
            FieldSet.Builder m) {
        SchemaType.MapType mt = type instanceof SchemaType.MapType x ? x : null;
        Set<String> keys = new LinkedHashSet<>();
        if (l != null && l.isObject()) {
            l.fieldNames().forEachRemaining(keys::add);
        }
        if (r != null && r.isObject()) {
            r.fieldNames().forEachRemaining(keys::add);
        }
        for (String k : keys) {
            JsonNode lc = child(mt, l, k);
            JsonNode rc = child(mt, r, k);
            if (lc == null && rc == null) {
                continue;
            }
            SchemaType ct = mt == null ? SchemaType.UNTYPED : mt.entryType(k);
            walk(ct == null ? SchemaType.UNTYPED : ct, lc, rc, new PathElement.Field(k), a, rm, m);
        }
    }

    private static JsonNode child(SchemaType.MapType mt, JsonNode parent, String k) {
        if (parent == null || !parent.isObject()) {
            return null;
        }
        JsonNode v = parent.get(k);
        if (mt != null && (v == null || v.isNull())) {
            // a typed object has no explicit nulls: absent, or the value Go always encodes
            v = mt.implicit().get(k);
        }
        return v;
    }

    private static boolean isMapOrNull(JsonNode v) {
        return v == null || v.isNull() || v.isObject();
    }

    private static boolean isListOrNull(JsonNode v) {
        return v == null || v.isNull() || v.isArray();
    }

    private static boolean bothEmpty(JsonNode l, JsonNode r) {
        return (l == null || l.isNull() || l.isEmpty()) && (r == null || r.isNull() || r.isEmpty());
    }
}
