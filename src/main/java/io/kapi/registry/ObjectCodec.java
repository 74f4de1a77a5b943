package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.storage.KeyValue;
import io.kapi.storage.ValueTransformer;
import java.io.IOException;

/**
 * How one resource's objects are written to and read from storage: JSON with {@code apiVersion} and
 * {@code kind} (of the stored kind) first and without {@code metadata.resourceVersion}, which reads
 * restore from the key's modRevision; the encoded bytes then pass the resource's value transformer.
 */
final class ObjectCodec {

    private final GroupVersionKind stored;
    private final ValueTransformer transformer;

    /**
     * @param stored the kind objects are stored as ({@link ResourceDefinition#storedKind})
     * @param transformer what happens to the encoded bytes on their way to the store and back
     */
    ObjectCodec(GroupVersionKind stored, ValueTransformer transformer) {
        this.stored = stored;
        this.transformer = transformer;
    }

    /** The codec of {@code definition}'s stored objects, kept as {@code atRest} says. */
    static ObjectCodec of(ResourceDefinition definition, AtRest atRest) {
        return new ObjectCodec(definition.storedKind(), atRest.transformer(definition));
    }

    /** The value to store at {@code key} for {@code object}. */
    byte[] encode(ObjectNode object, String key) {
        return transformer.toStorage(encode(object), key);
    }

    private byte[] encode(ObjectNode object) {
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

    private static String cause(Exception e) {
        return e instanceof IOException || e instanceof ClassCastException ? "object cannot be decoded"
                : String.valueOf(e.getMessage());
    }

    /** Whether values pass a transformer other than identity (encryption at rest is configured for them). */
    boolean transforms() {
        return transformer != ValueTransformer.IDENTITY;
    }

    /** Whether {@code kv} was written by another provider or key than the current writer's ({@link ValueTransformer#stale}). */
    boolean stale(KeyValue kv) {
        return transformer.stale(kv.value(), kv.key());
    }

    ObjectNode decode(KeyValue kv) {
        try {
            ObjectNode object = (ObjectNode) Json.COMPACT_READER.readTree(transformer.fromStorage(kv.value(), kv.key()));
            ObjectMeta.of(object).resourceVersion(Long.toString(kv.modRevision()));
            return object;
        } catch (IOException | RuntimeException e) {
            // kube's storage.NewCorruptObjError: the key named, the cause (a provider's words) after it
            throw ApiException.internal("StorageError: corrupt object, Code: 7, Key: " + kv.key()
                    + ", ResourceVersion: 0, AdditionalErrorMsg: " + cause(e));
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
