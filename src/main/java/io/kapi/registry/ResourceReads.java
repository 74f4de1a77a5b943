package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.storage.KeyValue;
import io.kapi.storage.RangeResult;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageException;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.CachedObject;
import io.kapi.storage.cache.ResourceCache;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The reads of one resource's store: get, list and watch with kube-apiserver's resourceVersion rules,
 * served from storage or from the resource's watch cache. Both hold stored objects (storage version);
 * selection runs on them (selectable fields name paths of the stored object), and what is returned is
 * converted to the served version; watch events once per served version (see {@link ConvertedWatch}).
 */
final class ResourceReads {

    private final ApiResource resource;
    private final Storage storage;
    private final ObjectKeys keys;
    private final ObjectCodec codec;
    private final ServedVersion served;
    private final SelectableFields selectable;
    private final ResourceCache cache;
    private final String apiVersion;

    /** @param cache the resource's watch cache, or null to serve reads from storage and no watches */
    ResourceReads(ResourceDefinition definition, Storage storage, ObjectCodec codec, ServedVersion served,
                  ResourceCache cache) {
        this.resource = definition.api();
        this.storage = storage;
        this.keys = definition.keys();
        this.codec = codec;
        this.served = served;
        this.apiVersion = definition.api().gvk().apiVersion();
        this.selectable = definition.selectable();
        this.cache = cache;
    }

    /** The object, or empty when it does not exist. */
    java.util.Optional<ObjectNode> find(String namespace, String name) {
        return storage.get(keys.key(namespace, name)).map(this::decode);
    }

    /** A stored object decoded and converted to the served version. */
    private ObjectNode decode(KeyValue kv) {
        return served.served(ObjectCodec.decode(kv));
    }

    /** @throws ApiException NotFound */
    ObjectNode get(String namespace, String name) {
        String key = keys.key(namespace, name);
        return storage.get(key).map(this::decode).orElseThrow(() -> ApiException.notFound(gvr(), name));
    }

    /**
     * Gets an object as of {@code resourceVersion}, as kube-apiserver: unset reads storage (the latest,
     * consistent), "0" the cache as it is, a version the cache once it reached that version.
     *
     * @throws ApiException NotFound; BadRequest for a malformed version; Timeout (504,
     *         ResourceVersionTooLarge) when the cache does not reach the version within 3 s
     */
    ObjectNode get(String namespace, String name, String resourceVersion) {
        if (cache == null || resourceVersion == null || resourceVersion.isEmpty()) {
            return get(namespace, name);
        }
        long rv = ResourceVersions.parse(resourceVersion);
        if (rv > 0 && !cache.awaitRevision(rv)) {
            throw StorageErrors.tooLarge(cache.tooLarge(rv));
        }
        return cache.get(keys.key(namespace, name)).map(o -> served.servedCopy(o.object()))
                .orElseThrow(() -> ApiException.notFound(gvr(), name));
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
        ResourceVersions.validateList(options);
        selectable.check(options.fieldSelector());
        String pinnedNamespace = options.fieldSelector().pinned("metadata.namespace");
        if (namespace.isEmpty() && pinnedNamespace != null && resource.namespaced()) {
            namespace = pinnedNamespace;
        }
        boolean hasToken = options.continueToken() != null && !options.continueToken().isEmpty();
        long rv = ResourceVersions.parse(options.resourceVersion());
        if (cache != null && !fromStorage(options, hasToken)) {
            ListResult cached = listFromCache(namespace, options, rv);
            if (cached != null) {
                return cached;
            }
        }
        String pinnedName = options.fieldSelector().pinned("metadata.name");
        if (pinnedName != null && !hasToken && rv == 0 && (!namespace.isEmpty() || !resource.namespaced())) {
            return listOne(namespace, pinnedName, options);
        }
        String prefix = keys.collection(namespace);
        ContinueToken from = ContinueToken.decode(options.continueToken());
        if (from != null && !options.resourceVersion().isEmpty() && !options.resourceVersion().equals("0")) {
            throw ApiException.badRequest("specifying resource version is not allowed when using continue");
        }
        String startKey = from == null ? null : prefix + from.start();
        long revision = from != null ? from.revision() : exactRevision(options, rv);
        if (revision > storage.currentRevision()) {
            throw StorageErrors.tooLarge(new StorageException.ResourceVersionTooLarge(revision, storage.currentRevision()));
        }
        if (from == null && revision == 0 && rv > storage.currentRevision()) {
            throw StorageErrors.tooLarge(new StorageException.ResourceVersionTooLarge(rv, storage.currentRevision()));
        }
        List<ObjectNode> items = new ArrayList<>();
        int limit = options.limit() > 0 ? (int) Math.min(options.limit(), Integer.MAX_VALUE) : 0;
        RangeResult page;
        try {
            do {
                int want = limit == 0 ? 0 : limit - items.size();
                page = storage.range(prefix, startKey, want, revision);
                revision = page.revision();
                for (KeyValue kv : page.items()) {
                    ObjectNode object = ObjectCodec.decode(kv);
                    if (matches(object, options)) {
                        items.add(served.served(object));
                    }
                    startKey = kv.key() + "\0";
                }
            } while (page.more() && limit > 0 && items.size() < limit);
        } catch (StorageException.Compacted e) {
            throw ApiException.gone(ContinueToken.EXPIRED_MESSAGE);
        }
        if (!page.more()) {
            return new ListResult(items, Long.toString(revision), null, null);
        }
        String next = new ContinueToken(revision, startKey.substring(prefix.length())).encode();
        boolean unfiltered = options.labelSelector().isEverything() && options.fieldSelector().isEverything();
        return new ListResult(items, Long.toString(revision), next, unfiltered ? page.remaining() : null);
    }

