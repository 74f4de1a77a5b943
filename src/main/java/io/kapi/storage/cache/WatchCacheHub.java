package io.kapi.storage.cache;

import io.kapi.storage.Storage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The watch caches of one {@link Storage}, one per resource prefix, added and removed as resources
 * come and go. Each {@link ResourceCache} follows its own prefix with its own storage watch (as
 * kube-apiserver runs one reflector per resource) and starts on first use; {@link #close} stops them all.
 */
public final class WatchCacheHub implements AutoCloseable {

    private final Storage storage;
    private final CacheOptions options;
    private final Map<String, ResourceCache> caches = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public WatchCacheHub(Storage storage, CacheOptions options) {
        this.storage = storage;
        this.options = options;
    }

    /**
     * The cache of the objects under {@code prefix} (one resource; it must end in {@code /}); one cache
     * per prefix, whoever asks: resources sharing a prefix (served in several versions) share it.
     */
    public ResourceCache register(String prefix, ObjectDecoder decoder) {
        if (closed) {
            throw new IllegalStateException("the watch caches are closed");
        }
        return caches.computeIfAbsent(prefix, p -> new ResourceCache(p, decoder, options, storage));
    }

    /** Stops and forgets the cache of {@code prefix} (a resource no longer served); its watchers end. */
    public void remove(String prefix) {
        ResourceCache cache = caches.remove(prefix);
        if (cache != null) {
            cache.close();
        }
    }

    /**
     * A number that changes whenever a cache applies a write or a cache comes or goes (from the caches'
     * revisions, which only grow): a poller that read the caches when it had a value may skip its next
     * pass while the value stays the same.
     */
    public long progress() {
        long sum = caches.size();
        for (ResourceCache cache : caches.values()) {
            sum = sum * 31 + cache.appliedRevision();
        }
        return sum;
    }

    /** Starts every registered cache now, rather than on first use. */
    public void start() {
        caches.values().forEach(ResourceCache::start);
    }

    /**
     * Waits until every started cache is current at {@code revision} (e.g. after a restore, so that
     * reads at "any" version and new watches see it); false if one did not get there within its
     * freshness wait.
     */
    public boolean awaitRevision(long revision) {
        boolean all = true;
        for (ResourceCache cache : caches.values()) {
            all &= !cache.started() || cache.awaitRevision(revision);
        }
        return all;
    }

    /** The number of objects in each started cache, by prefix ({@code apiserver_resource_objects}). */
    public Map<String, Integer> sizes() {
        Map<String, Integer> sizes = new java.util.LinkedHashMap<>();
        caches.forEach((prefix, cache) -> {
            if (cache.started()) {
                sizes.put(prefix, cache.size());
            }
        });
        return sizes;
    }

    /** The prefixes cached. */
    public List<String> prefixes() {
        return List.copyOf(caches.keySet());
    }

    @Override
    public void close() {
        closed = true;
        caches.values().forEach(ResourceCache::close);
    }
}
