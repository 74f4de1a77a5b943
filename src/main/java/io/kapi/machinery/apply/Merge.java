package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Merges an applied configuration into a live object (structured-merge-diff's {@code Merge}): the
 * configuration wins on every leaf; granular maps merge key by key; associative lists merge item by
 * item, keeping the configuration's order for the items it names and the live positions of the
 * others; atomic lists and maps are replaced whole. A null in the configuration removes the field,
 * as decoding into kube's typed object does.
 */
final class Merge {

    private Merge() {
    }

    /**
     * A new tree: {@code live} (may be null) with {@code config} merged in. Neither input is changed,
     * and the result shares no node with them (callers go on to mutate it).
     */
    static ObjectNode of(SchemaType type, ObjectNode live, ObjectNode config) {
        JsonNode out = merge(type instanceof SchemaType.MapType ? type : SchemaType.UNTYPED,
                live == null ? Json.object() : live, config);
        return (ObjectNode) out;
    }

    private static JsonNode merge(SchemaType type, JsonNode l, JsonNode r) {
        if (r == null) {
            return l == null ? null : l.deepCopy();
        }
        if (l == null || l.isNull() || r.isNull()) {
            return r.deepCopy();
        }
        boolean bothEmpty = l.isEmpty() && r.isEmpty() && (l.isContainerNode() && r.isContainerNode());
        return switch (type) {
            case SchemaType.Scalar s -> r.deepCopy();
            case SchemaType.Untyped u -> l.isObject() && r.isObject() && !bothEmpty
                    ? mergeMap(null, l, r) : r.deepCopy();
            case SchemaType.ListType lt -> !lt.atomic() && l.isArray() && r.isArray() && !bothEmpty
                    ? mergeList(lt, l, r) : r.deepCopy();
            case SchemaType.MapType mt -> !mt.atomic() && l.isObject() && r.isObject() && !bothEmpty
                    ? mergeMap(mt, l, r) : r.deepCopy();
        };
    }

    private static ObjectNode mergeMap(SchemaType.MapType mt, JsonNode l, JsonNode r) {
        ObjectNode out = Json.object();
        for (Map.Entry<String, JsonNode> e : l.properties()) {
            String k = e.getKey();
            JsonNode rc = r.get(k);
            if (rc == null) {
                out.set(k, e.getValue().deepCopy());
            } else if (!rc.isNull()) {
                out.set(k, merge(entryType(mt, k), e.getValue(), rc));
            }
        }
        for (Map.Entry<String, JsonNode> e : r.properties()) {
            if (!l.has(e.getKey()) && !e.getValue().isNull()) {
                out.set(e.getKey(), merge(entryType(mt, e.getKey()), null, e.getValue()));
            }
        }
        return out;
    }

    private static SchemaType entryType(SchemaType.MapType mt, String k) {
        if (mt == null) {
            return SchemaType.UNTYPED;
        }
        SchemaType t = mt.entryType(k);
        return t == null ? SchemaType.UNTYPED : t;
    }

    /** structured-merge-diff's list merge: shared items in the configuration's order. */
    private static ArrayNode mergeList(SchemaType.ListType lt, JsonNode l, JsonNode r) {
        LinkedHashMap<PathElement, JsonNode> left = ListItems.index(lt, l);
        LinkedHashMap<PathElement, JsonNode> right = ListItems.index(lt, r);
        List<PathElement> lhs = new ArrayList<>(left.keySet());
        List<PathElement> rhs = new ArrayList<>(right.keySet());
        Deque<PathElement> shared = new ArrayDeque<>();
        for (PathElement pe : rhs) {
            if (left.containsKey(pe)) {
                shared.add(pe);
            }
        }
        PathElement nextShared = shared.pollFirst();
        Set<PathElement> mergedRight = new HashSet<>();
        ArrayNode out = Json.MAPPER.createArrayNode();
        SchemaType et = lt.elementType();
        int li = 0;
        int ri = 0;
        while (li < lhs.size() || ri < rhs.size()) {
            if (li < lhs.size() && ri < rhs.size()) {
                PathElement pe = lhs.get(li);
                if (pe.equals(rhs.get(ri))) {
                    mergedRight.add(pe);
                    out.add(merge(et, left.get(pe), right.get(pe)));
                    li++;
                    ri++;
                    nextShared = shared.pollFirst();
                    continue;
                }
                if (right.containsKey(pe) && nextShared != null && !nextShared.equals(pe)) {
                    li++;
                    continue;
                }
            }
            if (li < lhs.size()) {
                PathElement pe = lhs.get(li);
                if (!right.containsKey(pe)) {
                    out.add(left.get(pe).deepCopy());
                    li++;
                    continue;
                } else if (mergedRight.contains(pe)) {
                    li++;
                    continue;
                }
            }
            if (ri < rhs.size()) {
                PathElement pe = rhs.get(ri);
                mergedRight.add(pe);
                out.add(merge(et, left.get(pe), right.get(pe)));
                ri++;
                if (nextShared != null && nextShared.equals(pe)) {
                    nextShared = shared.pollFirst();
                }
            }
        }
        return out;
    }
}
