package io.kapi.storage.core;

import io.kapi.storage.StorageException;
import io.kapi.storage.Watch;
import io.kapi.storage.WatchEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Fans committed writes out to watchers; shared by every backend.
 *
 * <p>No gap, no duplicate: a new watcher joins the live stream under the same lock that
 * {@link #publish} holds, at the last published revision {@code L}. It replays (from, L] from the
 * backend's {@link History} and takes everything after {@code L} from its live queue. A backend
 * must therefore make an event readable through its History before publishing it, and publish
 * every revision exactly once, in order.
 *
 * <p>Writers never wait for watchers: publishing only offers to each watcher's bounded queue; a
 * watcher whose queue overflows is cut off with {@link WatchEvent.Error}.
 */
public final class WatchHub implements AutoCloseable {
    private final History history;
    private final int queueCapacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final List<Watcher> watchers = new ArrayList<>();
    private long published;
    private volatile boolean closed;

    /** @param published the revision of the last write already committed before the hub exists */
    public WatchHub(History history, int queueCapacity, long published) {
        this.history = Objects.requireNonNull(history, "history");
        this.queueCapacity = queueCapacity;
        this.published = published;
    }

    /** Publishes committed write events, in revision order; never blocks on a watcher. */
    public void publish(List<WatchEvent> events) {
        lock.lock();
        try {
            for (WatchEvent event : events) {
                if (event.revision() != published + 1) {
                    throw new IllegalStateException("published " + event.revision() + " after " + published);
                }
                published = event.revision();
                for (Watcher watcher : watchers) {
                    watcher.offer(event);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Implements {@link io.kapi.storage.Storage#watch}. */
    public Watch watch(String prefix, long fromRevision, Consumer<WatchEvent> listener) {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(listener, "listener");
        Watcher watcher;
        lock.lock();
        try {
            if (closed) {
                throw new StorageException.Unavailable("storage closed", null);
            }
            long from = fromRevision == 0 ? published : fromRevision;
            long compacted = history.compactedRevision();
            if (from < published && from < compacted) {
                throw new StorageException.Compacted(from, compacted);
            }
            watcher = new Watcher(this, prefix, from, published, listener, queueCapacity);
            watchers.add(watcher);
        } finally {
            lock.unlock();
        }
        watcher.start();
        return watcher;
    }

    /**
     * Queues a {@link WatchEvent.Progress} at the last published revision behind everything already
     * queued for {@code watcher}: under the publish lock, so no published event can come after it.
     */
    void requestProgress(Watcher watcher) {
        lock.lock();
        try {
            watcher.offerProgress(new WatchEvent.Progress(published));
        } finally {
            lock.unlock();
        }
    }

    /** Ends every watch with an {@link StorageException.Unavailable} error. */
    @Override
    public void close() {
        List<Watcher> open;
        lock.lock();
        try {
            closed = true;
            open = List.copyOf(watchers);
        } finally {
            lock.unlock();
        }
        for (Watcher watcher : open) {
            watcher.fail(new StorageException.Unavailable("storage closed", null));
        }
    }

    boolean closed() {
        return closed;
    }

    History history() {
        return history;
    }

    void remove(Watcher watcher) {
        lock.lock();
        try {
            watchers.remove(watcher);
        } finally {
            lock.unlock();
        }
    }
}
