package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.AdmissionChain;
import io.kapi.admission.ObjectLookup;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.storage.Storage;
import io.kapi.storage.cache.CacheOptions;
import io.kapi.storage.cache.CachedObject;
import io.kapi.storage.cache.ObjectDecoder;
import io.kapi.storage.cache.WatchCacheHub;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Every served resource and the REST store behind it. Resources that kube-apiserver computes rather
 * than stores (reviews, bindings, component statuses) have no store here. The registry is also the
 * read-only {@link ObjectLookup} admission plugins get.
 */
public final class Registry implements ObjectLookup, AutoCloseable {

    /** group/resource of resources that are not stored objects. */
    private static final Set<String> NOT_STORED = Set.of(
            "/bindings", "/componentstatuses",
            "authentication.k8s.io/tokenreviews", "authentication.k8s.io/selfsubjectreviews",
            "authorization.k8s.io/localsubjectaccessreviews", "authorization.k8s.io/selfsubjectaccessreviews",
            "authorization.k8s.io/selfsubjectrulesreviews", "authorization.k8s.io/subjectaccessreviews");

    private final Map<GroupVersionResource, ApiResource> resources = new HashMap<>();
    private final Map<GroupVersionResource, ResourceStore> stores = new HashMap<>();
    private final Set<String> groupVersions = new HashSet<>();
    private final WatchCacheHub caches;
    private final AdmissionChain admission;

    /**
     * Builds every store with its watch cache, which starts on the resource's first read that needs
     * it; {@link #close()} stops the caches.
     *
     * @param admission builds the admission chain from the lookup its plugins read through (this registry)
     */
    public Registry(Collection<ApiResource> served, Storage storage, StrategyProvider strategies,
                    StoreServices services, Function<ObjectLookup, AdmissionChain> admission,
                    CacheOptions cacheOptions) {
        StoreServices withAdmission = new StoreServices(services.metadata(), services.schema(), services.fields(),
                this::admission, services.clock());
        caches = new WatchCacheHub(storage, cacheOptions);
        for (ApiResource resource : served) {
            resources.put(resource.gvr(), resource);
            groupVersions.add(resource.group() + "/" + resource.version());
            if (!NOT_STORED.contains(resource.group() + "/" + resource.name())) {
                var cache = caches.register(ObjectKeys.of(resource).prefix(), decoder(resource));
                stores.put(resource.gvr(), new ResourceStore(resource, strategies.forResource(resource), storage,
                        withAdmission, cache));
            }
        }
        this.admission = admission.apply(this);
    }

    /** A registry without admission plugins. */
    public Registry(Collection<ApiResource> served, Storage storage, StrategyProvider strategies, StoreServices services) {
        this(served, storage, strategies, services, lookup -> AdmissionChain.NONE, CacheOptions.DEFAULT);
    }

    /** How the cache of {@code resource} decodes stored objects, with their labels and selectable fields. */
    private static ObjectDecoder decoder(ApiResource resource) {
        ObjectCodec codec = new ObjectCodec(resource);
        SelectableFields fields = SelectableFields.of(resource);
        return kv -> {
            var object = codec.decode(kv);
            return new CachedObject(kv.key(), object, kv.modRevision(),
                    io.kapi.machinery.ObjectMeta.of(object).labels(), fields.of(object), kv.value().length);
        };
    }

    private AdmissionChain admission() {
        return admission == null ? AdmissionChain.NONE : admission;
    }

    /** The watch caches of the stores. */
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
        return Optional.ofNullable(resources.get(new GroupVersionResource(group, version, plural)));
    }

    public boolean servesGroupVersion(String group, String version) {
        return groupVersions.contains(group + "/" + version);
    }

    /** The store of a resource, or empty for resources that are not stored objects. */
    public Optional<ResourceStore> store(ApiResource resource) {
        return Optional.ofNullable(stores.get(resource.gvr()));
    }

    /** The store of a resource by group, version and plural, or empty. */
    public Optional<ResourceStore> store(GroupVersionResource gvr) {
        return Optional.ofNullable(stores.get(gvr));
    }

    /** The store of core/v1 namespaces. */
    public ResourceStore namespaces() {
        return stores.get(new GroupVersionResource("", "v1", "namespaces"));
    }

    /** Every store, for controllers that act on all resources (namespace deletion). */
    public Collection<ResourceStore> stores() {
        return List.copyOf(stores.values());
    }

    @Override
    public Optional<ObjectNode> get(GroupVersionResource resource, String namespace, String name) {
        return store(resource).flatMap(s -> s.find(namespace, name));
    }

    @Override
    public List<ObjectNode> list(GroupVersionResource resource, String namespace) {
        return store(resource).map(s -> s.list(namespace, ListOptions.ALL).items()).orElse(List.of());
    }
}
