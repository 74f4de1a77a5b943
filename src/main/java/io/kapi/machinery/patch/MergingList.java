package io.kapi.machinery.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The list half of the strategic merge: merging lists with strategy {@code merge}, the list directives,
 * and kube's ordering rule. After a merge the list holds the items the patch names, in patch order,
 * interleaved with the original's other items in their original order: walking both, an original item
 * goes first only when both it and the next patch item were in the original and it came earlier there.
 */
final class MergingList {

    /** What a list holds, as far as merging cares. */
    enum Kind { OBJECT, SCALAR }

    private MergingList() {
    }

    /** Merges {@code patch} into {@code original}, a list with strategy merge (or a deletion list). */
    static ArrayNode merge(ArrayNode original, ArrayNode patch, PatchSchema itemSchema, String mergeKey,
            boolean deleteList) {
        List<JsonNode> orig = Values.list(original);
        List<JsonNode> pat = Values.list(patch);
        if (orig.isEmpty() && pat.isEmpty()) {
            return original;
        }
        Kind kind = elementKind(orig, pat);
        if (kind == Kind.SCALAR) {
            if (deleteList) {
                return Values.array(deleteValues(orig, pat));
            }
            Map<String, JsonNode> union = new LinkedHashMap<>();
            for (JsonNode v : orig) {
                union.putIfAbsent(Values.scalarKey(v), v);
            }
            for (JsonNode v : pat) {
                union.putIfAbsent(Values.scalarKey(v), v);
            }
            return normalize(new ArrayList<>(union.values()), pat, orig, "", kind);
        }
        if (mergeKey.isEmpty()) {
            throw PatchErrors.unclassified("cannot merge lists without merge key for struct");
        }
        Split split = withoutSpecialItems(orig, pat, mergeKey);
        List<JsonNode> merged = mergeByKey(split.original(), split.patch(), mergeKey, itemSchema);
        return normalize(merged, split.patch(), split.original(), mergeKey, kind);
    }

    /**
     * Orders {@code merged} for {@code $setElementOrder}: items named in {@code setOrder} in that order,
     * interleaved with the rest in their {@code original} order.
     */
    static ArrayNode ordered(List<JsonNode> merged, List<JsonNode> setOrder, List<JsonNode> original,
            String mergeKey, Kind kind) {
        return normalize(merged, setOrder, original, mergeKey, kind);
    }

    /**
     * The kind of the elements of the lists, which must all share one Go type.
     *
     * @throws io.kapi.machinery.ApiException 422 for lists of lists, 500 for mixed or no elements
     */
    static Kind elementKind(List<JsonNode> a, List<JsonNode> b) {
        String tag = null;
        for (List<JsonNode> list : List.of(a, b)) {
            for (JsonNode v : list) {
                String t = Values.typeTag(v);
                if (tag == null) {
                    tag = t;
                    if (t.equals("slice")) {
                        throw PatchErrors.unprocessable();
                    }
                } else if (!tag.equals(t)) {
                    throw PatchErrors.unclassified("list element types are not identical: ["
                            + GoFormat.value(Values.array(a)) + " " + GoFormat.value(Values.array(b)) + "]");
                }
            }
        }
        if (tag == null) {
            throw PatchErrors.unclassified("no elements in any of the given slices");
        }
        return tag.equals("map") ? Kind.OBJECT : Kind.SCALAR;
    }

    /**
     * Checks that the patch list names its items in the order {@code $setElementOrder} gives (deletions
     * and other directive items aside).
     */
    static void validateOrder(List<JsonNode> patch, List<JsonNode> setOrder, String mergeKey,
            JsonNode patchNode, JsonNode setOrderNode) {
        if (setOrder.isEmpty() || patch.isEmpty()) {
            return;
        }
        List<JsonNode> nonDelete = mergeKey.isEmpty() ? patch : withoutDeletions(patch);
        int p = 0;
        int s = 0;
        while (p < nonDelete.size() && s < setOrder.size()) {
            JsonNode item = nonDelete.get(p);
            if (item.isObject() && item.has(StrategicMergePatch.DIRECTIVE)) {
                p++;
                continue;
            }
            if (keyValueEqual(item, setOrder.get(s), mergeKey)) {
                p++;
            }
            s++;
        }
        if (p < nonDelete.size()) {
            throw PatchErrors.unclassified("the order in patch list:\n%s\n doesn't match %s list:\n%s"
                    .formatted(GoFormat.value(patchNode), StrategicMergePatch.SET_ORDER, GoFormat.value(setOrderNode)));
        }
    }

