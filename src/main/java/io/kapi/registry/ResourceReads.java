package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageException;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.ResourceCache;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The reads of one resource's store: checks and normalises the options of get, list and watch
 * (resourceVersion rules, selectable fields, a namespace pinned by the field selector), then asks the
 * resource's {@link ObjectReads}: the cached one when the resource has a watch cache, else storage.
 *
 * <p>Both hold stored objects (the storage version); selection runs on them (selectable fields name
 * paths of the stored object, and the cache computes those of every served version at once), and what
 * is returned here is converted to the version this store serves. Watch events are converted once per
 * event and served version, and shared by its watchers ({@link ConvertedWatch}).
 */
final class ResourceReads {

    private final ApiResource resource;
    private final SelectableFields selectable;
    private final ObjectReads reads;
    private final ResourceCache cache;
    private final ObjectKeys keys;
    private final ServedVersion served;
    private final ObjectCodec codec;

    /** @param cache the resource's watch cache, or null to serve reads from storage and no watches */
    ResourceReads(ResourceDefinition definition, Storage storage, ObjectCodec codec, ResourceCache cache) {
        this.resource = definition.api();
        this.selectable = definition.selectable();
        this.served = new ServedVersion(definition);
        DirectReads direct = new DirectReads(definition, storage, codec);
        this.reads = cache == null ? direct : new CachedReads(definition, storage, cache, direct);
        this.cache = cache;
        this.keys = definition.keys();
        this.codec = codec;
    }

    /** The object, or empty when it does not exist. */
    Optional<ObjectNode> find(String namespace, String name) {
        try {
            return reads.find(namespace, name).map(served::served);
        } catch (StorageException e) {
            throw StorageErrors.interpret(e, gvr(), name);
        }
    }

    /** The object as the watch cache holds it now (may lag the latest write), else as stored; or empty. */
    Optional<ObjectNode> findCached(String namespace, String name) {
        try {
            return reads.get(namespace, name, "0").map(served::served);
        } catch (StorageException e) {
            throw StorageErrors.interpret(e, gvr(), name);
        }
    }

    /** {@link #findCached} to read only: the watch cache's own object where it is stored as served. Never change it. */
    Optional<ObjectNode> findCachedShared(String namespace, String name) {
        try {
            return reads.getShared(namespace, name, "0").map(this::servedShared);
        } catch (StorageException e) {
            throw StorageErrors.interpret(e, gvr(), name);
        }
    }

    /** @throws ApiException NotFound */
    ObjectNode get(String namespace, String name) {
        return find(namespace, name).orElseThrow(() -> ApiException.notFound(gvr(), name));
    }

    /**
     * Gets an object as of {@code resourceVersion}, as kube-apiserver: unset reads storage (the latest,
     * consistent), "0" the cache as it is, a version the cache once it reached that version.
     *
     * @throws ApiException NotFound; BadRequest for a malformed version; Timeout (504,
     *         ResourceVersionTooLarge) when the cache does not reach the version within 3 s
     */
    ObjectNode get(String namespace, String name, String resourceVersion) {
        try {
            return reads.get(namespace, name, resourceVersion).map(served::served)
                    .orElseThrow(() -> ApiException.notFound(gvr(), name));
        } catch (StorageException e) {
            throw StorageErrors.interpret(e, gvr(), name);
        }
    }

    /**
     * Lists a namespace (or every namespace when {@code namespace} is empty), one page at a time,
     * keeping the objects both selectors match. The resourceVersion rules are kube-apiserver's: unset
     * is a consistent read (from the cache once it caught up with storage, or from storage when paged);
     * "0" reads the cache as it is; {@code NotOlderThan} (or a version without match and without limit)
     * the cache once it reached that version; {@code Exact} (or a version with a limit) the storage
     * snapshot of that version; a continue token the snapshot it names.
     *
     * @throws ApiException BadRequest for a field the resource cannot be selected by, a bad token or a
     *         resourceVersion with a token; Invalid (422) for bad resourceVersionMatch combinations; Expired
     *         (410) for a token or exact version older than the kept history; Timeout (504) for a version
     *         the server does not reach within 3 s
     */
    ListResult list(String namespace, ListOptions options) {
        ListResult page = read(namespace, options, false);
        if (!served.converts()) {
            return page;
        }
        return new ListResult(served.served(page.items()), page.resourceVersion(),
                page.continueToken(), page.remainingItemCount());
    }

