package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusCause;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.storage.Storage;
import io.kapi.storage.cache.CacheOptions;
import io.kapi.storage.cache.CachedObject;
import io.kapi.storage.cache.ObjectDecoder;
import io.kapi.storage.cache.WatchCacheHub;
import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every served resource and the REST store behind it. Resources that kube-apiserver computes rather
 * than stores (reviews, bindings, component statuses) have no store here.
 */
public final class Registry implements AutoCloseable {

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

    public Registry(Collection<ApiResource> served, Storage storage, StrategyProvider strategies,
                    MetadataValidation metadataValidation, Clock clock) {
        this(served, storage, strategies, metadataValidation, clock, CacheOptions.DEFAULT);
    }

    /**
     * Builds every store with its watch cache, primed from {@code storage} before this returns;
     * {@link #close()} stops the caches.
     */
    public Registry(Collection<ApiResource> served, Storage storage, StrategyProvider strategies,
                    MetadataValidation metadataValidation, Clock clock, CacheOptions cacheOptions) {
        NamespaceCheck namespaces = this::requireNamespace;
        caches = new WatchCacheHub(storage, cacheOptions);
        for (ApiResource resource : served) {
            resources.put(resource.gvr(), resource);
            groupVersions.add(resource.group() + "/" + resource.version());
            if (!NOT_STORED.contains(resource.group() + "/" + resource.name())) {
                var cache = caches.register(ObjectKeys.of(resource).prefix(), decoder(resource));
                stores.put(resource.gvr(), new ResourceStore(resource, strategies.forResource(resource), storage,
                        metadataValidation, namespaces, clock, cache));
            }
        }
        caches.start();
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

    /** The store of core/v1 namespaces. */
    public ResourceStore namespaces() {
        return stores.get(new GroupVersionResource("", "v1", "namespaces"));
    }

    /** Every store, for controllers that act on all resources (namespace deletion). */
    public Collection<ResourceStore> stores() {
        return List.copyOf(stores.values());
    }

    private void requireNamespace(String namespace, GroupVersionResource resource, String name) {
        ObjectNode ns = namespaces().get("", namespace);
        if (!ObjectMeta.of(ns).deletionTimestamp().isEmpty()) {
            String message = "namespace " + namespace + " is being terminated";
            throw ApiException.forbidden(resource, name,
                    "unable to create new content in namespace " + namespace + " because it is being terminated",
                    List.of(new StatusCause("NamespaceTerminating", message, "metadata.namespace")));
        }
    }
}
