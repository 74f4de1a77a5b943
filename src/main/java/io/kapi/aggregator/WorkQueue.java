package io.kapi.aggregator;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

/**
 * client-go's work queue, without rate limiting: keys to work on, handed to several workers. A key
 * added while it waits waits once; a key added while a worker has it is handed out again once that
 * worker is {@linkplain #done done}, so no key is ever worked on by two workers at once and no change is
 * missed.
 */
final class WorkQueue {

    private final Deque<String> queue = new ArrayDeque<>();
    /** Keys to be worked on (waiting, or to be queued again when their worker is done). */
    private final Set<String> dirty = new HashSet<>();
    private final Set<String> processing = new HashSet<>();

    synchronized void add(String key) {
        if (!dirty.add(key) || processing.contains(key)) {
            return;
        }
        queue.add(key);
        notifyAll();
    }

    /** The next key; the caller must call {@link #done} with it. Waits for one. */
    synchronized String take() throws InterruptedException {
        while (queue.isEmpty()) {
            wait();
        }
        String key = queue.poll();
        dirty.remove(key);
        processing.add(key);
        return key;
    }

    synchronized void done(String key) {
        processing.remove(key);
        if (dirty.contains(key)) {
            queue.add(key);
            notifyAll();
        }
    }
}
