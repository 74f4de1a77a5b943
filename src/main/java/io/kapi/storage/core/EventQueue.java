package io.kapi.storage.core;

import io.kapi.storage.StorageException;
import io.kapi.storage.WatchEvent;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bounded queue between the writer (who must never wait) and one watcher's dispatcher thread.
 * When full, it drops everything and ends with an error: the watcher is cut off rather than
 * buffering without bound or slowing writers.
 */
final class EventQueue {
    private final int capacity;
    private final ArrayDeque<WatchEvent> events = new ArrayDeque<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private StorageException failure;
    private boolean closed;

    EventQueue(int capacity) {
        this.capacity = capacity;
    }

    /** Adds {@code event} without waiting; on overflow the queue fails instead. */
    void offer(WatchEvent event) {
        lock.lock();
        try {
            if (closed || failure != null) {
                return;
            }
            if (events.size() >= capacity) {
                failLocked(new StorageException.Unavailable(
                        "watcher fell more than " + capacity + " events behind", null));
                return;
            }
            events.addLast(event);
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Drops pending events; {@link #take} then returns an error with {@code cause} (first failure wins). */
    void fail(StorageException cause) {
        lock.lock();
        try {
            failLocked(cause);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The next event; after a failure, an {@link WatchEvent.Error} (revision -1, to be filled in by
     * the watcher); null once closed.
     */
    WatchEvent take() throws InterruptedException {
        lock.lock();
        try {
            while (true) {
                if (closed) {
                    return null;
                }
                if (failure != null) {
                    return new WatchEvent.Error(failure, -1);
                }
                WatchEvent next = events.pollFirst();
                if (next != null) {
                    return next;
                }
                changed.await();
            }
        } finally {
            lock.unlock();
        }
    }

    void close() {
        lock.lock();
        try {
            closed = true;
            events.clear();
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    private void failLocked(StorageException cause) {
        if (failure == null && !closed) {
            failure = cause;
            events.clear();
            changed.signal();
        }
    }
}
