package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * How an update makes the object to store from the stored one (kube's {@code UpdatedObjectInfo}): a
 * PUT returns its body, a patch applies itself, server-side apply merges, a subresource changes its
 * part. The store calls it once per attempt with a fresh private copy of the current object, so a
 * transform may change its argument and return it, and is retried on a concurrent write.
 */
@FunctionalInterface
public interface Transform {

    /**
     * @param current the stored object (resourceVersion set), or null when there is none and the write
     *        may create it
     * @return the object to store; the resourceVersion it carries is the update's precondition (the
     *         current one for a patch that names none)
     */
    ObjectNode apply(ObjectNode current);
}
