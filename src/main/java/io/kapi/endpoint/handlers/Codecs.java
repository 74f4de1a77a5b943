package io.kapi.endpoint.handlers;

/**
 * What the verb handlers need from the codec and validation layers.
 *
 * @param decoder reads request bodies
 * @param writer writes responses
 * @param schemaCheck validates bodies against their schema
 */
public record Codecs(BodyDecoder decoder, ResponseWriter writer, SchemaCheck schemaCheck) {
}
