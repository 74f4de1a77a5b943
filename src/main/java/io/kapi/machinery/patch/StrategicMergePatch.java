package io.kapi.machinery.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Strategic merge patch as kube-apiserver applies it ({@code strategicpatch.StrategicMergeMapPatch},
 * server side: parallel lists merged, unmatched nulls ignored), with the schema telling which lists merge
 * and by which key.
 *
 * <ul>
 *   <li>maps merge recursively, {@code null} deletes a key, scalars replace;</li>
 *   <li>lists replace, unless their strategy is {@code merge}: lists of objects then merge item by item
 *       on the merge key, lists of scalars become the union; the result holds the patch's items in patch
 *       order interleaved with the remaining original items in their original order;</li>
 *   <li>{@code $patch: replace} / {@code delete} on a map replaces it / empties it; in a merging list,
 *       {@code {"$patch": "delete", key: v}} removes the items with that key and
 *       {@code {"$patch": "replace"}} makes the patch's items the whole list;</li>
 *   <li>{@code $retainKeys: [..]} drops the original's other keys; {@code $deleteFromPrimitiveList/f}
 *       removes values from the scalar list {@code f}; {@code $setElementOrder/f} fixes the order of
 *       list {@code f}.</li>
 * </ul>
 * Errors are coded as kube-apiserver's {@code interpretStrategicMergePatchError}: malformed directives
 * 400, lists of lists 422, anything else 500 with the Go message.
 */
final class StrategicMergePatch {

    static final String DIRECTIVE = "$patch";
    static final String RETAIN_KEYS = "$retainKeys";
    static final String DELETE_FROM_LIST = "$deleteFromPrimitiveList";
    static final String SET_ORDER = "$setElementOrder";

    private StrategicMergePatch() {
    }

    /**
     * Applies the patch {@code body} to {@code document}, which is modified in place (pass a copy).
     *
     * @throws io.kapi.machinery.ApiException 400 if the body is not a JSON object or a directive is
     *     malformed, 422 for lists of lists, 500 for other inconsistencies (a missing merge key...)
     */
    static ObjectNode apply(ObjectNode document, byte[] body, PatchSchema schema) {
        PatchBodies.Parsed parsed = PatchBodies.parse(body);
        parsed.failure().ifPresent(error -> {
            throw PatchErrors.badRequest(error);
        });
        JsonNode patch = parsed.node();
        if (patch.isNull()) {
            return document;
        }
        if (!patch.isObject()) {
            throw PatchErrors.badRequest("json: cannot unmarshal %s into Go value of type map[string]interface {}"
                    .formatted(GoFormat.jsonKind(patch)));
        }
        return mergeMap(document, (ObjectNode) patch, schema);
    }

    static ObjectNode mergeMap(ObjectNode original, ObjectNode patch, PatchSchema schema) {
        JsonNode directive = patch.get(DIRECTIVE);
        if (directive != null) {
            if (isText(directive, "replace")) {
                patch.remove(DIRECTIVE);
                return (ObjectNode) Values.clean(patch);
            }
            if (isText(directive, "delete")) {
                return Json.object();
            }
            throw PatchErrors.unclassified("unknown patch type: %s in map: %s"
                    .formatted(GoFormat.value(directive), GoFormat.value(patch)));
        }
        applyRetainKeys(original, patch);
        mergeOrderedLists(original, patch, schema);
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(patch.properties());
        entries.sort(Comparator.comparing(e -> !e.getKey().startsWith(DELETE_FROM_LIST)));
        for (Map.Entry<String, JsonNode> e : entries) {
            mergeField(original, e.getKey(), e.getValue(), schema);
        }
        return original;
    }

    private static void mergeField(ObjectNode original, String patchKey, JsonNode patchValue, PatchSchema schema) {
        boolean deleteList = patchKey.startsWith(DELETE_FROM_LIST);
        String key = deleteList ? extractKey(patchKey, DELETE_FROM_LIST) : patchKey;
        if (patchValue.isNull()) {
            original.remove(key);
            return;
        }
        JsonNode current = original.get(key);
        if (current == null || !sameShape(current, patchValue)) {
            if (!deleteList) {
                JsonNode added = Values.removeDirectives(Values.discardNulls(patchValue));
                if (added == null) {
                    original.remove(key);
                } else {
                    original.set(key, Values.clean(added));
                }
            }
            return;
        }
        if (patchValue.isObject()) {
            PatchSchema.Field field = schema.field(key);
            original.set(key, field.strategy() == PatchSchema.Strategy.REPLACE
                    ? Values.clean(patchValue)
                    : mergeMap((ObjectNode) current, (ObjectNode) patchValue, field.schema()));
        } else if (patchValue.isArray()) {
            original.set(key, mergeListField((ArrayNode) current, (ArrayNode) patchValue, schema.field(key), deleteList));
        } else {
            original.set(key, patchValue);
        }
    }