    private static boolean keyValueEqual(JsonNode left, JsonNode right, String mergeKey) {
        if (mergeKey.isEmpty()) {
            return Values.goEquals(left, right);
        }
        return Values.goEquals(requireKey(requireMap(left), mergeKey), requireKey(requireMap(right), mergeKey));
    }

    private static List<JsonNode> deleteValues(List<JsonNode> original, List<JsonNode> toDelete) {
        Set<String> doomed = new HashSet<>();
        toDelete.forEach(v -> doomed.add(Values.scalarKey(v)));
        List<JsonNode> kept = new ArrayList<>(original.size());
        for (JsonNode v : original) {
            String k = Values.scalarKey(v);
            if (k == null || !doomed.contains(k)) {
                kept.add(v);
            }
        }
        return kept;
    }

    /** The original and patch lists after the patch's {@code $patch} items have been acted on. */
    private record Split(List<JsonNode> original, List<JsonNode> patch) {
    }

    private static Split withoutSpecialItems(List<JsonNode> original, List<JsonNode> patch, String mergeKey) {
        List<JsonNode> remaining = new ArrayList<>(original);
        List<JsonNode> plain = new ArrayList<>(patch.size());
        boolean replace = false;
        for (JsonNode item : patch) {
            JsonNode directive = item.get(StrategicMergePatch.DIRECTIVE);
            if (directive == null) {
                plain.add(item);
            } else if (StrategicMergePatch.isText(directive, "delete")) {
                JsonNode value = requireKey(item, mergeKey);
                remaining.removeIf(o -> o.isObject() && o.has(mergeKey) && Values.goEquals(o.get(mergeKey), value));
            } else if (StrategicMergePatch.isText(directive, "replace")) {
                replace = true;
            } else if (StrategicMergePatch.isText(directive, "merge")) {
                throw PatchErrors.unclassified("merging lists cannot yet be specified in the patch");
            } else {
                throw PatchErrors.unclassified("unknown patch type: %s in map: %s"
                        .formatted(GoFormat.value(directive), GoFormat.value(item)));
            }
        }
        if (replace) {
            plain.forEach(Values::clean);
            return new Split(plain, List.of());
        }
        return new Split(remaining, plain);
    }

