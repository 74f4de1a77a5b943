package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.AdmissionChain;
import io.kapi.admission.ObjectLookup;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.conversion.VersionConversions;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.storage.Storage;
import io.kapi.storage.cache.CacheOptions;
import io.kapi.storage.cache.CachedObject;
import io.kapi.storage.cache.ObjectDecoder;
import io.kapi.storage.cache.ProtobufReaders;
import io.kapi.storage.cache.SharedFrames;
import io.kapi.storage.cache.WatchCacheHub;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Every served resource and the REST store behind it, as a versioned {@link ApiModel} snapshot that is
 * swapped atomically when resources are added or removed while serving (what custom resources and
 * aggregated APIs need): a request sees one snapshot from routing to storage; discovery and OpenAPI
 * rebuild their documents when the version moves. Resources that are computed rather than stored
 * (reviews, bindings) have no store. The registry is also the read-only {@link ObjectLookup} admission
 * plugins get, and the {@link VersionConversions} of the field managers (between the served versions of
 * a resource, through its storage version).
 */
public final class Registry implements ObjectLookup, VersionConversions, AutoCloseable {

    private final Storage storage;
    private final StoreServices services;
    private final WatchCacheHub caches;
    private final boolean cached;
    private final AdmissionChain admission;
    private final ResourceTable base;
    private volatile Snapshot snapshot;

    /** One state of the served API. */
    private record Snapshot(ApiModel model, Map<GroupVersionResource, ResourceDefinition> definitions,
                            Map<GroupVersionResource, ResourceStore> stores, Set<String> groupVersions,
                            Map<GroupVersionKind, ResourceDefinition> byKind) {
    }

    /**
     * Builds every store of {@code served} (built-ins, with the resource table's facts), reading as
     * {@code reads} says: through a watch cache per resource, which starts on the resource's first read
     * that needs it ({@link #close()} stops the caches), or from storage.
     *
     * @param admission builds the admission chain from the lookup its plugins read through (this registry)
     */
    public Registry(Collection<ApiResource> served, Storage storage, BehaviourProvider behaviours,
                    StoreServices services, Function<ObjectLookup, AdmissionChain> admission, ReadPath reads) {
        this.storage = storage;
        this.services = services.withAdmission(this::admission);
        this.cached = reads instanceof ReadPath.WatchCache;
        this.caches = new WatchCacheHub(storage, switch (reads) {
            case ReadPath.WatchCache w -> w.options();
            case ReadPath.Storage s -> CacheOptions.DEFAULT; // holds no cache
        });
        this.base = ResourceTable.builtinServing(served);
        List<ResourceDefinition> definitions = new ArrayList<>();
        for (ApiResource resource : served) {
            definitions.add(ResourceDefinition.of(resource, base.facts(resource), behaviours));
        }
        this.snapshot = build(0, definitions, List.of(), Map.of());
        this.admission = admission.apply(this);
    }

    /** A registry without admission plugins. */
    public Registry(Collection<ApiResource> served, Storage storage, BehaviourProvider behaviours, StoreServices services) {
        this(served, storage, behaviours, services, lookup -> AdmissionChain.NONE, ReadPath.WATCH_CACHE);
    }

    /**
     * Serves {@code added} from now on (replacing definitions of the same group-version-resource):
     * stores and watch caches are made, and the API model's version moves, so discovery and OpenAPI
     * show them. Storage keys of custom resources include their group ({@code /registry/<group>/<plural>/}).
     */
    public synchronized void add(List<ResourceDefinition> added) {
        Snapshot current = snapshot;
        Map<GroupVersionResource, ResourceDefinition> all = new LinkedHashMap<>(current.definitions());
        List<ApiResource> extra = new ArrayList<>(current.model().extra());
        Map<String, ObjectNode> schemas = new LinkedHashMap<>(current.model().schemas());
        for (ResourceDefinition d : added) {
            all.put(d.api().gvr(), d);
            extra.removeIf(r -> r.gvr().equals(d.api().gvr()));
            extra.add(d.api());
            schemas.putAll(d.schemas());
        }
        snapshot = build(current.model().version() + 1, List.copyOf(all.values()), extra, schemas);
    }

