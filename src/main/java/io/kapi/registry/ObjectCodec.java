package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.storage.KeyValue;
import io.kapi.storage.ValueTransformer;
import java.io.IOException;

/**
 * How one resource's objects are written to and read from storage, as kube-apiserver's storage codec:
 * built-in kinds in {@code --storage-media-type} ({@code k8s\0} and a {@code runtime.Unknown} for
 * protobuf, kube's default), custom resources always in JSON, each with {@code apiVersion} and
 * {@code kind} of the stored kind and without {@code metadata.resourceVersion}, which reads restore from
 * the key's modRevision; the encoded bytes then pass the resource's value transformer.
 *
 * <p>Reads take whatever encoding the value is in, whatever the flag says (kube's storage decoder
 * recognises JSON, YAML and protobuf alike), so that data written under another media type, by Kapi
 * or by kube-apiserver, keeps being served, and rewritten in the current one at its next update.
 */
final class ObjectCodec {

    private enum Format { JSON, YAML, PROTOBUF }

    private final GroupVersionKind stored;
    private final ValueTransformer transformer;
    private final Format format;

    /**
     * @param stored the kind objects are stored as ({@link ResourceDefinition#storedKind})
     * @param transformer what happens to the encoded bytes on their way to the store and back
     * @param mediaType the media type to write; protobuf only where {@code stored} has a message
     */
    ObjectCodec(GroupVersionKind stored, ValueTransformer transformer, String mediaType) {
        this.stored = stored;
        this.transformer = transformer;
        this.format = switch (mediaType) {
            case AtRest.PROTOBUF -> ProtobufCodec.supports(stored) ? Format.PROTOBUF : Format.JSON;
            case AtRest.YAML -> Format.YAML;
            default -> Format.JSON;
        };
    }

    /** The codec of {@code definition}'s stored objects, kept as {@code atRest} says. */
    static ObjectCodec of(ResourceDefinition definition, AtRest atRest) {
        return new ObjectCodec(definition.storedKind(), atRest.transformer(definition),
                definition.custom() == null ? atRest.mediaType() : AtRest.JSON);
    }

    /** The value to store at {@code key} for {@code object}. */
    byte[] encode(ObjectNode object, String key) {
        return transformer.toStorage(encode(object), key);
    }

    private byte[] encode(ObjectNode object) {
        ObjectNode stored = canonicalOrder(object);
        try {
            return switch (format) {
                case PROTOBUF -> protobufOrJson(stored);
                case JSON -> Json.MAPPER.writeValueAsBytes(stored);
                case YAML -> Json.yaml().writeValueAsBytes(stored);
            };
        } catch (IOException | IllegalArgumentException e) {
            throw ApiException.internal("cannot encode object: " + e.getMessage());
        }
    }

    /**
     * Protobuf, or JSON for an object nested too deep for the recursive protobuf code on an ordinary
     * thread's stack (a CRD whose schema nests thousands of levels; JSON's readers and writers keep their
     * own stack). Reads take either.
     */
    private byte[] protobufOrJson(ObjectNode stored) throws IOException {
        if (tooDeep(stored, this.stored)) {
            return Json.MAPPER.writeValueAsBytes(stored);
        }
        try {
            return ProtobufCodec.encode(stored, this.stored);
        } catch (StackOverflowError e) {
            return Json.MAPPER.writeValueAsBytes(stored);
        }
    }

    /** Levels of nesting past which a kind with recursive messages is kept as JSON. */
    private static final int PROTOBUF_DEPTH = 200;

    /**
     * Whether {@code object} nests deeper than protobuf is kept for: only CRDs (their schemas, the one
     * recursive message of the built-in kinds) are measured.
     */
    static boolean tooDeep(ObjectNode object, GroupVersionKind gvk) {
        if (!gvk.kind().equals("CustomResourceDefinition")) {
            return false;
        }
        java.util.ArrayDeque<JsonNode> level = new java.util.ArrayDeque<>(java.util.List.of(object));
        for (int depth = 0; !level.isEmpty(); depth++) {
            if (depth > PROTOBUF_DEPTH) {
                return true;
            }
            java.util.ArrayDeque<JsonNode> next = new java.util.ArrayDeque<>();
            for (JsonNode node : level) {
                node.forEach(child -> {
                    if (child.isContainerNode()) {
                        next.add(child);
                    }
                });
            }
            level = next;
        }
        return false;
    }

    ObjectNode decode(KeyValue kv) {
        try {
            byte[] value = transformer.fromStorage(kv.value(), kv.key());
            ObjectNode object = ProtobufCodec.hasPrefix(value) ? ProtobufCodec.decodeStored(value)
                    : (ObjectNode) (isJson(value) ? Json.COMPACT_READER : YAML).readTree(value);
            ObjectMeta.of(object).resourceVersion(Long.toString(kv.modRevision()));
            return object;
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw ApiException.internal("stored object at " + kv.key() + " cannot be decoded");
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectReader YAML =
            Json.yaml().reader().with(Json.compactNodes());

    /** Whether a value is JSON: its first character (after white space) opens an object. */
    private static boolean isJson(byte[] value) {
        for (byte b : value) {
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return b == '{';
            }
        }
        return false;
    }

    /**
     * A copy with apiVersion, kind, metadata first, as kube-apiserver writes objects, and without
     * {@code metadata.resourceVersion}; shallow (the values are the object's own, and only read).
     */
    private ObjectNode canonicalOrder(ObjectNode object) {
        ObjectNode out = Json.object();
        out.put("apiVersion", stored.apiVersion());
        out.put("kind", stored.kind());
        JsonNode meta = object.get("metadata");
        if (meta instanceof ObjectNode m && m.has("resourceVersion")) {
            ObjectNode copy = Json.object();
            m.properties().forEach(e -> {
                if (!e.getKey().equals("resourceVersion")) {
                    copy.set(e.getKey(), e.getValue());
                }
            });
            meta = copy;
        }
        out.set("metadata", meta);
        object.properties().forEach(e -> {
            if (!out.has(e.getKey())) {
                out.set(e.getKey(), e.getValue());
            }
        });
        return out;
    }
}