    private static List<JsonNode> mergeByKey(List<JsonNode> original, List<JsonNode> patch, String mergeKey,
            PatchSchema itemSchema) {
        List<JsonNode> merged = new ArrayList<>(original);
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < merged.size(); i++) {
            JsonNode item = merged.get(i);
            if (!item.isObject()) {
                throw PatchErrors.unclassified("value for key %d is not a map".formatted(i));
            }
            if (item.has(mergeKey)) {
                positions.putIfAbsent(Values.scalarKey(item.get(mergeKey)), i);
            }
        }
        for (JsonNode item : patch) {
            String key = Values.scalarKey(requireKey(item, mergeKey));
            Integer found = key == null ? null : positions.get(key);
            if (found != null) {
                merged.set(found, StrategicMergePatch.mergeMap((ObjectNode) merged.get(found), (ObjectNode) item,
                        itemSchema));
            } else {
                merged.add(Values.clean(item));
                if (key != null) {
                    positions.put(key, merged.size() - 1);
                }
            }
        }
        return merged;
    }

    /**
     * kube's {@code normalizeElementOrder}: splits {@code merged} into the items {@code patchOrder} names
     * and the others, sorts each by its reference list, and interleaves them.
     */
    private static ArrayNode normalize(List<JsonNode> merged, List<JsonNode> patchOrder, List<JsonNode> serverOrder,
            String mergeKey, Kind kind) {
        if (kind == Kind.OBJECT) {
            requireKeys(merged, mergeKey);
            requireKeys(patchOrder, mergeKey);
            requireKeys(serverOrder, mergeKey);
        }
        Map<String, Integer> patchIndex = positions(patchOrder, mergeKey, kind);
        Map<String, Integer> serverIndex = positions(serverOrder, mergeKey, kind);
        List<JsonNode> patchItems = new ArrayList<>();
        List<JsonNode> serverOnly = new ArrayList<>();
        for (JsonNode v : merged) {
            String key = mergeKey.isEmpty() ? Values.scalarKey(v) : Values.scalarKey(v.get(mergeKey));
            (key != null && patchIndex.containsKey(key) ? patchItems : serverOnly).add(v);
        }
        List<JsonNode> left = sortBy(serverOnly, serverIndex, mergeKey, kind);
        List<JsonNode> right = sortBy(patchItems, patchIndex, mergeKey, kind);
        List<JsonNode> all = new ArrayList<>(left.size() + right.size());
        int i = 0;
        int j = 0;
        while (i < left.size() || j < right.size()) {
            if (i >= left.size()) {
                all.add(right.get(j++));
            } else if (j >= right.size()) {
                all.add(left.get(i++));
            } else {
                int li = index(serverIndex, left.get(i), mergeKey, kind);
                int ri = index(serverIndex, right.get(j), mergeKey, kind);
                all.add(li >= 0 && ri >= 0 && li < ri ? left.get(i++) : right.get(j++));
            }
        }
        return Values.array(all);
    }

    private static void requireKeys(List<JsonNode> items, String mergeKey) {
        for (JsonNode v : items) {
            requireKey(requireMap(v), mergeKey);
        }
    }

    /** The first position of each item (of its merge key value, for objects) in a reference list. */
    private static Map<String, Integer> positions(List<JsonNode> order, String mergeKey, Kind kind) {
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            String key = identity(order.get(i), mergeKey, kind);
            if (key != null) {
                positions.putIfAbsent(key, i);
            }
        }
        return positions;
    }

    private static String identity(JsonNode item, String mergeKey, Kind kind) {
        return Values.scalarKey(kind == Kind.OBJECT ? item.get(mergeKey) : item);
    }

    private static int index(Map<String, Integer> positions, JsonNode item, String mergeKey, Kind kind) {
        String key = identity(item, mergeKey, kind);
        Integer i = key == null ? null : positions.get(key);
        return i == null ? -1 : i;
    }

    private static List<JsonNode> sortBy(List<JsonNode> items, Map<String, Integer> order, String mergeKey, Kind kind) {
        List<JsonNode> sorted = new ArrayList<>(items);
        List<JsonNode> deletions = new ArrayList<>();
        if (kind == Kind.OBJECT) {
            sorted.removeIf(v -> {
                boolean delete = StrategicMergePatch.isText(v.path(StrategicMergePatch.DIRECTIVE), "delete");
                if (delete) {
                    deletions.add(v);
                }
                return delete;
            });
        }
        sorted.sort(Comparator.comparingInt(v -> index(order, v, mergeKey, kind)));
        sorted.addAll(deletions);
        return sorted;
    }

    private static List<JsonNode> withoutDeletions(List<JsonNode> items) {
        List<JsonNode> kept = new ArrayList<>(items.size());
        for (JsonNode v : items) {
            if (!StrategicMergePatch.isText(requireMap(v).path(StrategicMergePatch.DIRECTIVE), "delete")) {
                kept.add(v);
            }
        }
        return kept;
    }

    private static JsonNode requireMap(JsonNode v) {
        if (!v.isObject()) {
            throw PatchErrors.unclassified("expected a map[string]interface {}, but received a " + GoFormat.typeName(v));
        }
        return v;
    }

    private static JsonNode requireKey(JsonNode map, String mergeKey) {
        JsonNode value = map.get(mergeKey);
        if (value == null) {
            throw PatchErrors.unclassified("map: %s does not contain declared merge key: %s"
                    .formatted(GoFormat.value(map), mergeKey));
        }
        return value;
    }
}
