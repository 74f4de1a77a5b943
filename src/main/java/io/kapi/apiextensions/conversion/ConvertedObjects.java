package io.kapi.apiextensions.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's checks of what a conversion webhook returned: as many objects as were sent, each of the desired
 * apiVersion, of the same kind, name, namespace and uid as the object it converts; of its metadata only
 * labels and annotations are taken, the rest is the original's. Failures are 500s worded as kube's, per
 * index for the items of a list.
 */
final class ConvertedObjects {

    private ConvertedObjects() {
    }

    /**
     * The converted objects by their index in {@code sent}.
     *
     * @throws ApiException 500 when the webhook's answer is not a conversion of {@code sent}
     */
    static Map<Integer, ObjectNode> check(String from, String toApiVersion, JsonNode sent, JsonNode converted,
                                          boolean list) {
        String prefix = "conversion webhook for " + from;
        if (!list && converted.size() != 1) {
            throw ApiException.unknown(prefix + " failed, no objects returned");
        }
        if (converted.size() != sent.size()) {
            throw ApiException.unknown(prefix + " returned " + converted.size() + " objects, expected " + sent.size());
        }
        Map<Integer, ObjectNode> out = new LinkedHashMap<>();
        for (int i = 0; i < sent.size(); i++) {
            String invalid = list ? " returned invalid converted object at index " + i + ": " : " returned invalid object: ";
            String badMeta = list ? " returned invalid metadata in object at index " + i + ": " : " returned invalid metadata: ";
            JsonNode original = sent.get(i);
            if (!(converted.get(i) instanceof ObjectNode object)) {
                throw ApiException.unknown(prefix + invalid + "expected an object, got " + converted.get(i).getNodeType());
            }
            String problem = sameIdentity(original, object, toApiVersion);
            if (problem != null) {
                throw ApiException.unknown(prefix + invalid + problem);
            }
            problem = restoreMetadata(original, object);
            if (problem != null) {
                throw ApiException.unknown(prefix + badMeta + problem);
            }
            out.put(i, object);
        }
        return out;
    }

    private static String sameIdentity(JsonNode in, JsonNode out, String toApiVersion) {
        String got = out.path("apiVersion").asText();
        if (!toApiVersion.equals(got)) {
            return "invalid groupVersion (expected " + toApiVersion + ", received " + got + ")";
        }
        if (!in.path("kind").asText().equals(out.path("kind").asText())) {
            return "invalid kind (expected " + in.path("kind").asText() + ", received " + out.path("kind").asText() + ")";
        }
        for (String field : List.of("name", "namespace", "uid")) {
            String a = in.path("metadata").path(field).asText("");
            String b = out.path("metadata").path(field).asText("");
            if (!a.equals(b)) {
                return "must have the same " + (field.equals("uid") ? "UID" : field) + ": " + a + " != " + b;
            }
        }
        return null;
    }

    /** Sets {@code out}'s metadata to {@code in}'s with {@code out}'s labels and annotations; a problem, or null. */
    private static String restoreMetadata(JsonNode in, ObjectNode out) {
        JsonNode meta = out.get("metadata");
        if (meta != null && !meta.isObject()) {
            return "invalid metadata of type " + meta.getNodeType().name().toLowerCase() + ", expected map[string]interface{}";
        }
        ObjectNode restored = in.get("metadata") instanceof ObjectNode m ? m.deepCopy() : out.objectNode();
        for (String field : List.of("labels", "annotations")) {
            JsonNode v = meta == null ? null : meta.get(field);
            if (v == null || v.isNull()) {
                restored.remove(field);
                continue;
            }
            if (!v.isObject()) {
                return "invalid metadata." + field + ": expected map[string]string";
            }
            for (Map.Entry<String, JsonNode> e : v.properties()) {
                if (!e.getValue().isTextual()) {
                    return "invalid metadata." + field + "[" + e.getKey() + "]: expected string";
                }
            }
            restored.set(field, v);
        }
        out.set("metadata", restored);
        return null;
    }
}
