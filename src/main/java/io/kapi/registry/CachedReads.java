package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.storage.Storage;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.CachedObject;
import io.kapi.storage.cache.ResourceCache;
import io.kapi.storage.cache.SharedFrames;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Reads served by the resource's watch cache, kube-apiserver's cacher: what the cache cannot answer
 * (exact versions, continue tokens, paged consistent lists) goes to {@link DirectReads}, as kube's
 * {@code shouldDelegateList}; a consistent read waits for the cache to reach storage's current revision
 * (through a progress notification when nothing of the resource changed) and falls back to storage
 * when it does not in time; a version the cache must reach first is a 504 when it does not.
 */
final class CachedReads implements ObjectReads {

    private final ApiResource resource;
    private final Storage storage;
    private final ObjectKeys keys;
    private final ResourceCache cache;
    private final DirectReads direct;

    CachedReads(ResourceDefinition definition, Storage storage, ResourceCache cache, DirectReads direct) {
        this.resource = definition.api();
        this.storage = storage;
        this.keys = definition.keys();
        this.cache = cache;
        this.direct = direct;
    }

    @Override
    public Optional<ObjectNode> find(String namespace, String name) {
        return direct.find(namespace, name);
    }

    @Override
    public Optional<ObjectNode> get(String namespace, String name, String rv) {
        if (rv == null || rv.isEmpty()) {
            return direct.find(namespace, name);
        }
        long revision = ResourceVersions.parse(rv);
        if (revision > 0 && !cache.awaitRevision(revision)) {
            throw StorageErrors.tooLarge(cache.tooLarge(revision));
        }
        return cache.get(keys.key(namespace, name)).map(o -> o.object().deepCopy());
    }

    /**
     * As {@link #get}, without copying the cache's object. A consistent read (no {@code rv}) is served by
     * the cache too when storage knows its revision in this process, the cache has already started and has
     * already applied every write up to that revision: it then holds what storage holds (kube-apiserver
     * reads such a GET from etcd; the answer is the same, without decoding the value again). A cache still
     * behind is not waited for: under writes, a read right after the client's own write would wait for the
     * cache to apply it, which costs more than the decoding it saves; storage answers instead. So does
     * storage for a value the cache could not read (whose error storage words as kube does).
     */
    @Override
    public Optional<SharedObject> getShared(String namespace, String name, String rv) {
        if (rv == null || rv.isEmpty()) {
            if (storage.localRevision() && cache.started() && cache.currentAt(storage.currentRevision())) {
                Optional<CachedObject> cached = cachedOrUnreadable(keys.key(namespace, name));
                if (cached != null) {
                    return cached.map(o -> new SharedObject(o.object(), o.encodings()));
                }
            }
            return direct.find(namespace, name).map(o -> new SharedObject(o, null));
        }
        long revision = ResourceVersions.parse(rv);
        if (revision > 0 && !cache.awaitRevision(revision)) {
            throw StorageErrors.tooLarge(cache.tooLarge(revision));
        }
        return cache.get(keys.key(namespace, name)).map(o -> new SharedObject(o.object(), o.encodings()));
    }

    /** The cached object at {@code key} (empty when absent), or null when the cache holds it unreadable. */
    private Optional<CachedObject> cachedOrUnreadable(String key) {
        try {
            return cache.get(key);
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    @Override
    public ListResult list(String namespace, ListOptions options) {
        return list(namespace, options, true);
    }

    /** The cache's own objects, not copies: a LIST of 10,000 objects then costs references, not a second tree. */
    @Override
    public ListResult listShared(String namespace, ListOptions options) {
        return list(namespace, options, false);
    }

    private ListResult list(String namespace, ListOptions options, boolean copy) {
        boolean hasToken = options.continueToken() != null && !options.continueToken().isEmpty();
        if (delegate(options, hasToken)) {
            return direct.list(namespace, options);
        }
        long rv = ResourceVersions.parse(options.resourceVersion());
        if (options.resourceVersion().isEmpty()) {
            if (!cache.awaitRevision(storage.currentRevision())) {
                return direct.list(namespace, options);
            }
        } else if (rv > 0 && !cache.awaitRevision(rv)) {
            throw StorageErrors.tooLarge(cache.tooLarge(rv));
        }
        String prefix = keys.collection(namespace);
        int limit = options.limit() > 0 ? (int) Math.min(options.limit(), Integer.MAX_VALUE) : 0;
        ResourceCache.Page page = cache.list(scope(namespace, options), null, limit, filter(options));
        List<ObjectNode> items = new ArrayList<>(page.items().size());
        List<SharedFrames> encodings = copy ? null : new ArrayList<>(page.items().size());
        for (CachedObject o : page.items()) {
            items.add(copy ? o.object().deepCopy() : o.object());
            if (encodings != null) {
                encodings.add(o.encodings());
            }
        }
        String revision = Long.toString(page.revision());
        if (page.lastKey() == null) {
            return new ListResult(items, revision, null, null, encodings);
        }
        String next = new ContinueToken(page.revision(), page.lastKey().substring(prefix.length()) + "\0").encode();
        boolean unfiltered = options.labelSelector().isEverything() && options.fieldSelector().isEverything();
        return new ListResult(items, revision, next, unfiltered ? page.remaining() : null, encodings);
    }

    /** kube-apiserver's {@code shouldDelegateList}: which lists the watch cache cannot answer. */
    private static boolean delegate(ListOptions options, boolean hasToken) {
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

    /**
     * Watches from "" or "0" (or with {@code sendInitialEvents=true}) start with the current state as
     * ADDED events (consistent for "", after waiting for the cache), then an initial-events-end; from a
     * version, only the changes after it. A start kube-apiserver refuses with an ERROR event (410 too old,
     * 504 too large) is the watch's only delivery.
     */
    @Override
    public CacheWatch watch(String namespace, ListOptions options) {
        long rv = ResourceVersions.parse(options.resourceVersion());
        String scope = scope(namespace, options);
        if (ResourceVersions.initialEvents(options)) {
            long wanted = options.resourceVersion().isEmpty() ? storage.currentRevision() : rv;
            if (!cache.awaitRevision(wanted)) {
                return CacheWatch.failed(cache.tooLarge(wanted));
            }
            return cache.watch(scope, filter(options), 0, true);
        }
        long from = rv;
        if (options.resourceVersion().isEmpty()) {
            from = storage.currentRevision();
            cache.awaitRevision(from);
        } else if (rv == 0) {
            from = cache.revision();
        }
        return cache.watch(scope, filter(options), from, false);
    }

    /** The key range a list or watch needs: the namespace, or one object's key when the name is pinned. */
    private String scope(String namespace, ListOptions options) {
        String name = options.fieldSelector().pinned("metadata.name");
        if (name != null && (!namespace.isEmpty() || !resource.namespaced())) {
            return keys.key(namespace, name);
        }
        return keys.collection(namespace);
    }

    private static Predicate<CachedObject> filter(ListOptions options) {
        LabelSelector labels = options.labelSelector();
        FieldSelector fields = options.fieldSelector();
        if (labels.isEverything() && fields.isEverything()) {
            return o -> true;
        }
        return o -> labels.matches(o.labels()) && (fields.isEverything() || fields.matches(o.fields()));
    }
}
