package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import java.util.List;
import java.util.Set;

/**
 * Updates through the {@code status} subresource: only {@code status} changes; everything else,
 * including the metadata kube-apiserver's {@code ResetObjectMetaForStatus} protects, is taken from
 * the stored object.
 */
record StatusStrategy(Strategy base) implements StrategyDecorator {

    private static final Set<String> KEPT_FROM_BODY = Set.of("status", "apiVersion", "kind");
    /** What the body decides of the metadata; managedFields track the status change (kube keeps them too). */
    private static final Set<String> META_FROM_BODY = Set.of("resourceVersion", "name", "namespace", "uid",
            "managedFields");

    @Override
    public void prepareForUpdate(ObjectNode object, ObjectNode old) {
        ObjectNode meta = object.with("metadata");
        ObjectNode oldMeta = (ObjectNode) old.get("metadata");
        old.properties().forEach(e -> {
            if (!KEPT_FROM_BODY.contains(e.getKey()) && !e.getKey().equals("metadata")) {
                object.set(e.getKey(), e.getValue().deepCopy());
            }
        });
        object.properties().removeIf(e -> !KEPT_FROM_BODY.contains(e.getKey()) && !e.getKey().equals("metadata")
                && !old.has(e.getKey()));
        ObjectNode merged = oldMeta.deepCopy();
        for (String field : META_FROM_BODY) {
            JsonNode v = meta.get(field);
            if (v != null) {
                merged.set(field, v);
            }
        }
        object.set("metadata", merged);
        base.prepareForStatusUpdate(object, old);
    }

}
