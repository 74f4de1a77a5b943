package io.kapi.storage.etcd;

import static io.kapi.storage.etcd.KeyLayout.bytes;

import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchResponse;
import io.kapi.storage.KeyValue;
import io.kapi.storage.StorageException;
import io.kapi.storage.Watch;
import io.kapi.storage.WatchEvent;
import io.kapi.storage.core.EventQueue;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;

/**
 * One {@link io.kapi.storage.Storage#watch} on etcd: one etcd watcher of {@code [fence, end of prefix)}
 * with previous values, feeding a bounded {@link EventQueue} that a virtual thread drains into the
 * listener.
 *
 * <p>Resuming: when the etcd watch breaks (member down, leader lost: it requires a leader, as
 * kube-apiserver's watches do), a new etcd watcher starts after the last revision received, so the
 * listener sees no gap and no duplicate. jetcd's own resume is not used: it restarts from the header
 * revision of its "created" response, which skips events a catching-up watcher had not yet received.
 *
 * <p>Progress: see {@link ProgressFence}; every fence event under this watch's range is delivered as a
 * {@link WatchEvent.Progress} in its place in the stream.
 */
final class EtcdWatch implements Watch {

    private static final System.Logger LOG = System.getLogger(EtcdWatch.class.getName());
    private static final ThreadFactory THREADS = Thread.ofVirtual().name("kapi-etcd-watch-", 0).factory();

    private final EtcdStorage storage;
    private final String prefix;
    private final String fence;
    private final Consumer<WatchEvent> listener;
    private final EventQueue queue;
    private final ProgressFence progress;
    private final Object lock = new Object();
    private io.etcd.jetcd.Watch.Watcher watcher;
    private int generation;
    private volatile long received;
    private volatile boolean closed;
    private long delivered;

    /**
     * @param prefix the etcd prefix watched
     * @param from deliver events after this revision
     * @param current the store's revision at the start: the history up to it is exempt from the queue's bound
     */
    EtcdWatch(EtcdStorage storage, String prefix, long from, long current, Consumer<WatchEvent> listener, int capacity) {
        this.storage = storage;
        this.prefix = prefix;
        this.fence = KeyLayout.fenceOf(prefix);
        this.listener = listener;
        this.queue = new EventQueue(capacity, current);
        this.progress = new ProgressFence(() -> storage.writeFence(fence));
        this.received = from;
        this.delivered = from;
    }

    void start() {
        connect();
        THREADS.newThread(this::run).start();
    }

    @Override
    public void requestProgress() {
        if (!closed) {
            progress.request();
        }
    }

    /** Ends the watch with {@code cause} as its last event. */
    void fail(StorageException cause) {
        queue.fail(cause);
        disconnect();
    }

    @Override
    public void close() {
        closed = true;
        queue.close();
        disconnect();
        storage.forget(this);
    }

    private void connect() {
        synchronized (lock) {
            if (closed || storage.closed()) {
                return;
            }
            int current = ++generation;
            WatchOption option = WatchOption.builder()
                    .withRange(bytes(KeyLayout.prefixEnd(prefix)))
                    .withRevision(received + 1)
                    .withPrevKV(true)
                    .withRequireLeader(true)
                    .build();
            watcher = storage.watchClient().watch(bytes(fence), option, io.etcd.jetcd.Watch.listener(
                    r -> onNext(current, r), e -> onBroken(current, e), () -> onBroken(current, null)));
        }
    }

    private void disconnect() {
        io.etcd.jetcd.Watch.Watcher w;
        synchronized (lock) {
            generation++;
            w = watcher;
            watcher = null;
        }
        if (w != null) {
            w.close();
        }
    }

    /** Called by jetcd, one response at a time per etcd watcher. */
    private void onNext(int from, WatchResponse response) {
        if (from != generation) {
            return;
        }
        for (io.etcd.jetcd.watch.WatchEvent e : response.getEvents()) {
            String key = e.getKeyValue().getKey().toString(StandardCharsets.UTF_8);
            long revision = e.getKeyValue().getModRevision();
            if (revision < received) {
                continue;
            }
            received = revision;
            if (key.equals(fence)) {
                queue.offer(new WatchEvent.Progress(revision));
                progress.observed(revision);
            } else if (key.startsWith(prefix) && !KeyLayout.isFence(key)) {
                queue.offer(convert(e, key, revision));
            }
        }
    }

    private WatchEvent convert(io.etcd.jetcd.watch.WatchEvent e, String key, long revision) {
        io.etcd.jetcd.KeyValue prev = e.getPrevKV();
        KeyValue previous = prev == null || prev.getVersion() == 0 ? null : storage.kapi(prev);
        if (e.getEventType() == io.etcd.jetcd.watch.WatchEvent.EventType.DELETE) {
            if (previous == null) {
                previous = new KeyValue(storage.layout().kapiKey(key), new byte[0], 0, 0);
            }
            return new WatchEvent.Delete(previous, revision);
        }
        return new WatchEvent.Put(storage.kapi(e.getKeyValue()), previous);
    }

    /** The etcd watch ended (error, cancel or completion): end on compaction, else resume. */
    private void onBroken(int from, Throwable error) {
        synchronized (lock) {
            if (from != generation || closed) {
                return;
            }
        }
        disconnect();
        if (error instanceof CompactedException compacted) {
            storage.compacted(compacted.getCompactedRevision());
            queue.fail(new StorageException.Compacted(received, compacted.getCompactedRevision()));
            return;
        }
        if (storage.closed()) {
            queue.fail(new StorageException.Unavailable("storage closed", null));
            return;
        }
        LOG.log(Level.DEBUG, "etcd watch of {0} broke ({1}); resuming after revision {2}", prefix,
                error == null ? "completed" : error.getMessage(), received);
        Thread.ofVirtual().name("kapi-etcd-watch-resume").start(this::resume);
    }

    private void resume() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        connect();
    }

    private void run() {
        try {
            while (!closed) {
                WatchEvent event = queue.take();
                if (event == null) {
                    return;
                }
                if (event instanceof WatchEvent.Error error) {
                    listener.accept(new WatchEvent.Error(error.cause(), delivered));
                    return;
                }
                listener.accept(event);
                delivered = event.revision();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "etcd watch on " + prefix + " ended: listener failed", e);
        } finally {
            close();
        }
    }
}
