package io.kapi.storage.core;

import io.kapi.storage.StorageException;
import io.kapi.storage.WatchEvent;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bounded queue between the writer (who must never wait) and one watcher's dispatcher thread.
 * When full, it drops everything and ends with an error: the watcher is cut off rather than
 * buffering without bound or slowing writers. Events up to {@code exemptUpTo} (the history a remote
 * backend pushes when a watch starts) do not count against the capacity.
 */
public final class EventQueue {
    private final int capacity;
    private final long exemptUpTo;
    private final ArrayDeque<WatchEvent> events = new ArrayDeque<>();
    private int exempt;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private StorageException failure;
    private boolean closed;

    public EventQueue(int capacity) {
        this(capacity, 0);
    }

    public EventQueue(int capacity, long exemptUpTo) {
        this.capacity = capacity;
        this.exemptUpTo = exemptUpTo;
    }

    /** Adds {@code event} without waiting; on overflow the queue fails instead. */
    public void offer(WatchEvent event) {
        lock.lock();
        try {
            if (closed || failure != null) {
                return;
            }
            if (event.revision() <= exemptUpTo) {
                exempt++;
            } else if (events.size() - exempt >= capacity) {
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
    public void fail(StorageException cause) {
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
    public WatchEvent take() throws InterruptedException {
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
                    if (next.revision() <= exemptUpTo) {
                        exempt--;
                    }
                    return next;
                }
                changed.await();
            }
        } finally {
            lock.unlock();
        }
    }

    public void close() {
        lock.lock();
        try {
            closed = true;
            events.clear();
            exempt = 0;
            changed.signal();
        } finally {
            lock.unlock();
        }
    }

    private void failLocked(StorageException cause) {
        if (failure == null && !closed) {
            failure = cause;
            events.clear();
            exempt = 0;
            changed.signal();
        }
    }
}