    /** Stops serving {@code removed}: their watches end and their caches go; stored objects stay. */
    public synchronized void remove(Collection<GroupVersionResource> removed) {
        Snapshot current = snapshot;
        Map<GroupVersionResource, ResourceDefinition> all = new LinkedHashMap<>(current.definitions());
        List<ApiResource> extra = new ArrayList<>(current.model().extra());
        Map<String, ObjectNode> schemas = new LinkedHashMap<>(current.model().schemas());
        for (GroupVersionResource gvr : removed) {
            ResourceDefinition gone = all.remove(gvr);
            if (gone != null) {
                extra.remove(gone.api());
                gone.schemas().keySet().forEach(schemas::remove);
                boolean shared = all.values().stream().anyMatch(d -> d.keys().prefix().equals(gone.keys().prefix()));
                if (!shared) {
                    caches.remove(gone.keys().prefix());
                }
            }
        }
        snapshot = build(current.model().version() + 1, List.copyOf(all.values()), extra, schemas);
    }

    private Snapshot build(long version, List<ResourceDefinition> definitions, List<ApiResource> extra,
                           Map<String, ObjectNode> schemas) {
        Map<GroupVersionResource, ResourceDefinition> byGvr = new LinkedHashMap<>();
        Map<GroupVersionResource, ResourceStore> stores = new LinkedHashMap<>();
        Map<GroupVersionKind, ResourceDefinition> byKind = new LinkedHashMap<>();
        Set<String> groupVersions = new HashSet<>();
        Snapshot previous = snapshot;
        Map<String, List<ResourceFacts.SelectableField>> fieldsByPrefix = selectableByPrefix(definitions);
        for (ResourceDefinition d : definitions) {
            byGvr.put(d.api().gvr(), d);
            groupVersions.add(d.api().group() + "/" + d.api().version());
            if (!d.facts().stored()) {
                continue;
            }
            byKind.putIfAbsent(d.api().gvk(), d);
            ResourceStore existing = previous == null ? null : previous.stores().get(d.api().gvr());
            if (existing != null && existing.definition().equals(d)) {
                stores.put(d.api().gvr(), existing);
            } else {
                String prefix = d.keys().prefix();
                var cache = cached ? caches.register(prefix, decoder(d, services.atRest(),
                        SelectableFields.of(fieldsByPrefix.get(prefix))))
                        : null;
                stores.put(d.api().gvr(), new ResourceStore(d, storage, services, cache));
            }
        }
        Map<ApiResource, ResourceFacts> extraFacts = new LinkedHashMap<>();
        extra.forEach(r -> extraFacts.put(r, byGvr.get(r.gvr()).facts()));
        ResourceTable table = extra.isEmpty() ? base : base.plus(extra, extraFacts);
        return new Snapshot(new ApiModel(version, table, List.copyOf(extra), Map.copyOf(schemas)),
                Map.copyOf(byGvr), Map.copyOf(stores), Set.copyOf(groupVersions), Map.copyOf(byKind));
    }

    /**
     * The selectable fields of every version served from each storage prefix, together: the one watch
     * cache of a prefix computes them all once per stored object, and each version's selectors name its
     * own (they read paths of the stored object).
     */
    private static Map<String, List<ResourceFacts.SelectableField>> selectableByPrefix(
            List<ResourceDefinition> definitions) {
        Map<String, Map<String, ResourceFacts.SelectableField>> union = new LinkedHashMap<>();
        for (ResourceDefinition d : definitions) {
            Map<String, ResourceFacts.SelectableField> fields =
                    union.computeIfAbsent(d.keys().prefix(), p -> new LinkedHashMap<>());
            d.facts().selectableFields().forEach(f -> fields.putIfAbsent(f.path(), f));
        }
        Map<String, List<ResourceFacts.SelectableField>> out = new LinkedHashMap<>();
        union.forEach((prefix, fields) -> out.put(prefix, List.copyOf(fields.values())));
        return out;
    }

    /**
     * How a watch cache decodes stored objects, with their labels and selectable fields, and, once the
     * resource has been read in protobuf, the stored value each object's protobuf message is made from.
     */
    private static ObjectDecoder decoder(ResourceDefinition definition, AtRest atRest, SelectableFields fields) {
        ObjectCodec codec = ObjectCodec.of(definition, atRest);
        ProtobufReaders readers = new ProtobufReaders();
        return kv -> {
            var read = codec.read(kv);
            var object = read.object();
            var stored = readers.seen() ? read.message() : null;
            return new CachedObject(kv.key(), object, kv.modRevision(), ObjectMeta.of(object).labels(),
                    fields.of(object), kv.value().length, new SharedFrames(stored, kv.modRevision(), readers));
        };
    }

