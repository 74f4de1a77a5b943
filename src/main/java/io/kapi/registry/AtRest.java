package io.kapi.registry;

import io.kapi.storage.ValueTransformer;
import java.util.function.BiFunction;

/**
 * How objects are kept at rest: the media type built-in kinds are encoded in (custom resources are
 * always JSON, as on kube-apiserver) and each resource's value transformer (encryption at rest).
 *
 * @param mediaType {@code --storage-media-type}: {@code application/json} or {@code application/vnd.kubernetes.protobuf}
 * @param transformers the transformer of a resource, by group ({@code ""} for the core group) and plural
 */
public record AtRest(String mediaType, BiFunction<String, String, ValueTransformer> transformers) {

    public static final String JSON = "application/json";

    /** JSON, unencrypted: what Kapi has written so far. */
    public static final AtRest PLAIN = new AtRest(JSON, (group, resource) -> ValueTransformer.IDENTITY);

    /** The transformer of values stored for {@code definition}. */
    ValueTransformer transformer(ResourceDefinition definition) {
        return transformers.apply(definition.api().group(), definition.api().name());
    }
}
