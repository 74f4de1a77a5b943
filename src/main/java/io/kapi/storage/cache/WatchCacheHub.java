package io.kapi.storage.cache;

import io.kapi.storage.KeyValue;
import io.kapi.storage.RangeResult;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageException;
import io.kapi.storage.Watch;
import io.kapi.storage.WatchEvent;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps every {@link ResourceCache} of one {@link Storage} current through a single storage watch of
 * the whole key space, started at the revision the caches were primed at (kube-apiserver runs one
 * reflector per resource; one watch for all lets every cache know it is current up to the store's
 * latest revision, which is what a consistent read waits for, without etcd's progress notifications).
 *
 * <p>Events are applied by the storage's watch thread, in revision order; a cache's watchers are fed
 * under its lock without blocking. If the storage watch breaks (this dispatcher fell behind), it is
 * resumed from the last applied revision; if that history is gone, every cache re-lists and ends its
 * watchers, whose clients re-watch (410 for versions older than the re-list, as kube-apiserver).
 *
 * <p>Life cycle: {@link #register} every resource, then {@link #start}, then serve; {@link #close}
 * stops the storage watch.
 */
public final class WatchCacheHub implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(WatchCacheHub.class.getName());

    private final Storage storage;
    private final CacheOptions options;
    private final Map<String, ResourceCache> caches = new LinkedHashMap<>();
    private final ReentrantLock seenLock = new ReentrantLock();
    private final Condition advanced = seenLock.newCondition();
    private final AtomicInteger waiters = new AtomicInteger();
    private volatile long seen;
    private volatile Watch watch;
    private volatile boolean closed;
    private volatile boolean started;

    public WatchCacheHub(Storage storage, CacheOptions options) {
        this.storage = storage;
        this.options = options;
    }

    /**
     * The cache of the objects under {@code prefix} (one resource; it must end in {@code /}); one cache per
     * prefix, whoever asks. Only before {@link #start}.
     */
    public synchronized ResourceCache register(String prefix, ObjectDecoder decoder) {
        if (started) {
            throw new IllegalStateException("register caches before start");
        }
        return caches.computeIfAbsent(prefix, p -> new ResourceCache(p, decoder, options, this));
    }

    /** Primes every cache from one snapshot of the store and starts following its writes. */
    public synchronized void start() {
        started = true;
        relistAndWatch();
    }

    /** The revision up to which every write has been applied to the caches. */
    long seen() {
        return seen;
    }

    /** Waits until {@link #seen()} reaches {@code revision}; false after {@code max}. */
    boolean awaitSeen(long revision, Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        waiters.incrementAndGet();
        seenLock.lock();
        try {
            while (seen < revision) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || closed) {
                    return false;
                }
                advanced.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            seenLock.unlock();
            waiters.decrementAndGet();
        }
    }

    private void advance(long revision) {
        seen = revision;
        if (waiters.get() > 0) {
            seenLock.lock();
            try {
                advanced.signalAll();
            } finally {
                seenLock.unlock();
            }
        }
    }

    private void relistAndWatch() {
        long at = storage.currentRevision();
        for (ResourceCache cache : caches.values()) {
            cache.replace(readAll(cache.prefix(), at), at);
        }
        advance(at);
        follow(at);
    }

    private List<KeyValue> readAll(String prefix, long revision) {
        List<KeyValue> all = new ArrayList<>();
        String start = null;
        RangeResult page;
        do {
            page = storage.range(prefix, start, 10_000, revision);
            all.addAll(page.items());
            if (!page.items().isEmpty()) {
                start = page.items().getLast().key() + "\0";
            }
        } while (page.more());
        return all;
    }

    private void follow(long from) {
        watch = storage.watch("", from, this::onEvent);
    }

    private void onEvent(WatchEvent event) {
        switch (event) {
            case WatchEvent.Put put -> dispatch(put.current().key(), put.current(), put.revision());
            case WatchEvent.Delete delete -> dispatch(delete.previous().key(), null, delete.revision());
            case WatchEvent.Progress progress -> advance(Math.max(seen, progress.revision()));
            case WatchEvent.Error error -> Thread.ofVirtual().name("kapi-cache-resume")
                    .start(() -> resume(error));
        }
    }

    private void dispatch(String key, KeyValue current, long revision) {
        ResourceCache cache = cacheOf(key);
        if (cache != null) {
            try {
                cache.apply(current, key, revision);
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "watch cache cannot apply the write of " + key + " at " + revision, e);
            }
        }
        advance(revision);
    }

    private ResourceCache cacheOf(String key) {
        int slash = key.indexOf('/', 1);
        for (int depth = 0; slash > 0 && depth < 4; depth++) {
            slash = key.indexOf('/', slash + 1);
            if (slash < 0) {
                return null;
            }
            ResourceCache cache = caches.get(key.substring(0, slash + 1));
            if (cache != null) {
                return cache;
            }
        }
        return null;
    }

    private synchronized void resume(WatchEvent.Error error) {
        int attempts = 0;
        while (!closed && !storageClosed(error.cause())) {
            try {
                if (error.cause() instanceof StorageException.Compacted) {
                    LOG.log(Level.WARNING, "watch cache fell behind compacted history; re-listing");
                    relistAndWatch();
                } else {
                    LOG.log(Level.INFO, "watch cache storage watch broke ({0}); resuming at {1}",
                            error.cause().getMessage(), seen);
                    follow(seen);
                }
                return;
            } catch (StorageException.Compacted e) {
                error = new WatchEvent.Error(e, seen);
            } catch (StorageException.Unavailable e) {
                if (closed || storageClosed(e) || ++attempts > 300) {
                    LOG.log(Level.WARNING, "watch cache stops: {0}", e.getMessage());
                    return;
                }
                LOG.log(Level.WARNING, "watch cache cannot resume: {0}", e.getMessage());
                sleep();
            }
        }
    }

    private static boolean storageClosed(StorageException e) {
        return e instanceof StorageException.Unavailable && "storage closed".equals(e.getMessage());
    }

    private static void sleep() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        Watch w = watch;
        if (w != null) {
            w.close();
        }
    }
}
