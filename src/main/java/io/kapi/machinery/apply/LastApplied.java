package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.util.Map;

/**
 * Interplay with client-side apply's {@code kubectl.kubernetes.io/last-applied-configuration}
 * annotation, as kube's {@code lastAppliedManager} and {@code lastAppliedUpdater} do it for the
 * manager {@code kubectl} (what {@code kubectl apply --server-side} sends):
 * <ul>
 *   <li>conflicts are forgiven for fields the annotation holds with the value the object still has
 *       (the object was client-side applied with them: upgrading to server-side apply takes them
 *       over without {@code --force-conflicts});
 *   <li>after a successful apply, an existing annotation is rewritten to the new configuration, so
 *       a later client-side apply computes its three-way patch from the right base.
 * </ul>
 */
final class LastApplied {

    static final String ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";
    static final String KUBECTL = "kubectl";
    private static final long TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

    private LastApplied() {
    }

    static String of(JsonNode obj) {
        JsonNode v = obj == null ? null : obj.path("metadata").path("annotations").get(ANNOTATION);
        return v == null || !v.isTextual() || v.textValue().isEmpty() ? null : v.textValue();
    }

    /**
     * The fields whose conflicts client-side apply excuses: those of the annotation that the live
     * object still holds with the same value. Empty when there is no usable annotation.
     */
    static FieldSet allowedConflicts(SchemaType type, ObjectNode live) {
        String text = of(live);
        if (text == null) {
            return FieldSet.EMPTY;
        }
        try {
            JsonNode lastApplied = Json.MAPPER.readTree(text);
            if (!(lastApplied instanceof ObjectNode last)) {
                return FieldSet.EMPTY;
            }
            FieldSet set = ToFieldSet.ofApplied(type, last);
            Compare.Comparison c = Compare.of(type, last, live);
            return set.difference(c.modified()).difference(c.added()).difference(c.removed());
        } catch (java.io.IOException | ToFieldSet.TypedErrors e) {
            return FieldSet.EMPTY;
        }
    }

    /** Rewrites the annotation of {@code obj} (which has one) to {@code applied}, as kubectl would write it. */
    static void update(ObjectNode obj, ObjectNode applied) {
        ObjectNode config = applied.deepCopy();
        if (config.path("metadata").path("annotations") instanceof ObjectNode a) {
            a.remove(ANNOTATION);
        }
        String value = Values.goJson(config) + "\n";
        ObjectNode annotations = obj.withObjectProperty("metadata").withObjectProperty("annotations");
        annotations.put(ANNOTATION, value);
        long size = 0;
        for (Map.Entry<String, JsonNode> e : annotations.properties()) {
            size += e.getKey().length() + e.getValue().asText().length();
        }
        if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
            annotations.remove(ANNOTATION);
        }
    }
}