    private static boolean sameShape(JsonNode a, JsonNode b) {
        return a.isObject() ? b.isObject() : a.isArray() ? b.isArray() : !b.isContainerNode();
    }

    private static ArrayNode mergeListField(ArrayNode original, ArrayNode patch, PatchSchema.Field field,
            boolean deleteList) {
        if (field.strategy() != PatchSchema.Strategy.MERGE && !deleteList) {
            return (ArrayNode) Values.clean(patch);
        }
        return MergingList.merge(original, patch, field.schema(), field.mergeKey(), deleteList);
    }

    /** {@code $retainKeys}: keys of the original not listed are dropped; the patch may only set listed keys. */
    private static void applyRetainKeys(ObjectNode original, ObjectNode patch) {
        if (!patch.has(RETAIN_KEYS)) {
            return;
        }
        JsonNode retain = patch.remove(RETAIN_KEYS);
        if (!retain.isArray()) {
            throw PatchErrors.badRequest("invalid patch format of retainKeys");
        }
        Set<String> keep = new HashSet<>();
        retain.forEach(v -> {
            if (v.isTextual()) {
                keep.add(v.textValue());
            }
        });
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            String k = e.getKey();
            if (e.getValue().isNull() || k.startsWith(DELETE_FROM_LIST) || k.startsWith(SET_ORDER)) {
                continue;
            }
            if (!keep.contains(k)) {
                throw PatchErrors.badRequest("invalid patch format of retainKeys");
            }
        }
        original.retain(keep);
    }

    /**
     * {@code $setElementOrder/f}: merges list {@code f} (when the patch has it) and orders the result:
     * items named in the order list first in that order, interleaved with the other original items.
     */
    private static void mergeOrderedLists(ObjectNode original, ObjectNode patch, PatchSchema schema) {
        List<String> orderKeys = new ArrayList<>();
        patch.fieldNames().forEachRemaining(k -> {
            if (k.startsWith(SET_ORDER)) {
                orderKeys.add(k);
            }
        });
        for (String orderKey : orderKeys) {
            JsonNode order = patch.remove(orderKey);
            if (!order.isArray()) {
                throw PatchErrors.unclassified("expected a []interface {}, but received a " + GoFormat.typeName(order));
            }
            String key = extractKey(orderKey, SET_ORDER);
            JsonNode originalList = original.get(key);
            JsonNode patchList = patch.get(key);
            for (JsonNode list : new JsonNode[] {originalList, patchList}) {
                if (list != null && !list.isArray()) {
                    throw PatchErrors.unclassified("expected a []interface {}, but received a " + GoFormat.typeName(list));
                }
            }
            PatchSchema.Field field = schema.field(key);
            String mergeKey = field.mergeKey();
            List<JsonNode> setOrder = Values.list(order);
            List<JsonNode> originalItems = Values.list(originalList);
            List<JsonNode> patchItems = Values.list(patchList);
            MergingList.validateOrder(patchItems, setOrder, mergeKey, patchList, order);
            List<JsonNode> merged;
            if (originalList != null && patchList == null) {
                merged = originalItems;
            } else if (originalList == null && patchList != null) {
                merged = Values.list(Values.clean(Values.removeDirectives(patchList)));
            } else if (originalList != null) {
                merged = Values.list(mergeListField((ArrayNode) originalList, (ArrayNode) patchList, field, false));
            } else {
                continue;
            }
            MergingList.Kind kind = MergingList.elementKind(originalItems, patchItems);
            original.set(key, MergingList.ordered(merged, setOrder, originalItems, mergeKey, kind));
            patch.remove(key);
        }
    }

    /** The field a {@code $prefix/field} directive names. */
    private static String extractKey(String key, String prefix) {
        String[] parts = key.split("/", 2);
        if (parts.length <= 1 || !parts[0].equals(prefix)) {
            throw PatchErrors.badRequest(prefix.equals(DELETE_FROM_LIST)
                    ? "invalid patch format of primitive list"
                    : "invalid patch format of setElementOrder list");
        }
        return parts[1];
    }

    static boolean isText(JsonNode node, String text) {
        return node.isTextual() && node.textValue().equals(text);
    }
}
