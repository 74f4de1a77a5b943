package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.storage.KeyValue;
import io.kapi.storage.RangeResult;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageException;
import io.kapi.storage.cache.CacheErrors;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.CachedObject;
import io.kapi.storage.cache.ResourceCache;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * The generic REST store of one resource (kube-apiserver's {@code registry.Store}): configured, not
 * subclassed, with the resource, its {@link Strategy} and a {@link Storage}. Every write reads
 * straight through named steps; storage errors are translated once, here.
 *
 * <p>Objects are stored as JSON without {@code metadata.resourceVersion}; reads set it from the
 * key's modRevision, so the version a client sees is exactly the storage revision.
 */
public final class ResourceStore {

    /** kube-apiserver retries a generated name this many times; 5 random characters of 27 make a clash rare. */
    private static final int NAME_GENERATION_ATTEMPTS = 8;

    private final ApiResource resource;
    private final Strategy strategy;
    private final Storage storage;
    private final ObjectKeys keys;
    private final MetadataValidation metadataValidation;
    private final NamespaceCheck namespaceCheck;
    private final ObjectCodec codec;
    private final SelectableFields selectable;
    private final Clock clock;
    private final ResourceCache cache;

    ResourceStore(ApiResource resource, Strategy strategy, Storage storage, MetadataValidation metadataValidation,
                  NamespaceCheck namespaceCheck, Clock clock) {
        this(resource, strategy, storage, metadataValidation, namespaceCheck, clock, null);
    }

    /** @param cache the resource's watch cache, or null to serve reads from storage and no watches */
    ResourceStore(ApiResource resource, Strategy strategy, Storage storage, MetadataValidation metadataValidation,
                  NamespaceCheck namespaceCheck, Clock clock, ResourceCache cache) {
        this.cache = cache;
        this.resource = resource;
        this.strategy = strategy;
        this.storage = storage;
        this.keys = ObjectKeys.of(resource);
        this.metadataValidation = metadataValidation;
        this.namespaceCheck = namespaceCheck;
        this.codec = new ObjectCodec(resource);
        this.selectable = SelectableFields.of(resource);
        this.clock = clock;
    }

    public ApiResource resource() {
        return resource;
    }

    /** The object, or empty when it does not exist. */
    public java.util.Optional<ObjectNode> find(String namespace, String name) {
        return storage.get(keys.key(namespace, name)).map(codec::decode);
    }

    /** @throws ApiException NotFound */
    public ObjectNode get(String namespace, String name) {
        String key = keys.key(namespace, name);
        return storage.get(key).map(codec::decode).orElseThrow(() -> ApiException.notFound(gvr(), name));
    }

    /**
     * Gets an object as of {@code resourceVersion}, as kube-apiserver: unset reads storage (the latest,
     * consistent), "0" the cache as it is, a version the cache once it reached that version.
     *
     * @throws ApiException NotFound; BadRequest for a malformed version; Timeout (504,
     *         ResourceVersionTooLarge) when the cache does not reach the version within 3 s
     */
    public ObjectNode get(String namespace, String name, String resourceVersion) {
        if (cache == null || resourceVersion == null || resourceVersion.isEmpty()) {
            return get(namespace, name);
        }
        long rv = ResourceVersions.parse(resourceVersion);
        if (rv > 0 && !cache.awaitRevision(rv)) {
            throw cache.tooLarge(rv);
        }
        return cache.get(keys.key(namespace, name)).map(o -> o.object().deepCopy())
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
    public ListResult list(String namespace, ListOptions options) {
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
            throw CacheErrors.tooLarge(revision, storage.currentRevision());
        }
        if (from == null && revision == 0 && rv > storage.currentRevision()) {
            throw CacheErrors.tooLarge(rv, storage.currentRevision());
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
                    ObjectNode object = codec.decode(kv);
                    if (matches(object, options)) {
                        items.add(object);
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
            throw cache.tooLarge(rv);
        }
        String prefix = keys.collection(namespace);
        int limit = options.limit() > 0 ? (int) Math.min(options.limit(), Integer.MAX_VALUE) : 0;
        ResourceCache.Page page = cache.list(scope(namespace, options), null, limit, filter(options));
        List<ObjectNode> items = new ArrayList<>(page.items().size());
        for (CachedObject o : page.items()) {
            items.add(o.object().deepCopy());
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
    public CacheWatch watch(String namespace, ListOptions options) {
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

    private ListResult listOne(String namespace, String name, ListOptions options) {
        long revision = storage.currentRevision();
        List<ObjectNode> items = storage.get(keys.key(namespace, name)).map(codec::decode)
                .filter(o -> matches(o, options)).stream().toList();
        return new ListResult(items, Long.toString(revision), null, null);
    }

    private boolean matches(ObjectNode object, ListOptions options) {
        return options.labelSelector().matches(ObjectMeta.of(object).labels())
                && (options.fieldSelector().isEverything() || options.fieldSelector().matches(selectable.of(object)));
    }

    /**
     * Creates an object in {@code namespace} (ignored for cluster-scoped resources).
     *
     * @throws ApiException AlreadyExists, Invalid, NotFound (namespace), BadRequest (namespace mismatch)
     */
    public ObjectNode create(String namespace, ObjectNode object, boolean dryRun) {
        ObjectMeta meta = ObjectMeta.of(object);
        assignNamespace(meta, namespace);
        strategy.applyDefaults(object);
        prepareMetadataForCreate(meta);
        // the name is generated before the strategy prepares the object, as kube-apiserver does (a
        // job's generated selector labels its pods with the job's name)
        boolean generated = meta.name().isEmpty() && !meta.generateName().isEmpty();
        if (generated) {
            meta.name(NameGenerator.generate(meta.generateName()));
        }
        strategy.prepareForCreate(object);
        Strategy.Finish finish = strategy.beginCreate(object, dryRun);
        boolean stored = false;
        try {
            ObjectNode created = validateAndStore(meta, object, generated, dryRun);
            stored = !dryRun;
            return created;
        } finally {
            finish.finish(stored);
        }
    }

    private ObjectNode validateAndStore(ObjectMeta meta, ObjectNode object, boolean generated, boolean dryRun) {
        validate(object, strategy.validate(object));
        if (resource.namespaced()) {
            namespaceCheck.requireActive(meta.namespace(), gvr(), meta.name());
        }
        strategy.canonicalize(object);
        if (dryRun) {
            return object;
        }
        for (int attempt = 1; ; attempt++) {
            try {
                KeyValue kv = storage.create(keys.key(meta.namespace(), meta.name()), codec.encode(object));
                meta.resourceVersion(Long.toString(kv.modRevision()));
                return object;
            } catch (StorageException.KeyExists e) {
                if (!generated || attempt == NAME_GENERATION_ATTEMPTS) {
                    throw StorageErrors.interpret(e, gvr(), meta.name());
                }
                meta.name(NameGenerator.generate(meta.generateName()));
            } catch (StorageException e) {
                throw StorageErrors.interpret(e, gvr(), meta.name());
            }
        }
    }

    /**
     * Replaces an object (PUT). A resourceVersion in the body must match the stored one.
     *
     * @throws ApiException NotFound (unless the kind creates on update), Conflict, Invalid, BadRequest
     */
    public UpdateResult update(String namespace, String name, ObjectNode object, boolean dryRun) {
        return replace(namespace, name, object, dryRun, strategy);
    }

    /**
     * Replaces only the {@code status} of an object (PUT to {@code /status}); the body's other fields
     * are ignored, its resourceVersion, if set, must match.
     *
     * @throws ApiException NotFound, Conflict, Invalid
     */
    public ObjectNode updateStatus(String namespace, String name, ObjectNode object, boolean dryRun) {
        return updateSubresource(namespace, name, object, dryRun, new StatusStrategy(strategy));
    }

    /**
     * Replaces an existing object through a subresource whose strategy decides what of the body is
     * taken (e.g. only {@code spec.finalizers} for {@code namespaces/finalize}).
     *
     * @param using the subresource's strategy, usually decorating {@link #strategy()}
     * @throws ApiException NotFound, Conflict, Invalid, BadRequest
     */
    public ObjectNode updateSubresource(String namespace, String name, ObjectNode object, boolean dryRun,
                                        Strategy using) {
        if (!ObjectMeta.of(object).name().isEmpty() && !ObjectMeta.of(object).name().equals(name)) {
            throw ApiException.badRequest("the name of the object (%s) does not match the name on the URL (%s)"
                    .formatted(ObjectMeta.of(object).name(), name));
        }
        ObjectMeta.of(object).name(name);
        if (storage.get(keys.key(namespace, name)).isEmpty()) {
            throw ApiException.notFound(gvr(), name);
        }
        return replace(namespace, name, object, dryRun, using).object();
    }

    /** The resource's strategy, for subresources that decorate it. */
    public Strategy strategy() {
        return strategy;
    }

    private UpdateResult replace(String namespace, String name, ObjectNode object, boolean dryRun, Strategy using) {
        ObjectMeta meta = ObjectMeta.of(object);
        assignNamespace(meta, namespace);
        if (meta.name().isEmpty()) {
            meta.name(name);
        } else if (!meta.name().equals(name)) {
            throw ApiException.badRequest("the name of the object (%s) does not match the name on the URL (%s)"
                    .formatted(meta.name(), name));
        }
        String key = keys.key(meta.namespace(), name);
        KeyValue current = storage.get(key).orElse(null);
        if (current == null) {
            if (!using.allowCreateOnUpdate()) {
                throw ApiException.notFound(gvr(), name);
            }
            if (!meta.resourceVersion().isEmpty()) {
                throw ApiException.notFound(gvr(), name);
            }
            return new UpdateResult(create(namespace, object, dryRun), true);
        }
        ObjectNode old = codec.decode(current);
        String wanted = meta.resourceVersion();
        if (wanted.isEmpty() && !using.allowUnconditionalUpdate()) {
            throw ApiException.invalid(resource.gvk(), name, List.of(FieldError.invalid("metadata.resourceVersion",
                    "\"\"", "must be specified for an update")));
        }
        if (!wanted.isEmpty() && !wanted.equals(Long.toString(current.modRevision()))) {
            throw ApiException.staleUpdate(gvr(), name);
        }
        using.applyDefaults(object);
        prepareMetadataForUpdate(meta, ObjectMeta.of(old));
        using.prepareForUpdate(object, old);
        Strategy.Finish finish = using.beginUpdate(object, old, dryRun);
        boolean stored = false;
        try {
            UpdateResult result = validateAndReplace(key, current, object, old, dryRun, using);
            stored = !dryRun;
            return result;
        } finally {
            finish.finish(stored);
        }
    }

    private UpdateResult validateAndReplace(String key, KeyValue current, ObjectNode object, ObjectNode old,
                                            boolean dryRun, Strategy using) {
        ObjectMeta meta = ObjectMeta.of(object);
        String name = meta.name();
        List<FieldError> errors = new ArrayList<>(validateCommonUpdate(meta, ObjectMeta.of(old)));
        errors.addAll(using.validateUpdate(object, old));
        validate(object, errors);
        using.canonicalize(object);
        if (dryRun) {
            meta.resourceVersion(Long.toString(current.modRevision()));
            return new UpdateResult(object, false);
        }
        try {
            if (!meta.deletionTimestamp().isEmpty() && !meta.hasFinalizers()
                    && meta.node().path("deletionGracePeriodSeconds").asLong(-1) == 0) {
                storage.delete(key, current.modRevision());
                using.afterDelete(object);
                return new UpdateResult(object, false);
            }
            KeyValue kv = storage.update(key, codec.encode(object), current.modRevision());
            meta.resourceVersion(Long.toString(kv.modRevision()));
            return new UpdateResult(object, false);
        } catch (StorageException e) {
            throw StorageErrors.interpret(e, gvr(), name);
        }
    }

    /**
     * Deletes an object. One that finalizers hold, that its kind deletes gracefully (pods on a node)
     * or that its kind finalizes itself (namespaces) only gets its deletionTimestamp set; an
     * {@code Orphan} or {@code Foreground} propagation policy adds the garbage collector's finalizer.
     *
     * @throws ApiException NotFound, Conflict (failed precondition or concurrent change)
     */
    public DeleteResult delete(String namespace, String name, DeleteOptions options) {
        String key = keys.key(namespace, name);
        KeyValue current = storage.get(key).orElseThrow(() -> ApiException.notFound(gvr(), name));
        ObjectNode object = codec.decode(current);
        ObjectMeta meta = ObjectMeta.of(object);
        checkPreconditions(meta, options);
        Deletion plan = strategy.beforeDelete(object, options);
        boolean alreadyDeleting = !meta.deletionTimestamp().isEmpty();
        if (!alreadyDeleting) {
            addPropagationFinalizer(meta, options.propagationPolicy());
        }
        if (meta.hasFinalizers() || !(plan instanceof Deletion.Immediate)) {
            return alreadyDeleting ? new DeleteResult(object, false)
                    : markDeleting(key, current, object, plan, options.dryRun());
        }
        if (options.dryRun()) {
            return new DeleteResult(object, true);
        }
        try {
            storage.delete(key, current.modRevision());
        } catch (StorageException e) {
            throw StorageErrors.interpret(e, gvr(), name);
        }
        strategy.afterDelete(object);
        return new DeleteResult(object, true);
    }

    /** Deletes every object a list selects; returns them as deleted (or as marked for deletion). */
    public List<ObjectNode> deleteCollection(String namespace, ListOptions listOptions, DeleteOptions options) {
        List<ObjectNode> deleted = new ArrayList<>();
        for (ObjectNode object : list(namespace, listOptions.unpaged()).items()) {
            ObjectMeta meta = ObjectMeta.of(object);
            try {
                deleted.add(delete(meta.namespace(), meta.name(), options).object());
            } catch (ApiException e) {
                if (e.code() != 404) {
                    throw e;
                }
            }
        }
        return deleted;
    }

    private DeleteResult markDeleting(String key, KeyValue current, ObjectNode object, Deletion plan, boolean dryRun) {
        ObjectMeta meta = ObjectMeta.of(object);
        java.time.Instant now = clock.instant();
        switch (plan) {
            case Deletion.Graceful g -> {
                meta.node().put("deletionTimestamp", ObjectMeta.format(now.plusSeconds(g.seconds())));
                meta.node().put("deletionGracePeriodSeconds", g.seconds());
            }
            case Deletion.Held h -> meta.node().put("deletionTimestamp", ObjectMeta.format(now));
            case Deletion.Immediate i -> {
                meta.node().put("deletionTimestamp", ObjectMeta.format(now));
                meta.node().put("deletionGracePeriodSeconds", 0);
            }
        }
        if (dryRun) {
            return new DeleteResult(object, false);
        }
        try {
            meta.resourceVersion("");
            KeyValue kv = storage.update(key, codec.encode(object), current.modRevision());
            meta.resourceVersion(Long.toString(kv.modRevision()));
            return new DeleteResult(object, false);
        } catch (StorageException e) {
            throw StorageErrors.interpret(e, gvr(), meta.name());
        }
    }

    /** kube-apiserver's finalizers for the garbage collector: {@code orphan} and {@code foregroundDeletion}. */
    private static void addPropagationFinalizer(ObjectMeta meta, String policy) {
        String finalizer = policy == null ? null : switch (policy) {
            case "Orphan" -> "orphan";
            case "Foreground" -> "foregroundDeletion";
            default -> null;
        };
        if (finalizer == null) {
            return;
        }
        var finalizers = meta.node().withArray("finalizers");
        for (var f : finalizers) {
            if (f.asText().equals(finalizer)) {
                return;
            }
        }
        finalizers.add(finalizer);
    }

    private void checkPreconditions(ObjectMeta meta, DeleteOptions options) {
        if (options.preconditionUid() != null && !options.preconditionUid().equals(meta.uid())) {
            throw ApiException.conflict(gvr(), meta.name(), "Precondition failed: UID in precondition: %s, UID in object meta: %s"
                    .formatted(options.preconditionUid(), meta.uid()));
        }
        String rv = options.preconditionResourceVersion();
        if (rv != null && !rv.equals(meta.resourceVersion())) {
            throw ApiException.conflict(gvr(), meta.name(),
                    "Precondition failed: ResourceVersion in precondition: %s, ResourceVersion in object meta: %s"
                            .formatted(rv, meta.resourceVersion()));
        }
    }

    private void assignNamespace(ObjectMeta meta, String namespace) {
        if (!resource.namespaced()) {
            meta.namespace(null);
            return;
        }
        if (meta.namespace().isEmpty()) {
            meta.namespace(namespace);
        } else if (!meta.namespace().equals(namespace)) {
            throw ApiException.badRequest(
                    "the namespace of the provided object does not match the namespace sent on the request");
        }
    }

    private void prepareMetadataForCreate(ObjectMeta meta) {
        meta.uid(UUID.randomUUID().toString());
        meta.creationTimestamp(clock.instant());
        meta.resourceVersion(null);
        meta.node().remove("deletionTimestamp");
        meta.node().remove("deletionGracePeriodSeconds");
        meta.node().remove("selfLink");
    }

    private static void prepareMetadataForUpdate(ObjectMeta meta, ObjectMeta old) {
        if (meta.uid().isEmpty()) {
            meta.copyFrom(old, "uid");
        }
        meta.copyFrom(old, "creationTimestamp");
        meta.copyFrom(old, "deletionTimestamp");
        meta.copyFrom(old, "deletionGracePeriodSeconds");
        meta.node().remove("selfLink");
        meta.resourceVersion(null);
    }

    private static List<FieldError> validateCommonUpdate(ObjectMeta meta, ObjectMeta old) {
        List<FieldError> errors = new ArrayList<>();
        if (!meta.uid().equals(old.uid())) {
            errors.add(FieldError.invalid("metadata.uid", quote(meta.uid()), "field is immutable"));
        }
        if (!old.deletionTimestamp().isEmpty() && meta.node().has("finalizers")) {
            for (var f : meta.node().path("finalizers")) {
                boolean known = false;
                for (var o : old.node().path("finalizers")) {
                    known |= o.asText().equals(f.asText());
                }
                if (!known) {
                    errors.add(FieldError.forbidden("metadata.finalizers",
                            "no new finalizers can be added if the object is being deleted, found new finalizers [\""
                                    + f.asText() + "\"]"));
                }
            }
        }
        return errors;
    }

    private void validate(ObjectNode object, List<FieldError> strategyErrors) {
        ObjectMeta meta = ObjectMeta.of(object);
        List<FieldError> errors = new ArrayList<>(metadataValidation.validate(resource, object));
        errors.addAll(strategyErrors);
        if (!errors.isEmpty()) {
            String name = meta.name().isEmpty() ? meta.generateName() : meta.name();
            throw ApiException.invalid(resource.gvk(), name, errors);
        }
    }

    private GroupVersionResource gvr() {
        return resource.gvr();
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
