package io.kapi.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionResource;

/**
 * The one write admission plugins make: the ResourceQuota plugin charges a quota by updating its status
 * (compare-and-swap on the resourceVersion the object carries), as the API server's loopback client.
 */
@FunctionalInterface
public interface ObjectWriter {

    /**
     * Replaces the status of {@code object} (its resourceVersion is the precondition).
     *
     * @throws io.kapi.machinery.ApiException Conflict when it changed meanwhile
     */
    ObjectNode updateStatus(GroupVersionResource resource, ObjectNode object);

    ObjectWriter NONE = (resource, object) -> {
        throw new UnsupportedOperationException("no writer for " + resource);
    };
}
