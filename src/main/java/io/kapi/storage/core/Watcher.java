package io.kapi.storage.core;

import io.kapi.storage.StorageException;
import io.kapi.storage.Watch;
import io.kapi.storage.WatchEvent;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;

/**
 * One watch: replays history from its start revision up to the revision at which it joined the
 * live stream, then delivers live events. The listener is only ever called from the watch's own
 * virtual thread, in revision order.
 */
final class Watcher implements Watch {
    private static final System.Logger LOG = System.getLogger(Watcher.class.getName());
    private static final ThreadFactory THREADS = Thread.ofVirtual().name("kapi-watch-", 0).factory();

    private final WatchHub hub;
    private final String prefix;
    private final long from;
    private final long liveFrom;
    private final Consumer<WatchEvent> listener;
    private final EventQueue queue;
    private volatile boolean closed;
    private long delivered;

    /**
     * @param from deliver events after this revision
     * @param liveFrom events up to this revision come from history, later ones from the live queue
     */
    Watcher(WatchHub hub, String prefix, long from, long liveFrom, Consumer<WatchEvent> listener, int capacity) {
        this.hub = hub;
        this.prefix = prefix;
        this.from = from;
        this.liveFrom = liveFrom;
        this.listener = listener;
        this.queue = new EventQueue(capacity);
        this.delivered = from;
    }

    void start() {
        THREADS.newThread(this::run).start();
    }

    /** Called by the hub, in revision order, for every live write; never blocks. */
    void offer(WatchEvent event) {
        if (event.revision() > from && Events.key(event).startsWith(prefix)) {
            queue.offer(event);
        }
    }

    /** Called by the hub under its publish lock; never blocks. */
    void offerProgress(WatchEvent.Progress progress) {
        queue.offer(progress);
    }

    @Override
    public void requestProgress() {
        if (!closed) {
            hub.requestProgress(this);
        }
    }

    /** Ends the watch with {@code cause} as its last event, delivered from the watch's thread. */
    void fail(StorageException cause) {
        queue.fail(cause);
    }

    @Override
    public void close() {
        closed = true;
        queue.close();
        hub.remove(this);
    }

    private void run() {
        try {
            if (replay()) {
                deliverLive();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "watch on " + prefix + " ended: listener failed", e);
        } finally {
            close();
        }
    }

    /** Replays (from, liveFrom]; returns false if the watch ended. */
    private boolean replay() {
        if (from >= liveFrom) {
            return true;
        }
        long[] next = {from + 1};
        hub.history().replay(from, liveFrom, event -> {
            if (event.revision() != next[0]) {
                return false;
            }
            next[0]++;
            if (Events.key(event).startsWith(prefix)) {
                deliver(event);
            }
            return !closed && !hub.closed();
        });
        if (closed) {
            return false;
        }
        if (hub.closed()) {
            return true; // the live queue holds the hub's closing error
        }
        if (next[0] != liveFrom + 1) {
            deliver(new WatchEvent.Error(
                    new StorageException.Compacted(next[0] - 1, hub.history().compactedRevision()), delivered));
            return false;
        }
        delivered = liveFrom;
        return true;
    }

    private void deliverLive() throws InterruptedException {
        while (!closed) {
            WatchEvent event = queue.take();
            if (event == null) {
                return;
            }
            if (event instanceof WatchEvent.Error error) {
                deliver(new WatchEvent.Error(error.cause(), delivered));
                return;
            }
            deliver(event);
        }
    }

    private void deliver(WatchEvent event) {
        if (!closed) {
            listener.accept(event);
            if (!(event instanceof WatchEvent.Error)) {
                delivered = event.revision();
            }
        }
    }
}
