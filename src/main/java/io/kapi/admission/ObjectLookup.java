package io.kapi.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionResource;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The read-only view of other objects admission plugins get (kube's informers/listers): a plugin
 * reads what it needs and nothing else of the server. Returned objects are the caller's copies.
 */
public interface ObjectLookup {

    /** The object, or empty when it or its resource does not exist. */
    Optional<ObjectNode> get(GroupVersionResource resource, String namespace, String name);

    /**
     * The object as the server's watch cache holds it now (kube's listers): cheaper than {@link #get},
     * but it may lag the latest write. Empty when it or its resource does not exist (or is not cached yet).
     */
    default Optional<ObjectNode> cached(GroupVersionResource resource, String namespace, String name) {
        return get(resource, namespace, name);
    }

    /**
     * What {@code read} takes from the object as {@link #cached} finds it, the watch cache's own object
     * given to {@code read} without a copy where the server can: {@code read} must not change it or keep it.
     * Empty when the object is not found.
     */
    default <T> Optional<T> readCached(GroupVersionResource resource, String namespace, String name,
                                       Function<? super ObjectNode, ? extends T> read) {
        return cached(resource, namespace, name).map(read);
    }

    /**
     * The object as the watch cache holds it, or as storage does when the cache has none (not there yet, or
     * not cached): kube's service-account token getter, a lister first and then a live GET. Cheap for the
     * objects that exist; what a per-request check that must see a new object at once should read.
     */
    default Optional<ObjectNode> cachedOrStored(GroupVersionResource resource, String namespace, String name) {
        Optional<ObjectNode> cached = cached(resource, namespace, name);
        return cached.isPresent() ? cached : get(resource, namespace, name);
    }

    /** Every object of a resource in {@code namespace} ("" for all, or for cluster-scoped ones). */
    List<ObjectNode> list(GroupVersionResource resource, String namespace);

    /**
     * {@link #list} as the server's watch cache holds the objects now (kube's listers): no storage read, but it
     * may lag the latest write. What a per-request lookup (a Service's endpoints) should read.
     */
    default List<ObjectNode> cachedList(GroupVersionResource resource, String namespace) {
        return list(resource, namespace);
    }
}
