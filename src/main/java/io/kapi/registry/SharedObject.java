package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.storage.cache.SharedFrames;

/**
 * An object read for a response only: possibly the watch cache's own, shared with every other reader, so
 * never to be changed (copy it first). When it is the cache's, {@code encodings} are its wire forms, made
 * by the first response that needs one and reused by the next: a GET then copies bytes instead of
 * encoding the object again.
 *
 * @param encodings the cache's encodings of {@code object}, or null when it is not the cache's (read from
 *     storage, or converted to another version)
 */
public record SharedObject(ObjectNode object, SharedFrames encodings) {
}
