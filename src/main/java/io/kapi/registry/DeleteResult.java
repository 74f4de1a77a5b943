package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The outcome of a delete.
 *
 * @param object the object as deleted, or, when {@code deleted} is false, as it now stands
 *        (with deletionTimestamp set, waiting for its finalizers); null when a value that could not be read was
 *        removed as it was ({@link DeleteOptions#ignoreStoreReadErrors})
 * @param deleted whether the object is gone from storage
 */
public record DeleteResult(ObjectNode object, boolean deleted) {
}
