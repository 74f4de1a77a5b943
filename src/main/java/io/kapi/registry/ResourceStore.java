package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.AdmissionChain;
import io.kapi.admission.Attributes;
import io.kapi.admission.Operation;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.DeepStack;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.request.RequestContext;
import io.kapi.storage.KeyValue;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageException;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.ResourceCache;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The generic REST store of one resource (kube-apiserver's {@code registry.Store}): configured, not
 * subclassed, with the resource, its {@link Strategy} and a {@link Storage}. Every write is one pass
 * through the {@link WriteStages} in their fixed order, then a compare-and-swap; a concurrent write
 * makes the pass run again on the newer object (kube's {@code GuaranteedUpdate}), until it succeeds or
 * the request's deadline passes. Storage errors are translated once, here.
 *
 * <p>Objects are stored as JSON without {@code metadata.resourceVersion}; reads set it from the
 * key's modRevision, so the version a client sees is exactly the storage revision.
 *
 * <p><b>Versions.</b> A store serves one version of its resource; objects are stored in the resource's
 * storage version ({@link ResourceDefinition#storedKind}), and several stores (one per served version)
 * may share a storage path. Callers always hand in and get back objects of the served version. Which
 * version each stage of a write runs in, as kube-apiserver (which decodes into the request's version,
 * defaults there, then converts to its internal version for everything else):
 * <ul>
 *   <li><i>served version</i>: the transform (it sees the stored object converted to the served
 *       version), the decode checks, the defaults, managed fields (entries carry the served
 *       {@code apiVersion}; those of other versions are compared in their own), and the required fields
 *       still missing;</li>
 *   <li><i>storage version</i>, after {@link io.kapi.machinery.conversion.Converter#toStorage}: mutating
 *       admission, prepare, validation, validating admission, canonicalize, the no-op check, storage;</li>
 *   <li><i>served version</i> again for what is answered ({@link io.kapi.machinery.conversion.Converter#fromStorage}).</li>
 * </ul>
 * Reads decode the stored object and convert it; the watch cache keeps stored objects, one cache per
 * storage path, and each served version converts what it returns (see {@link ResourceReads}).
 */
public final class ResourceStore {

    /** kube-apiserver retries a generated name this many times; 5 random characters of 27 make a clash rare. */
    private static final int NAME_GENERATION_ATTEMPTS = 8;
    /** Writes without a deadline (the server's own) give up after this many lost races. */
    private static final int ATTEMPTS_WITHOUT_DEADLINE = 1_000;

    private final ApiResource resource;
    private final Strategy strategy;
    private final Strategy statusStrategy;
    private final Storage storage;
    private final ObjectKeys keys;
    private final ObjectCodec codec;
    private final StoreServices services;
    private final WriteStages stages;
    private final ResourceReads reads;
    private final ResourceCache cache;
    private final Deletes deletes;

    private final ResourceDefinition definition;
    private final ServedVersion served;

    /** @param cache the resource's watch cache, or null to serve reads from storage and no watches */
    ResourceStore(ResourceDefinition definition, Storage storage, StoreServices services, ResourceCache cache) {
        this.definition = definition;
        this.resource = definition.api();
        this.strategy = definition.strategy();
        this.statusStrategy = new StatusStrategy(strategy);
        this.storage = storage;
        this.keys = definition.keys();
        this.codec = ObjectCodec.of(definition, services.atRest());
        this.served = new ServedVersion(definition);
        this.services = services;
        this.stages = new WriteStages(definition, services);
        this.reads = new ResourceReads(definition, storage, codec, cache);
        this.cache = cache;
        this.deletes = new Deletes(this, services.clock());
    }

    public ApiResource resource() {
        return resource;
    }

    /** Everything known of the resource. */
    /** What the watch cache holds and how many watch it; empty without a cache. */
    public Optional<ResourceCache.Counts> cacheCounts() {
        return cache == null ? Optional.empty() : Optional.of(cache.counts());
    }

    public ResourceDefinition definition() {
        return definition;
    }

    /** The resource's strategy, for subresources that decorate it. */
    public Strategy strategy() {
        return strategy;
    }

    // ---- reads ----

    /** The object, or empty when it does not exist. */
    public Optional<ObjectNode> find(String namespace, String name) {
        return reads.find(namespace, name);
    }

    /**
     * The object as the watch cache holds it now, as kube's listers read: it may lag the latest write
     * (read storage with {@link #find} when that matters); without a cache, as stored. Empty when absent.
     */
    public Optional<ObjectNode> findCached(String namespace, String name) {
        return reads.findCached(namespace, name);
    }

    /** {@link #findCached} to read only: the watch cache's own object where it is stored as served. Never change it. */
    public Optional<ObjectNode> findCachedShared(String namespace, String name) {
        return reads.findCachedShared(namespace, name);
    }

    /** @throws ApiException NotFound */
    public ObjectNode get(String namespace, String name) {
        return reads.get(namespace, name);
    }

    /**
     * Gets an object as of {@code resourceVersion}, as kube-apiserver: unset reads storage (the latest,
     * consistent), "0" the cache as it is, a version the cache once it reached that version.
     *
     * @throws ApiException NotFound; BadRequest for a malformed version; Timeout (504,
     *         ResourceVersionTooLarge) when the cache does not reach the version within 3 s
     */
    public ObjectNode get(String namespace, String name, String resourceVersion) {
        return reads.get(namespace, name, resourceVersion);
    }

    /**
     * {@link #get(String, String, String)} for a caller that only reads the object (a response being
     * encoded): it may be the watch cache's own, shared with every other reader, with its encodings.
     *
     * @throws ApiException as {@link #get(String, String, String)}
     */
    public SharedObject getShared(String namespace, String name, String resourceVersion) {
        return reads.getShared(namespace, name, resourceVersion);
    }

    /**
     * Lists a namespace (or every namespace when {@code namespace} is empty), one page at a time, with
     * kube-apiserver's resourceVersion rules (see {@link ResourceReads#list}).
     */
    public ListResult list(String namespace, ListOptions options) {
        return reads.list(namespace, options);
    }

    /**
     * {@link #list}, for a caller that only reads the items (a response being encoded): they may be the
     * watch cache's own objects, shared with every other reader, and must never be changed.
     */
    public ListResult listShared(String namespace, ListOptions options) {
        return reads.listShared(namespace, options);
    }

    /**
     * Copies, in this store's version, of the objects of {@code namespace} (every namespace when empty) that
     * {@code keep} selects, as the
     * watch cache holds them now (a controller's informer view: recent, not a consistent read); {@code keep}
     * sees the stored form (metadata is alike in every version), and objects it does not select are not
     * copied.
     */
    public List<ObjectNode> select(String namespace, java.util.function.Predicate<ObjectNode> keep) {
        return reads.select(namespace, keep);
    }

    /** Watches a namespace (or all), kube-apiserver's rules (see {@link ResourceReads#watch}). */
    public CacheWatch watch(String namespace, ListOptions options) {
        return reads.watch(namespace, options);
    }

    // ---- writes ----

    /**
     * Creates an object in {@code namespace} (ignored for cluster-scoped resources): one pass through
     * the {@link WriteStages}, then stored. On a dry run every stage runs and nothing is stored.
     *
     * @throws ApiException AlreadyExists, Invalid, NotFound (namespace), BadRequest (namespace mismatch,
     *         wrong types), Forbidden (admission)
     */
    public ObjectNode create(RequestContext ctx, String namespace, ObjectNode object, Write write) {
        if (!DeepStack.onDeepStack() && DeepStack.isDeep(object)) {
            return DeepStack.call(() -> create(ctx, namespace, object, write));
        }
        WritePass pass = WritePass.create(ctx, write, strategy, namespace, object);
        boolean stored = false;
        try {
            stages.run(pass);
            if (!ctx.dryRun()) {
                store(pass.meta(), pass.object, pass.generatedName);
                stored = true;
            }
            return served.served(pass.object);
        } finally {
            pass.finish.finish(stored);
        }
    }

    private void store(ObjectMeta meta, ObjectNode object, boolean generated) {
        for (int attempt = 1; ; attempt++) {
            try {
                String key = keys.key(meta.namespace(), meta.name());
                KeyValue kv = storage.create(key, codec.encode(object, key));
                meta.resourceVersion(Long.toString(kv.modRevision()));
                return;
            } catch (StorageException.KeyExists e) {
                if (!generated || attempt == NAME_GENERATION_ATTEMPTS) {
                    throw alreadyExists(meta);
                }
                meta.name(NameGenerator.generate(meta.generateName()));
            } catch (StorageException e) {
                throw StorageErrors.interpret(e, gvr(), meta.name());
            }
        }
    }

    /** kube's AlreadyExists, which says so when the existing object is on its way out. */
    private ApiException alreadyExists(ObjectMeta meta) {
        ApiException e = ApiException.alreadyExists(gvr(), meta.name());
        Optional<ObjectNode> existing = find(meta.namespace(), meta.name());
        if (existing.isPresent() && !ObjectMeta.of(existing.get()).deletionTimestamp().isEmpty()) {
            return new ApiException(e.reason(), e.code(), "object is being deleted: " + e.getMessage(), e.details());
        }
        return e;
    }

    /**
     * The transform of a PUT: {@code body} replaces the stored object, under the precondition kube's update
     * handler takes from a body naming a uid ({@code DefaultUpdatedObjectInfo.Preconditions}), which its
     * storage checks on the current object before anything else: another uid is 409, worded as the
     * storage's invalid-object error (not the 422 of an immutable field a patch changing the uid gets).
     */
    public Transform replacingWith(String namespace, String name, ObjectNode body) {
        String uid = ObjectMeta.of(body).uid();
        String key = keys.key(resource.namespaced() ? namespace : "", name);
        return current -> {
            String stored = current == null ? "" : ObjectMeta.of(current).uid();
            if (!uid.isEmpty() && !uid.equals(stored)) {
                throw ApiException.conflict(gvr(), name, ("StorageError: invalid object, Code: 4, Key: %s, "
                        + "ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: %s, "
                        + "UID in object meta: %s").formatted(key, uid, stored));
            }
            return body.deepCopy();
        };
    }

    /**
     * Updates an object (kube's {@code Update} with an updated-object function): reads it once, lets
     * {@code transform} make the new object, runs it through the stages and compares-and-swaps it. A
     * resourceVersion the new object carries must be the stored one (409 Conflict otherwise, at once);
     * without one the update is unconditional where the strategy allows. When another write wins the
     * race, the whole pass runs again on the newer object until the request's deadline: the one retry
     * loop of a write. An update that changes nothing stores nothing and answers the stored object. A
     * missing object is created when {@code write} allows it or, for the main resource, when the strategy
     * allows create-on-update.
     *
     * @throws ApiException NotFound, Conflict, Invalid, BadRequest, Forbidden (admission), Timeout (504)
     */
    public UpdateResult update(RequestContext ctx, String namespace, String name, Transform transform, Write write) {
        Strategy using = write.strategy() != null ? write.strategy()
                : write.subresource().equals("status") ? statusStrategy : strategy;
        String key = keys.key(resource.namespaced() ? namespace : "", name);
        Start cached = ctx.dryRun() ? null : cachedStart(key);
        for (int attempt = 1; ; attempt++) {
            Start start = cached;
            cached = null;
            if (start == null) {
                KeyValue current = read(key, name);
                if (current == null) {
                    Optional<UpdateResult> created;
                    try {
                        created = createOnUpdate(ctx, namespace, name, transform, write, using);
                    } catch (DeepStack.Needed deep) {
                        created = DeepStack.call(() -> createOnUpdate(ctx, namespace, name, transform, write, using));
                    }
                    if (created.isPresent()) {
                        return created.get();
                    }
                    continue;
                }
                start = new Start(codec.decode(current), current.modRevision(), true);
            }
            Optional<UpdateResult> result;
            Start from = start;
            Supplier<Optional<UpdateResult>> pass = () -> updateOnce(ctx, key, from, transform, write, using);
            try {
                try {
                    result = DeepStack.isDeep(start.old()) ? DeepStack.call(pass) : pass.get();
                } catch (DeepStack.Needed deep) {
                    result = DeepStack.call(pass); // the new object, or the body it came from, is deep
                }
            } catch (ApiException e) {
                if (start.current() || stillStored(key, name, start)) {
                    throw e;
                }
                continue;
            }
            if (result.isPresent()) {
                return result.get();
            }
            if (start.current()) {
                checkDeadline(ctx, attempt);
            }
        }
    }

    /**
     * The state an update starts from: the stored object and its revision, and whether it was read from
     * storage ({@code current}) or taken from the watch cache, which may lag it.
     */
    private record Start(ObjectNode old, long revision, boolean current) {
    }

    /**
     * Whether the stored value was written by another encryption provider or key than the one writing now:
     * kube's GuaranteedUpdate then writes an unchanged object anyway, which is how rewriting every object
     * moves a cluster to a new key.
     */
    private boolean staleAtRest(String key, String name) {
        if (!codec.transforms()) {
            return false;
        }
        KeyValue now = read(key, name);
        return now != null && codec.stale(now);
    }

    /** Whether storage still holds the revision a cached start was taken at (then it was the current state). */
    private boolean stillStored(String key, String name, Start start) {
        KeyValue now = read(key, name);
        return now != null && now.modRevision() == start.revision();
    }

    /**
     * The watch cache's copy to start a first attempt from, as kube's GuaranteedUpdate takes the cacher's
     * object: it saves a storage read and a decode; when it is stale, the compare-and-swap fails, and any
     * other outcome (an error, a no-op) stands only once storage is seen to hold that same revision, and is
     * decided again on storage's state otherwise. Null without a started cache or when it lacks the key.
     */
    private Start cachedStart(String key) {
        if (cache == null) {
            return null;
        }
        return cache.peek(key).map(o -> new Start(o.object().deepCopy(), o.revision(), false)).orElse(null);
    }

    /** The stored key-value, or null; storage failures as API errors. */
    KeyValue read(String key, String name) {
        try {
            return storage.get(key).orElse(null);
        } catch (StorageException e) {
            throw StorageErrors.interpret(e, gvr(), name);
        }
    }

    /**
     * Empty when another writer created the object meanwhile (the caller updates it then). A
     * resourceVersion the new object carries is no precondition on this path, as in kube's
     * {@code Store.Update}: it is compared only with an existing object's, so server-side apply (or a PUT
     * where the strategy allows create-on-update) with one creates a missing object.
     */
    private Optional<UpdateResult> createOnUpdate(RequestContext ctx, String namespace, String name,
                                                  Transform transform, Write write, Strategy using) {
        boolean allowed = write.createIfMissing() || (write.subresource().isEmpty() && using.allowCreateOnUpdate());
        if (!allowed) {
            throw ApiException.notFound(gvr(), name);
        }
        ObjectNode object = transform.apply(null);
        ObjectMeta meta = ObjectMeta.of(object);
        WriteStages.checkName(meta, name);
        meta.resourceVersion(null);
        try {
            return Optional.of(new UpdateResult(create(ctx, namespace, object, write), true));
        } catch (ApiException e) {
            if (e.reason() == StatusReason.ALREADY_EXISTS) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** One pass of an update; empty when the compare-and-swap lost to a concurrent write. */
    private Optional<UpdateResult> updateOnce(RequestContext ctx, String key, Start start, Transform transform,
                                              Write write, Strategy using) {
        ObjectNode oldServed = served.converts() ? served.servedCopy(start.old()) : start.old();
        ObjectNode transformed = transform.apply(oldServed.deepCopy());
        DeepStack.require(transformed);
        WritePass pass = WritePass.update(ctx, write, using, transformed, start.old(), oldServed, start.revision());
        boolean stored = false;
        try {
            stages.run(pass);
            ObjectMeta meta = pass.meta();
            String currentVersion = Long.toString(start.revision());
            boolean unchanged = unchanged(pass.object, start.old()) && !staleAtRest(key, meta.name());
            if (unchanged && !start.current() && !stillStored(key, meta.name(), start)) {
                return Optional.empty();
            }
            if (unchanged || ctx.dryRun()) {
                meta.resourceVersion(currentVersion);
                return Optional.of(new UpdateResult(unchanged ? oldServed : served.served(pass.object), false));
            }
            if (deletionComplete(meta)) {
                storage.delete(key, start.revision());
                stored = true;
                using.afterDelete(pass.object);
                return Optional.of(new UpdateResult(served.served(pass.object), false));
            }
            KeyValue kv = storage.update(key, codec.encode(pass.object, key), start.revision());
            stored = true;
            meta.resourceVersion(Long.toString(kv.modRevision()));
            return Optional.of(new UpdateResult(served.served(pass.object), false));
        } catch (StorageException.Conflict | StorageException.KeyNotFound e) {
            return Optional.empty();
        } catch (StorageException e) {
            throw StorageErrors.interpret(e, gvr(), pass.meta().name());
        } finally {
            pass.finish.finish(stored);
        }
    }

    /**
     * Whether the new object is the stored one (kube's GuaranteedUpdate stores nothing then): compared
     * with the stored resourceVersion lent to it for the comparison, without copying either. Numbers
     * compare by value, as in the JSON both encode to (a generation the update kept is a long here and
     * an int as decoded from storage).
     */
    private static boolean unchanged(ObjectNode object, ObjectNode old) {
        ObjectMeta meta = ObjectMeta.of(object);
        String own = meta.resourceVersion();
        meta.resourceVersion(ObjectMeta.of(old).resourceVersion());
        boolean same = object.equals(SAME_JSON, old);
        meta.resourceVersion(own.isEmpty() ? null : own);
        return same;
    }

    /** Orders nodes only as equal (0) or not: numbers by value whatever their Java type, others by equals. */
    private static final Comparator<JsonNode> SAME_JSON = (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
            return a.isIntegralNumber() && b.isIntegralNumber()
                    ? a.bigIntegerValue().compareTo(b.bigIntegerValue()) : a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
    };

    /** An update that leaves a deleted object without finalizers and grace removes it (kube's deleteForEmptyFinalizers). */
    private static boolean deletionComplete(ObjectMeta meta) {
        return !meta.deletionTimestamp().isEmpty() && !meta.hasFinalizers()
                && meta.node().path("deletionGracePeriodSeconds").asLong(-1) == 0;
    }

    /** After a lost race: try again while the request has time, as GuaranteedUpdate does until its context ends. */
    static void checkDeadline(RequestContext ctx, int attempt) {
        if (ctx.expired() || (ctx.deadline() == null && attempt >= ATTEMPTS_WITHOUT_DEADLINE)) {
            throw new ApiException(StatusReason.TIMEOUT, 504,
                    "Timeout: request did not complete within requested timeout - context deadline exceeded",
                    ApiException.Details.NONE);
        }
    }

    // ---- deletes ----

    /**
     * Deletes an object. One that finalizers hold, that its kind deletes gracefully (pods on a node)
     * or that its kind finalizes itself (namespaces) only gets its deletionTimestamp set; an
     * {@code Orphan} or {@code Foreground} propagation policy adds the garbage collector's finalizer.
     * Admission sees the delete first. A concurrent write makes the delete look again.
     *
     * @throws ApiException NotFound, Conflict (failed precondition), Forbidden (admission)
     */
    public DeleteResult delete(RequestContext ctx, String namespace, String name, DeleteOptions options) {
        return deletes.delete(ctx, namespace, name, options);
    }

    /** Deletes every object a list selects; returns them as deleted (or as marked for deletion). */
    public List<ObjectNode> deleteCollection(RequestContext ctx, String namespace, ListOptions listOptions,
                                             DeleteOptions options) {
        return deletes.deleteCollection(ctx, namespace, listOptions, options);
    }

    // ---- shared with Deletes ----

    Storage storage() {
        return storage;
    }

    ObjectKeys keys() {
        return keys;
    }

    ObjectCodec codec() {
        return codec;
    }

    ServedVersion served() {
        return served;
    }

    Attributes deleteAttributes(RequestContext ctx, ObjectNode old) {
        return stages.attributes(ctx, Operation.DELETE, null, old, "", WriteStages.options(ctx));
    }

    AdmissionChain admission() {
        return services.admission().get();
    }

    GroupVersionResource gvr() {
        return resource.gvr();
    }
}
