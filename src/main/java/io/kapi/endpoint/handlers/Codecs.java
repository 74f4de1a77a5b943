package io.kapi.endpoint.handlers;

/**
 * What the verb handlers need from the layers below: request decoding, response writing, field
 * management. Everything else a write needs happens in the store.
 *
 * @param decoder reads request bodies
 * @param writer writes responses
 * @param fields the fieldManager option and server-side apply
 */
public record Codecs(BodyDecoder decoder, ResponseWriter writer, FieldTracking fields) {
}
