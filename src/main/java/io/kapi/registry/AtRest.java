package io.kapi.registry;

import io.kapi.storage.ValueTransformer;
import java.util.List;
import java.util.function.BiFunction;

/**
 * How objects are kept at rest: the media type built-in kinds are encoded in (custom resources are
 * always JSON, as on kube-apiserver) and each resource's value transformer (encryption at rest).
 * Whatever the media type, values of the other encodings are read too (see {@link ObjectCodec}).
 *
 * @param mediaType {@code --storage-media-type}: one of {@link #MEDIA_TYPES}
 * @param transformers the transformer of a resource, by group ({@code ""} for the core group) and plural
 * @param unsafeDeletionGate kube's {@code AllowUnsafeMalformedObjectDeletion}: with it a value that cannot be
 *        read is a corrupt-object error naming its key, and a LIST gathers all it meets into one error
 *        ({@link ListReadErrors}), as kube's store wraps its transformer and decoder under the gate
 */
public record AtRest(String mediaType, BiFunction<String, String, ValueTransformer> transformers,
                     boolean unsafeDeletionGate) {

    public static final String JSON = "application/json";
    public static final String YAML = "application/yaml";
    public static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

    /** The media types kube-apiserver stores in, sorted as its error lists them. */
    public static final List<String> MEDIA_TYPES = List.of(JSON, PROTOBUF, YAML);

    /** JSON, unencrypted: what Kapi wrote before {@code --storage-media-type}. */
    public static final AtRest PLAIN = new AtRest(JSON, (group, resource) -> ValueTransformer.IDENTITY);

    public AtRest(String mediaType, BiFunction<String, String, ValueTransformer> transformers) {
        this(mediaType, transformers, false);
    }

    public AtRest {
        if (!MEDIA_TYPES.contains(mediaType)) {
            throw new IllegalArgumentException("--storage-media-type \"" + mediaType + "\" invalid, allowed values: "
                    + String.join(", ", MEDIA_TYPES));
        }
    }

    /** These settings with built-in kinds stored as {@code mediaType}. */
    public AtRest withMediaType(String mediaType) {
        return new AtRest(mediaType, transformers, unsafeDeletionGate);
    }

    /** These settings with kube's {@code AllowUnsafeMalformedObjectDeletion} gate as {@code enabled}. */
    public AtRest withUnsafeDeletionGate(boolean enabled) {
        return new AtRest(mediaType, transformers, enabled);
    }

    /** The transformer of values stored for {@code definition}. */
    ValueTransformer transformer(ResourceDefinition definition) {
        return transformers.apply(definition.api().group(), definition.api().name());
    }
}
