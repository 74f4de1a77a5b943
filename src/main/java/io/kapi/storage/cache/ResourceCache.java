package io.kapi.storage.cache;

import io.kapi.machinery.ApiException;
import io.kapi.storage.KeyValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;

/**
 * The watch cache of one resource (one storage prefix), kube-apiserver's {@code watchCache} and the
 * watcher half of its {@code Cacher}: every current object, decoded once, in key order (so a namespace
 * is a key range and a name a single lookup); a bounded window of recent events for resuming watches;
 * and the watchers, to which each applied event is dispatched while the write lock is held, so a
 * watcher registered at revision R sees exactly the events after R.
 *
 * <p>Revision: {@link #revision()} is the revision the cache is current at, which advances with the
 * writes of every resource (the hub sees them all), not only this one's.
 */
public final class ResourceCache {

    private final String prefix;
    private final ObjectDecoder decoder;
    private final CacheOptions options;
    private final WatchCacheHub hub;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final TreeMap<String, CachedObject> store = new TreeMap<>();
    private final CopyOnWriteArrayList<CacheWatcher> watchers = new CopyOnWriteArrayList<>();
    private EventWindow window;
    private volatile long revision;

    ResourceCache(String prefix, ObjectDecoder decoder, CacheOptions options, WatchCacheHub hub) {
        this.prefix = prefix;
        this.decoder = decoder;
        this.options = options;
        this.hub = hub;
        this.window = new EventWindow(options.eventWindow(), options.windowBytes(), 0);
    }

    public String prefix() {
        return prefix;
    }

    /** The revision the cache is current at: every write up to it is reflected. */
    public long revision() {
        return Math.max(revision, hub.seen());
    }

    /**
     * Waits until the cache is current at {@code minRevision} or later.
     *
     * @return false if it did not get there within the freshness wait
     */
    public boolean awaitRevision(long minRevision) {
        return revision() >= minRevision || hub.awaitSeen(minRevision, options.freshnessWait());
    }

    /**
     * The 504 kube-apiserver answers when a read asks for a revision the cache did not reach in time:
     * {@code Timeout: Too large resource version: R, current: C} with cause ResourceVersionTooLarge.
     */
    public ApiException tooLarge(long requested) {
        return CacheErrors.tooLarge(requested, revision());
    }

    /** The current version of {@code key}. */
    public Optional<CachedObject> get(String key) {
        lock.readLock().lock();
        try {
            return Optional.ofNullable(store.get(key));
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * A page of the objects under {@code scope} (a key prefix) that {@code filter} keeps, in key order,
     * read from one consistent state.
     *
     * @param startKey the first key to consider (null: from the start of {@code scope})
     * @param limit the most objects to return; 0 for all
     */
    public Page list(String scope, String startKey, int limit, Predicate<CachedObject> filter) {
        lock.readLock().lock();
        try {
            long at = revision();
            String from = startKey == null || startKey.compareTo(scope) < 0 ? scope : startKey;
            NavigableMap<String, CachedObject> range = store.subMap(from, true, scope + Character.MAX_VALUE, false);
            List<CachedObject> items = new ArrayList<>();
            String last = null;
            for (Map.Entry<String, CachedObject> e : range.entrySet()) {
                if (limit > 0 && items.size() == limit) {
                    long remaining = range.tailMap(last, false).size();
                    return new Page(items, at, last, remaining);
                }
                if (filter.test(e.getValue())) {
                    items.add(e.getValue());
                }
                last = e.getKey();
            }
            return new Page(items, at, null, 0);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * One page of a cache list.
     *
     * @param revision the revision the page shows the state of
     * @param lastKey the last key the page covered when more keys follow, else null
     * @param remaining how many keys follow {@code lastKey} in the scope
     */
    public record Page(List<CachedObject> items, long revision, String lastKey, long remaining) {
    }

    /**
     * Starts a watch of the objects under {@code scope} that {@code filter} keeps.
     *
     * @param fromRevision send the events after this revision (replayed from the window, then live);
     *        ignored when {@code initialEvents}
     * @param initialEvents send the current state as ADDED events first, then
     *        {@link Delivery.InitialEventsEnd}, then the events after that state
     * @return the watch; when {@code fromRevision} is older than the window, its only delivery is a
     *         410 Expired {@link Delivery.Failure} ("too old resource version"), as kube-apiserver
     */
    public CacheWatch watch(String scope, Predicate<CachedObject> filter, long fromRevision, boolean initialEvents) {
        lock.writeLock().lock();
        try {
            long now = revision();
            CacheWatcher watcher = new CacheWatcher(this, scope, filter, options.watcherBuffer(),
                    initialEvents ? now : Math.max(now, fromRevision));
            if (initialEvents) {
                for (CachedObject o : store.subMap(scope, true, scope + Character.MAX_VALUE, false).values()) {
                    if (filter.test(o)) {
                        watcher.addInitial(new Delivery.Change(EventType.ADDED, o.object(), o.revision(), null));
                    }
                }
                watcher.addInitial(new Delivery.InitialEventsEnd(now));
            } else if (fromRevision < window.floor()) {
                watcher.addInitial(new Delivery.Failure(CacheErrors.tooOld(fromRevision, window.floor())));
                return watcher;
            } else if (fromRevision < now) {
                watcher.replay(window.after(fromRevision));
            }
            watchers.add(watcher);
            return watcher;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** How many watchers are registered (for tests and metrics). */
    public int watcherCount() {
        return watchers.size();
    }

    void forget(CacheWatcher watcher) {
        watchers.remove(watcher);
    }

    // ---- called by the hub's single dispatcher thread ----

    /** Applies one write and dispatches it to the watchers. */
    void apply(KeyValue current, String deletedKey, long eventRevision) {
        CachedObject now = current == null ? null : decoder.decode(current);
        String key = current == null ? deletedKey : current.key();
        lock.writeLock().lock();
        try {
            CachedObject before = now == null ? store.remove(key) : store.put(key, now);
            if (now != null || before != null) {
                CacheEvent event = new CacheEvent(eventRevision, key, now, before);
                window.add(event);
                for (CacheWatcher w : watchers) {
                    w.offer(event);
                }
            }
            revision = eventRevision;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Replaces the whole state (priming, or a re-list after the storage watch broke). */
    void replace(List<KeyValue> items, long atRevision) {
        List<CachedObject> decoded = new ArrayList<>(items.size());
        for (KeyValue kv : items) {
            decoded.add(decoder.decode(kv));
        }
        lock.writeLock().lock();
        try {
            store.clear();
            for (CachedObject o : decoded) {
                store.put(o.key(), o);
            }
            window.reset(atRevision);
            revision = atRevision;
            for (CacheWatcher w : List.copyOf(watchers)) {
                w.terminate(new Delivery.End("the cache re-listed"));
            }
        } finally {
            lock.writeLock().unlock();
        }
    }
}
