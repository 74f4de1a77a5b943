package io.kapi.machinery.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * RFC 7386 JSON Merge Patch with the semantics of evanphx's {@code MergePatch}, which kube-apiserver
 * uses: {@code null} deletes a member, objects merge recursively, anything else (arrays included)
 * replaces. Values set from the patch lose their null members, also inside arrays of objects; a patch
 * that is itself an array becomes the document (which then fails to decode as an object).
 */
final class MergePatch {

    private MergePatch() {
    }

    /**
     * Merges {@code body} into {@code document}, which is modified in place (pass a copy).
     *
     * @return the patched document, or the pruned patch when the patch is an array
     * @throws io.kapi.machinery.ApiException 400 {@code Invalid JSON Patch} when the body is not JSON, or
     *     is a JSON scalar or {@code null}
     */
    static JsonNode apply(ObjectNode document, byte[] body) {
        PatchBodies.Parsed parsed = PatchBodies.parse(body);
        JsonNode patch = parsed.node();
        if (patch == null || !(patch.isObject() || patch.isArray())) {
            throw PatchErrors.badRequest("Invalid JSON Patch");
        }
        if (patch.isArray()) {
            return pruneNulls(patch);
        }
        mergeInto(document, (ObjectNode) patch);
        return document;
    }

    /** Merges an object patch into an object, in place. */
    static void mergeInto(ObjectNode document, ObjectNode patch) {
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (value.isNull()) {
                document.remove(key);
                continue;
            }
            JsonNode current = document.get(key);
            if (current == null || current.isNull()) {
                document.set(key, pruneNulls(value));
            } else if (!current.isObject()) {
                document.set(key, pruneNulls(value));
            } else if (!value.isObject()) {
                document.set(key, value);
            } else {
                mergeInto((ObjectNode) current, (ObjectNode) value);
            }
        }
    }

    /** Removes null members of objects, recursively through objects and arrays; array nulls stay. */
    static JsonNode pruneNulls(JsonNode node) {
        if (node instanceof ObjectNode obj) {
            List<String> nulls = new ArrayList<>();
            for (Map.Entry<String, JsonNode> e : obj.properties()) {
                if (e.getValue().isNull()) {
                    nulls.add(e.getKey());
                } else {
                    pruneNulls(e.getValue());
                }
            }
            obj.remove(nulls);
        } else if (node.isArray()) {
            node.forEach(MergePatch::pruneNulls);
        }
        return node;
    }
}
