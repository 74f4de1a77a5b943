package io.kapi.endpoint.handlers;

/**
 * What the verb handlers need from the codec and validation layers.
 *
 * @param decoder reads request bodies
 * @param encoder writes responses
 * @param schemaCheck validates bodies against their schema
 */
public record Codecs(BodyDecoder decoder, ResponseEncoder encoder, SchemaCheck schemaCheck) {
}
