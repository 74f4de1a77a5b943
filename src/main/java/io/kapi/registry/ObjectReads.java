package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.storage.cache.CacheWatch;
import java.util.Optional;

/**
 * The reads of one resource's objects, kube-apiserver's {@code storage.Interface} read half: get, list
 * and watch under kube's resourceVersion rules. Two implementations behind it: {@link DirectReads}
 * reads storage; {@link CachedReads} serves from the resource's watch cache what the cache can answer
 * and hands the rest to storage, as kube's cacher delegates. Callers pass options already validated
 * ({@link ResourceReads} does that); errors are {@link io.kapi.machinery.ApiException}s made by
 * {@link StorageErrors}.
 */
interface ObjectReads {

    /** The object as now stored (a consistent read), or empty. */
    Optional<ObjectNode> find(String namespace, String name);

    /** The object as of {@code rv} ("" the latest, "0" any, a version not older than it). */
    Optional<ObjectNode> get(String namespace, String name, String rv);

    /**
     * {@link #get}, for a caller that only reads the object (a response being encoded): it may be the
     * watch cache's own, with its encodings. Never change it.
     */
    default Optional<SharedObject> getShared(String namespace, String name, String rv) {
        return get(namespace, name, rv).map(o -> new SharedObject(o, null));
    }

    /** One page of a list of {@code namespace} ("" for all); its items are the caller's. */
    ListResult list(String namespace, ListOptions options);

    /**
     * {@link #list}, with items that may be shared with others (the watch cache's own objects): for a
     * caller that only reads them, such as a response being encoded. Never change them.
     */
    default ListResult listShared(String namespace, ListOptions options) {
        return list(namespace, options);
    }

    /** A watch of {@code namespace} ("" for all). */
    CacheWatch watch(String namespace, ListOptions options);
}
