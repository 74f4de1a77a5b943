package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.storage.KeyValue;
import java.io.IOException;

/**
 * How one resource's objects are written to and read from storage: JSON with {@code apiVersion} and
 * {@code kind} (of the stored kind) first and without {@code metadata.resourceVersion}, which reads
 * restore from the key's modRevision.
 */
final class ObjectCodec {

    private final GroupVersionKind stored;

    /** @param stored the kind objects are stored as ({@link ResourceDefinition#storedKind}) */
    ObjectCodec(GroupVersionKind stored) {
        this.stored = stored;
    }

    byte[] encode(ObjectNode object) {
        ObjectNode stored = canonicalOrder(object);
        JsonNode meta = stored.get("metadata");
        if (meta instanceof ObjectNode m) {
            m.remove("resourceVersion");
        }
        try {
            return Json.MAPPER.writeValueAsBytes(stored);
        } catch (IOException e) {
            throw ApiException.internal("cannot encode object: " + e.getMessage());
        }
    }

    ObjectNode decode(KeyValue kv) {
        try {
            ObjectNode object = (ObjectNode) Json.COMPACT_READER.readTree(kv.value());
            ObjectMeta.of(object).resourceVersion(Long.toString(kv.modRevision()));
            return object;
        } catch (IOException | ClassCastException e) {
            throw ApiException.internal("stored object at " + kv.key() + " cannot be decoded");
        }
    }

    /** A copy with apiVersion, kind, metadata first, as kube-apiserver writes objects. */
    private ObjectNode canonicalOrder(ObjectNode object) {
        ObjectNode out = Json.object();
        out.put("apiVersion", stored.apiVersion());
        out.put("kind", stored.kind());
        out.set("metadata", object.get("metadata").deepCopy());
        object.properties().forEach(e -> {
            if (!out.has(e.getKey())) {
                out.set(e.getKey(), e.getValue());
            }
        });
        return out;
    }
}
