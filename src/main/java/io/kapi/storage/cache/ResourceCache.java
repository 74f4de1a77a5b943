package io.kapi.storage.cache;

import io.kapi.storage.KeyValue;
import io.kapi.storage.RangeResult;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageException;
import io.kapi.storage.Watch;
import io.kapi.storage.WatchEvent;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;

/**
 * The watch cache of one resource (one storage prefix), kube-apiserver's {@code watchCache} and the
 * watcher half of its {@code Cacher}: every current object, decoded once, in key order (so a namespace
 * is a key range and a name a single lookup); a bounded window of recent events for resuming watches;
 * and the watchers, to which each applied event is dispatched while the write lock is held, so a
 * watcher registered at revision R sees exactly the events after R.
 *
 * <p>Life: the cache starts on first use, as a list of its prefix at the store's current revision
 * followed by one storage watch of that prefix from there. That list's revision is the oldest a watch
 * may resume from: a watch from before it gets 410 Gone (too old resource version), as from a
 * kube-apiserver whose cache started then. A storage watch that breaks is resumed from the last
 * applied revision; if that history is gone the cache re-lists and ends its watchers.
 *
 * <p>Freshness: the cache knows it is current at revision R when it applied an event of R or the
 * storage watch sent a progress notification of R or later; a consistent read asks the watch for
 * progress and waits for it (kube-apiserver 1.31+'s consistent reads from cache).
 */