    private AdmissionChain admission() {
        return admission == null ? AdmissionChain.NONE : admission;
    }

    /** The served API as of now: discovery and OpenAPI are made from it. */
    public ApiModel model() {
        return snapshot.model();
    }

    /** The watch caches of the stores (none when they read from storage). */
    public WatchCacheHub caches() {
        return caches;
    }

    /** The admission chain every store runs. */
    public AdmissionChain admissionChain() {
        return admission();
    }

    /** Stops the watch caches (the storage stays open: its owner closes it). */
    @Override
    public void close() {
        caches.close();
    }

    public Optional<ApiResource> resource(String group, String version, String plural) {
        ResourceDefinition d = snapshot.definitions().get(new GroupVersionResource(group, version, plural));
        return d == null ? Optional.empty() : Optional.of(d.api());
    }

    /** Every group-version served now. */
    public Set<GroupVersion> groupVersions() {
        Set<GroupVersion> out = new HashSet<>();
        snapshot.groupVersions().forEach(gv -> out.add(GroupVersion.parse(gv.startsWith("/") ? gv.substring(1) : gv)));
        return out;
    }

    public boolean servesGroupVersion(String group, String version) {
        return snapshot.groupVersions().contains(group + "/" + version);
    }

    /** The definition of a served resource (stored or computed), or empty when none is served. */
    public Optional<ResourceDefinition> definition(GroupVersionResource gvr) {
        return Optional.ofNullable(snapshot.definitions().get(gvr));
    }

    /** The store of a resource, or empty for resources that are not stored objects. */
    public Optional<ResourceStore> store(ApiResource resource) {
        return store(resource.gvr());
    }

    /** The store of a resource by group, version and plural, or empty. */
    public Optional<ResourceStore> store(GroupVersionResource gvr) {
        return Optional.ofNullable(snapshot.stores().get(gvr));
    }

    /** The store of core/v1 namespaces. */
    public ResourceStore namespaces() {
        return snapshot.stores().get(new GroupVersionResource("", "v1", "namespaces"));
    }

    /** Every store, for controllers that act on all resources (namespace deletion). */
    public Collection<ResourceStore> stores() {
        return List.copyOf(snapshot.stores().values());
    }

    /**
     * {@code object} of {@code from} in {@code toApiVersion} of the same resource (same kind and storage
     * path): converted to the storage version, then to that one; null when no such version is served.
     */
    @Override
    public ObjectNode convert(ObjectNode object, GroupVersionKind from, String toApiVersion) {
        Snapshot current = snapshot;
        ResourceDefinition source = current.byKind().get(from);
        GroupVersion to = GroupVersion.parse(toApiVersion);
        ResourceDefinition target = current.byKind().get(new GroupVersionKind(to.group(), to.version(), from.kind()));
        if (source == null || target == null || !source.keys().prefix().equals(target.keys().prefix())) {
            return null;
        }
        return target.converter().fromStorage(source.converter().toStorage(object));
    }

    @Override
    public Optional<ObjectNode> get(GroupVersionResource resource, String namespace, String name) {
        return store(resource).flatMap(s -> s.find(namespace, name));
    }

    @Override
    public Optional<ObjectNode> cached(GroupVersionResource resource, String namespace, String name) {
        return store(resource).flatMap(s -> s.findCached(namespace, name));
    }

    @Override
    public <T> Optional<T> readCached(GroupVersionResource resource, String namespace, String name,
                                      Function<? super ObjectNode, ? extends T> read) {
        return store(resource).flatMap(s -> s.findCachedShared(namespace, name)).map(read);
    }

    @Override
    public List<ObjectNode> list(GroupVersionResource resource, String namespace) {
        return store(resource).map(s -> s.list(namespace, ListOptions.ALL).items()).orElse(List.of());
    }

    @Override
    public List<ObjectNode> cachedList(GroupVersionResource resource, String namespace) {
        return store(resource).map(s -> s.select(namespace, o -> true)).orElse(List.of());
    }
}