    /**
     * {@link #get} for a response only: the watch cache's own object with its encodings when the resource is
     * stored as served, else a private object. Never change it.
     */
    SharedObject getShared(String namespace, String name, String resourceVersion) {
        try {
            SharedObject read = reads.getShared(namespace, name, resourceVersion)
                    .orElseThrow(() -> ApiException.notFound(gvr(), name));
            return served.converts() ? new SharedObject(servedShared(read), null) : read;
        } catch (StorageException e) {
            throw StorageErrors.interpret(e, gvr(), name);
        }
    }

    /** {@code read}'s object in the served version: itself when stored so, else a converted copy. */
    private ObjectNode servedShared(SharedObject read) {
        if (!served.converts()) {
            return read.object();
        }
        return read.encodings() == null ? served.served(read.object()) : served.servedCopy(read.object());
    }

    /** {@link #list} with items that may be the watch cache's own: read them, never change them. */
    ListResult listShared(String namespace, ListOptions options) {
        return served.converts() ? list(namespace, options) : read(namespace, options, true);
    }

    private ListResult read(String namespace, ListOptions options, boolean shared) {
        ResourceVersions.validateList(options);
        selectable.check(options.fieldSelector());
        String scope = pinned(namespace, options);
        try {
            return shared ? reads.listShared(scope, options) : reads.list(scope, options);
        } catch (StorageException e) {
            throw StorageErrors.interpret(e, gvr(), "");
        } catch (ResourceCache.Unreadable e) {
            throw unreadable(e);
        }
    }

    /**
     * Watches a namespace (or all), kube-apiserver's rules (see {@link CachedReads#watch}).
     *
     * @throws ApiException Invalid (422) for bad option combinations, BadRequest for a field the resource
     *         cannot be selected by or a malformed version, MethodNotAllowed when the resource has no cache
     */
    CacheWatch watch(String namespace, ListOptions options) {
        ResourceVersions.validateWatch(options);
        selectable.check(options.fieldSelector());
        CacheWatch watch;
        try {
            watch = reads.watch(pinned(namespace, options), options);
        } catch (StorageException e) {
            throw StorageErrors.forWatch(e);
        }
        return served.converts() ? new ConvertedWatch(watch, resource.gvk().apiVersion(), served) : watch;
    }

    /** See {@link ResourceStore#select}. */
    List<ObjectNode> select(String namespace, Predicate<ObjectNode> keep) {
        if (cache == null) {
            return list(namespace, ListOptions.ALL).items().stream().filter(keep).toList();
        }
        try {
            return cache.list(keys.collection(namespace), null, 0, o -> keep.test(o.object())).items().stream()
                    .map(o -> served.servedCopy(o.object())).toList();
        } catch (ResourceCache.Unreadable e) {
            throw unreadable(e);
        }
    }

    private RuntimeException unreadable(ResourceCache.Unreadable e) {
        return codec.listError(e.errors(), resource.group(), resource.name());
    }

    /** A list of all namespaces whose field selector pins one is a list of that namespace. */
    private String pinned(String namespace, ListOptions options) {
        String pinnedNamespace = options.fieldSelector().pinned("metadata.namespace");
        return namespace.isEmpty() && pinnedNamespace != null && resource.namespaced() ? pinnedNamespace : namespace;
    }

    private GroupVersionResource gvr() {
        return resource.gvr();
    }
}