public final class ResourceCache implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ResourceCache.class.getName());

    private final String prefix;
    private final ObjectDecoder decoder;
    private final CacheOptions options;
    private final Storage storage;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final TreeMap<String, CachedObject> store = new TreeMap<>();
    /**
     * Keys whose stored value does not decode (no encryption provider opens it, or it is not an object),
     * with the error a read of them answers: kube's corrupt-object internal error naming the key. They
     * keep the cache serving every other object; a get or a list that covers one fails with its error.
     */
    private final TreeMap<String, RuntimeException> corrupt = new TreeMap<>();
    /**
     * The objects of {@link #store} by key, for a get without the lock (a GET is a point read; the tree and
     * the lock are for ranges and for the watchers' order): kept in step with the store under the write
     * lock, replaced whole on a re-list (never cleared in place, so a read during one sees the old state).
     */
    private volatile Map<String, CachedObject> byKey = new ConcurrentHashMap<>();
    /**
     * Whether {@link #corrupt} has any key; written under the write lock before {@link #byKey} drops an
     * unreadable key, so a get that misses a key it then finds unreadable takes the lock and answers its
     * error.
     */
    private volatile boolean anyCorrupt;
    private final CopyOnWriteArrayList<CacheWatcher> watchers = new CopyOnWriteArrayList<>();
    private final ReentrantLock progressLock = new ReentrantLock();
    private final Condition advanced = progressLock.newCondition();
    private final AtomicBoolean progressPending = new AtomicBoolean();
    private final EventWindow window;
    private volatile long revision;
    private volatile boolean started;
    private volatile boolean closed;
    private volatile Watch watch;
    private volatile CacheObserver observer;

    ResourceCache(String prefix, ObjectDecoder decoder, CacheOptions options, Storage storage) {
        this(prefix, decoder, options, storage, CacheObserver.NONE);
    }

    ResourceCache(String prefix, ObjectDecoder decoder, CacheOptions options, Storage storage, CacheObserver observer) {
        this.observer = observer;
        this.prefix = prefix;
        this.decoder = decoder;
        this.options = options;
        this.storage = storage;
        this.window = new EventWindow(options.eventWindow(), options.windowBytes(), 0);
    }

    public String prefix() {
        return prefix;
    }

    /** Starts the cache if it has not started yet: lists the prefix and starts following its writes. */
    public void start() {
        if (started) {
            return;
        }
        synchronized (this) {
            if (!started && !closed) {
                relistAndWatch();
                started = true;
            }
        }
    }

    /** Whether the cache has started (listed its prefix and follows its writes). */
    public boolean started() {
        return started;
    }

    /** The revision the cache is current at, without starting it (0 until it has started). */
    long appliedRevision() {
        return revision;
    }

    /** The revision the cache is current at: every write of the prefix up to it is reflected. */
    public long revision() {
        start();
        return revision;
    }

    /**
     * Waits until the cache is current at {@code minRevision} or later, asking the storage watch for
     * progress while it is behind.
     *
     * @return false if it did not get there within the freshness wait
     */
    public boolean awaitRevision(long minRevision) {
        start();
        if (revision >= minRevision) {
            return true;
        }
        long waitStart = System.nanoTime();
        long deadline = waitStart + options.freshnessWait().toNanos();
        progressLock.lock();
        try {
            while (revision < minRevision) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || closed) {
                    return false;
                }
                requestProgress();
                advanced.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(20)));
            }
            observer.readWaited(prefix, waitStart);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            progressLock.unlock();
        }
    }

    /**
     * Whether the cache has applied every write of its prefix up to {@code storageRevision}, without waiting:
     * when it has not, the storage watch is asked for progress (not waited for, at most every
     * {@value #PROGRESS_HINT_MILLIS} ms: under writes most reads find the cache behind, and each request
     * wakes the watch's dispatcher), so that a later call may find it current although the writes since
     * were to other prefixes.
     */
    public boolean currentAt(long storageRevision) {
        if (revision >= storageRevision) {
            return true;
        }
        long now = System.nanoTime();
        long last = lastProgressHint;
        if (now - last >= PROGRESS_HINT_MILLIS * 1_000_000L) {
            lastProgressHint = now;
            requestProgress();
        }
        return false;
    }

    private static final long PROGRESS_HINT_MILLIS = 100;
    /** When {@link #currentAt} last asked for progress (racy by design: an extra request is harmless). */
    private volatile long lastProgressHint = System.nanoTime() - PROGRESS_HINT_MILLIS * 1_000_000L;

    private void requestProgress() {
        Watch w = watch;
        if (w != null && progressPending.compareAndSet(false, true)) {
            w.requestProgress();
        }
    }

    /** The storage error for a read of {@code requested} the cache did not reach in time. */
    public StorageException.ResourceVersionTooLarge tooLarge(long requested) {
        return new StorageException.ResourceVersionTooLarge(requested, revision);
    }

    /** The cached object at {@code key} if the cache has started; never starts it (unlike {@link #get}). */
    public Optional<CachedObject> peek(String key) {
        return started ? lookup(key) : Optional.empty();
    }

    /** The current version of {@code key}. */
    public Optional<CachedObject> get(String key) {
        start();
        return lookup(key);
    }

    private Optional<CachedObject> lookup(String key) {
        // no key unreadable before and after the miss: the key was absent (a key that turned unreadable
        // meanwhile set the flag first; one made readable again was put back before the flag cleared)
        boolean clean = !anyCorrupt;
        CachedObject found = byKey.get(key);
        if (found != null || clean && !anyCorrupt) {
            return Optional.ofNullable(found);
        }
        lock.readLock().lock();
        try {
            RuntimeException unreadable = corrupt.get(key);
            if (unreadable != null) {
                throw unreadable;
            }
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
        start();
        lock.readLock().lock();
        try {
            long at = revision;
            String from = startKey == null || startKey.compareTo(scope) < 0 ? scope : startKey;
            NavigableMap<String, CachedObject> range = store.subMap(from, true, scope + Character.MAX_VALUE, false);
            var unreadable = corrupt.subMap(from, true, scope + Character.MAX_VALUE, false);
            if (!unreadable.isEmpty()) {
                throw new Unreadable(unreadable.values().stream().limit(Unreadable.MOST + 1L).toList());
            }
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
    /**
     * Thrown by {@link #list} when its range holds values that cannot be read: the read error of each, in key
     * order, at most {@link #MOST} and one more (so that the caller knows there were more).
     */
    public static final class Unreadable extends RuntimeException {
        /** kube's {@code corruptObjErrAggregatorFactory(100)}: the most unreadable values a LIST names. */
        public static final int MOST = 100;
        private final transient List<RuntimeException> errors;

        Unreadable(List<RuntimeException> errors) {
            super(errors.getFirst().getMessage(), errors.getFirst(), false, false);
            this.errors = errors;
        }

        public List<RuntimeException> errors() {
            return errors;
        }
    }

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
     *         {@link Delivery.Failure} with {@link StorageException.Compacted} ("too old resource version")
     */
    public CacheWatch watch(String scope, Predicate<CachedObject> filter, long fromRevision, boolean initialEvents) {
        start();
        lock.writeLock().lock();
        try {
            long now = revision;
            CacheWatcher watcher = new CacheWatcher(this, scope, filter, options.watcherBuffer(),
                    initialEvents ? now : Math.max(now, fromRevision));
            if (initialEvents) {
                for (CachedObject o : store.subMap(scope, true, scope + Character.MAX_VALUE, false).values()) {
                    if (filter.test(o)) {
                        watcher.addInitial(new Delivery.Change(EventType.ADDED, o.object(), o.revision(),
                                SharedFrames.ofInitialEvent(o.encodings())));
                    }
                }
                watcher.addInitial(new Delivery.InitialEventsEnd(now));
            } else if (fromRevision < window.floor()) {
                watcher.addInitial(new Delivery.Failure(new StorageException.Compacted(fromRevision, window.floor())));
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

    void observe(CacheObserver newObserver) {
        this.observer = newObserver;
    }

    /** How many objects the cache holds. */
    int size() {
        lock.readLock().lock();
        try {
            return store.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** How many objects the cache holds now and how many watchers follow it (flow control's work estimates). */
    public Counts counts() {
        lock.readLock().lock();
        try {
            return new Counts(store.size(), watchers.size());
        } finally {
            lock.readLock().unlock();
        }
    }

    /** @param objects objects held @param watchers watchers registered */
    public record Counts(long objects, int watchers) {
    }

    /** How many watchers are registered (for tests and metrics). */
    public int watcherCount() {
        return watchers.size();
    }

    void forget(CacheWatcher watcher) {
        watchers.remove(watcher);
    }

    /** A watcher was cut off for not keeping up (kube's terminated watchers). */
    void cutOff() {
        observer.watcherCutOff(prefix);
    }

    /** Stops following storage and ends every watcher. */
    @Override
    public void close() {
        closed = true;
        Watch w = watch;
        if (w != null) {
            w.close();
        }
        for (CacheWatcher watcher : List.copyOf(watchers)) {
            watcher.terminate(new Delivery.End("the cache stopped"));
        }
        signalProgress();
    }

    // ---- following storage ----

    private void relistAndWatch() {
        long at = storage.currentRevision();
        replace(readAll(at), at);
        watch = storage.watch(prefix, at, this::onEvent);
    }

    private List<KeyValue> readAll(long at) {
        List<KeyValue> all = new ArrayList<>();
        String start = null;
        RangeResult page;
        do {
            page = storage.range(prefix, start, 10_000, at);
            all.addAll(page.items());
            if (!page.items().isEmpty()) {
                start = page.items().getLast().key() + "\0";
            }
        } while (page.more());
        return all;
    }

    private void onEvent(WatchEvent event) {
        switch (event) {
            case WatchEvent.Put put -> apply(put.current(), put.current().key(), put.revision());
            case WatchEvent.Delete delete -> apply(null, delete.previous().key(), delete.revision());
            case WatchEvent.Progress progress -> {
                progressPending.set(false);
                if (progress.revision() > revision) {
                    revision = progress.revision();
                }
                signalProgress();
            }
            case WatchEvent.Error error -> Thread.ofVirtual().name("kapi-cache-resume").start(() -> resume(error));
        }
    }

    private void signalProgress() {
        progressLock.lock();
        try {
            advanced.signalAll();
        } finally {
            progressLock.unlock();
        }
    }

    /** Applies one write (from the storage watch thread) and dispatches it to the watchers. */
    private void apply(KeyValue current, String key, long eventRevision) {
        CachedObject now;
        RuntimeException unreadable = null;
        try {
            now = current == null ? null : decoder.decode(current);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "watch cache cannot apply the write of " + key + " at " + eventRevision, e);
            now = null;
            unreadable = e;
        }
        lock.writeLock().lock();
        try {
            // a key turns unreadable: flagged before it leaves byKey; readable again: in byKey before the
            // flag may clear (see lookup)
            if (unreadable != null) {
                corrupt.put(key, unreadable);
                anyCorrupt = true;
            } else {
                corrupt.remove(key);
            }
            CachedObject before = now == null ? store.remove(key) : store.put(key, now);
            if (now == null) {
                byKey.remove(key);
            } else {
                byKey.put(key, now);
            }
            anyCorrupt = !corrupt.isEmpty();
            if (now != null || before != null) {
                CacheEvent cacheEvent = new CacheEvent(eventRevision, key, now, before);
                window.add(cacheEvent);
                for (CacheWatcher w : watchers) {
                    w.offer(cacheEvent);
                }
            }
            revision = eventRevision;
        } finally {
            lock.writeLock().unlock();
        }
        observer.applied(prefix, eventRevision);
        signalProgress();
    }

    /** Replaces the whole state (priming, or a re-list after the storage watch broke). */
    private void replace(List<KeyValue> items, long atRevision) {
        List<CachedObject> decoded = new ArrayList<>(items.size());
        Map<String, RuntimeException> unreadable = new TreeMap<>();
        for (KeyValue kv : items) {
            try {
                decoded.add(decoder.decode(kv));
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "watch cache cannot read " + kv.key() + ": " + e.getMessage());
                unreadable.put(kv.key(), e);
            }
        }
        lock.writeLock().lock();
        try {
            store.clear();
            corrupt.clear();
            corrupt.putAll(unreadable);
            anyCorrupt = !corrupt.isEmpty();
            Map<String, CachedObject> keyed = new ConcurrentHashMap<>(Math.max(16, decoded.size() * 4 / 3 + 1));
            for (CachedObject o : decoded) {
                store.put(o.key(), o);
                keyed.put(o.key(), o);
            }
            byKey = keyed;
            window.reset(atRevision);
            revision = atRevision;
            for (CacheWatcher w : List.copyOf(watchers)) {
                w.terminate(new Delivery.End("the cache re-listed"));
            }
        } finally {
            lock.writeLock().unlock();
        }
        observer.initialized(prefix, atRevision);
    }

    private synchronized void resume(WatchEvent.Error error) {
        int attempts = 0;
        while (!closed && !storageClosed(error.cause())) {
            try {
                if (error.cause() instanceof StorageException.Compacted) {
                    LOG.log(Level.WARNING, "watch cache of {0} fell behind compacted history; re-listing", prefix);
                    relistAndWatch();
                } else {
                    LOG.log(Level.INFO, "watch cache of {0}: storage watch broke ({1}); resuming at {2}",
                            prefix, error.cause().getMessage(), revision);
                    watch = storage.watch(prefix, revision, this::onEvent);
                }
                return;
            } catch (StorageException.Compacted e) {
                error = new WatchEvent.Error(e, revision);
            } catch (StorageException.Unavailable e) {
                if (closed || storageClosed(e) || ++attempts > 300) {
                    LOG.log(Level.WARNING, "watch cache of {0} stops: {1}", prefix, e.getMessage());
                    return;
                }
                LOG.log(Level.WARNING, "watch cache of {0} cannot resume: {1}", prefix, e.getMessage());
                pause();
            }
        }
    }

    private static boolean storageClosed(StorageException e) {
        return e instanceof StorageException.Unavailable && "storage closed".equals(e.getMessage());
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
