package io.kapi.registry;

import io.kapi.storage.cache.CacheOptions;

/**
 * How the stores read, chosen when the server is assembled: straight from storage ({@link DirectReads},
 * kube's etcd3 store: no watches), or through a watch cache per resource that wraps storage and hands it
 * what it cannot answer ({@link CachedReads}, kube's cacher) — what a server runs.
 */
public sealed interface ReadPath {

    /** Every read from storage; watches are refused (405), as a resource without a watch cache. */
    ReadPath STORAGE = new Storage();

    /** Reads (and watches) served by watch caches with kube-apiserver's defaults. */
    ReadPath WATCH_CACHE = new WatchCache(CacheOptions.DEFAULT);

    /** Reads from storage alone. */
    record Storage() implements ReadPath {
    }

    /** Reads through watch caches configured by {@code options}. */
    record WatchCache(CacheOptions options) implements ReadPath {
    }
}