    /** kube-apiserver's {@code shouldDelegateList}: which lists the watch cache cannot answer. */
    private static boolean fromStorage(ListOptions options, boolean hasToken) {
        String match = options.resourceVersionMatch();
        String rv = options.resourceVersion();
        if (match.equals(ResourceVersions.EXACT) || hasToken) {
            return true;
        }
        if (match.isEmpty() && options.limit() > 0 && !rv.isEmpty() && !rv.equals("0")) {
            return true;
        }
        return rv.isEmpty() && options.limit() > 0;
    }

    /** The revision a storage list reads at: the version asked for when it must match exactly, else now. */
    private static long exactRevision(ListOptions options, long rv) {
        boolean exact = options.resourceVersionMatch().equals(ResourceVersions.EXACT)
                || options.resourceVersionMatch().isEmpty() && options.limit() > 0;
        return exact ? rv : 0;
    }

    /** A list served from the cache; null when a consistent read must fall back to storage. */
    private ListResult listFromCache(String namespace, ListOptions options, long rv) {
        if (options.resourceVersion().isEmpty()) {
            if (!cache.awaitRevision(storage.currentRevision())) {
                return null;
            }
        } else if (rv > 0 && !cache.awaitRevision(rv)) {
            throw StorageErrors.tooLarge(cache.tooLarge(rv));
        }
        String prefix = keys.collection(namespace);
        int limit = options.limit() > 0 ? (int) Math.min(options.limit(), Integer.MAX_VALUE) : 0;
        ResourceCache.Page page = cache.list(scope(namespace, options), null, limit, filter(options));
        List<ObjectNode> items = new ArrayList<>(page.items().size());
        for (CachedObject o : page.items()) {
            items.add(served.servedCopy(o.object()));
        }
        String revision = Long.toString(page.revision());
        if (page.lastKey() == null) {
            return new ListResult(items, revision, null, null);
        }
        String next = new ContinueToken(page.revision(), page.lastKey().substring(prefix.length()) + "\0").encode();
        boolean unfiltered = options.labelSelector().isEverything() && options.fieldSelector().isEverything();
        return new ListResult(items, revision, next, unfiltered ? page.remaining() : null);
    }

    /** The key range a list or watch needs: the namespace, or one object's key when the name is pinned. */
    private String scope(String namespace, ListOptions options) {
        String name = options.fieldSelector().pinned("metadata.name");
        if (name != null && (!namespace.isEmpty() || !resource.namespaced())) {
            return keys.key(namespace, name);
        }
        return keys.collection(namespace);
    }

    private Predicate<CachedObject> filter(ListOptions options) {
        LabelSelector labels = options.labelSelector();
        FieldSelector fields = options.fieldSelector();
        if (labels.isEverything() && fields.isEverything()) {
            return o -> true;
        }
        return o -> labels.matches(o.labels()) && (fields.isEverything() || fields.matches(o.fields()));
    }

    /**
     * Watches a namespace (or all), kube-apiserver's rules: from "" or "0" (or with
     * {@code sendInitialEvents=true}) the current state comes first as ADDED events (consistent for "",
     * after waiting for the cache), then a {@link io.kapi.storage.cache.Delivery.InitialEventsEnd};
     * from a version, only the changes after it. Start failures that kube-apiserver sends as an ERROR
     * event (410 too old resource version, 504 too large) come as the watch's only delivery.
     *
     * @throws ApiException Invalid (422) for bad option combinations, BadRequest for a field the resource
     *         cannot be selected by or a malformed version, MethodNotAllowed when the resource has no cache
     */
    CacheWatch watch(String namespace, ListOptions options) {
        ResourceVersions.validateWatch(options);
        selectable.check(options.fieldSelector());
        if (cache == null) {
            throw ApiException.verbNotSupported(gvr(), "watch");
        }
        String pinnedNamespace = options.fieldSelector().pinned("metadata.namespace");
        if (namespace.isEmpty() && pinnedNamespace != null && resource.namespaced()) {
            namespace = pinnedNamespace;
        }
        long rv = ResourceVersions.parse(options.resourceVersion());
        String scope = scope(namespace, options);
        if (ResourceVersions.initialEvents(options)) {
            long wanted = options.resourceVersion().isEmpty() ? storage.currentRevision() : rv;
            if (!cache.awaitRevision(wanted)) {
                return CacheWatch.failed(cache.tooLarge(wanted));
            }
            return converted(cache.watch(scope, filter(options), 0, true));
        }
        long from = rv;
        if (options.resourceVersion().isEmpty()) {
            from = storage.currentRevision();
            cache.awaitRevision(from);
        } else if (rv == 0) {
            from = cache.revision();
        }
        return converted(cache.watch(scope, filter(options), from, false));
    }

    /** A cache watch whose events are in the served version. */
    private CacheWatch converted(CacheWatch watch) {
        return served.converts() ? new ConvertedWatch(watch, apiVersion, served) : watch;
    }

    private ListResult listOne(String namespace, String name, ListOptions options) {
        long revision = storage.currentRevision();
        List<ObjectNode> items = storage.get(keys.key(namespace, name)).map(ObjectCodec::decode)
                .filter(o -> matches(o, options)).map(served::served).stream().toList();
        return new ListResult(items, Long.toString(revision), null, null);
    }

    private boolean matches(ObjectNode object, ListOptions options) {
        return options.labelSelector().matches(ObjectMeta.of(object).labels())
                && (options.fieldSelector().isEverything() || options.fieldSelector().matches(selectable.of(object)));
    }

    private GroupVersionResource gvr() {
        return resource.gvr();
    }
}
