/**
 * The watch cache (kube-apiserver's Cacher): {@link io.kapi.storage.cache.WatchCacheHub} follows the
 * storage through one watch and keeps a {@link io.kapi.storage.cache.ResourceCache} per resource, which
 * serves lists, gets and watches from memory; {@link io.kapi.storage.cache.CacheWatch} is what a watch
 * reads. Memory is bounded: a count- and byte-bounded event window per resource, a bounded queue per
 * watcher (a slow watcher is cut off), and one decoded copy of each object shared by every reader.
 */
package io.kapi.storage.cache;
