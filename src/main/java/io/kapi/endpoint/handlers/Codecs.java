package io.kapi.endpoint.handlers;

/**
 * What the verb handlers need from the layers below: codecs, schema validation, field management.
 *
 * @param decoder reads request bodies
 * @param writer writes responses
 * @param schemaCheck validates bodies against their schema
 * @param fields records managed fields of writes
 */
public record Codecs(BodyDecoder decoder, ResponseWriter writer, SchemaCheck schemaCheck, FieldTracking fields) {
}
