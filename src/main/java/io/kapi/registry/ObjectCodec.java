package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.conversion.Converter;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.machinery.protobuf.StoredMessage;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.storage.KeyValue;
import io.kapi.storage.ValueTransformer;
import java.io.IOException;
import java.util.List;

/**
 * How one resource's objects are written to and read from storage, as kube-apiserver's storage codec:
 * built-in kinds in {@code --storage-media-type} ({@code k8s\0} and a {@code runtime.Unknown} for
 * protobuf, kube's default), custom resources, CRDs and APIServices always in JSON, each with {@code apiVersion} and
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
    private final Converter form;
    private final boolean unsafeDeletionGate;

    /**
     * @param stored the kind objects are stored as ({@link ResourceDefinition#storedKind})
     * @param transformer what happens to the encoded bytes on their way to the store and back
     * @param mediaType the media type to write; protobuf only where {@code stored} has a message
     * @param form the version kube-apiserver keeps them in at rest, when not {@code stored}'s
     *        ({@link ResourceBehaviour#atRest()})
     * @param unsafeDeletionGate kube's {@code AllowUnsafeMalformedObjectDeletion}: how unreadable values are worded
     */
    ObjectCodec(GroupVersionKind stored, ValueTransformer transformer, String mediaType, Converter form,
                boolean unsafeDeletionGate) {
        this.stored = stored;
        this.unsafeDeletionGate = unsafeDeletionGate;
        this.transformer = transformer;
        this.form = form;
        this.format = switch (mediaType) {
            case AtRest.PROTOBUF -> ProtobufCodec.supports(stored) ? Format.PROTOBUF : Format.JSON;
            case AtRest.YAML -> Format.YAML;
            default -> Format.JSON;
        };
    }

    /** The codec of {@code definition}'s stored objects, kept as {@code atRest} says. */
    static ObjectCodec of(ResourceDefinition definition, AtRest atRest) {
        return new ObjectCodec(definition.storedKind(), atRest.transformer(definition), mediaType(definition, atRest),
                definition.behaviour().atRest(), atRest.unsafeDeletionGate());
    }

    /**
     * The media type {@code definition}'s objects are written in: custom resources always JSON, and so are
     * CRDs and APIServices (kube-apiserver's apiextensions and aggregator servers store with a JSON codec
     * of their own, whatever {@code --storage-media-type} says); the rest as the flag says.
     */
    static String mediaType(ResourceDefinition definition, AtRest atRest) {
        String group = definition.api().group();
        return definition.custom() != null || group.equals("apiextensions.k8s.io")
                || group.equals("apiregistration.k8s.io") ? AtRest.JSON : atRest.mediaType();
    }

    /** The value to store at {@code key} for {@code object}. */
    byte[] encode(ObjectNode object, String key) {
        return transformer.toStorage(encode(object), key);
    }

    private byte[] encode(ObjectNode object) {
        ObjectNode stored = form == Converter.NONE ? canonicalOrder(object) : form.toStorage(canonicalOrder(object));
        try {
            return switch (format) {
                case PROTOBUF -> ProtobufCodec.encode(stored, this.stored);
                case JSON -> Json.MAPPER.writeValueAsBytes(stored);
                case YAML -> Json.yaml().writeValueAsBytes(stored);
            };
        } catch (IOException | IllegalArgumentException e) {
            throw ApiException.internal("cannot encode object: " + e.getMessage());
        }
    }

    private static String cause(Throwable e) {
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

    /**
     * The object stored in {@code kv}.
     *
     * @throws ApiException 500 when the value cannot be read, worded as kube's store words it
     *         ({@link CorruptValue#readError}); a LIST gathers them with {@link #listError}
     */
    ObjectNode decode(KeyValue kv) {
        return read(kv).object();
    }

    /**
     * A stored object as {@link #decode} reads it, with its protobuf message in the stored value where the
     * object is that message as stored (protobuf, not converted from another form): null otherwise.
     */
    ProtobufCodec.Stored read(KeyValue kv) {
        byte[] value;
        try {
            value = transformer.fromStorage(kv.value(), kv.key());
        } catch (RuntimeException e) {
            throw new CorruptValue(kv.key(), true, 0, String.valueOf(e.getMessage())).readError(unsafeDeletionGate);
        }
        try {
            ObjectNode object;
            StoredMessage message = null;
            if (ProtobufCodec.hasPrefix(value)) {
                ProtobufCodec.Stored stored = ProtobufCodec.readStored(value);
                object = stored.object();
                message = stored.message();
            } else {
                object = (ObjectNode) (isJson(value) ? Json.COMPACT_READER : YAML).readTree(value);
            }
            if (form != Converter.NONE) {
                object = form.fromStorage(object);
                message = null;
            }
            ObjectMeta.of(object).resourceVersion(Long.toString(kv.modRevision()));
            return new ProtobufCodec.Stored(object, message);
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw new CorruptValue(kv.key(), false, kv.modRevision(), cause(e)).readError(unsafeDeletionGate);
        }
    }

    /**
     * What a LIST answers that met the unreadable values whose read errors are {@code errors} (in key order):
     * see {@link ListReadErrors}.
     */
    RuntimeException listError(List<RuntimeException> errors, String group, String resource) {
        return ListReadErrors.of(errors, unsafeDeletionGate, group, resource);
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
