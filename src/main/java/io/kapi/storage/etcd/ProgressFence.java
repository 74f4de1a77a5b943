package io.kapi.storage.etcd;

import java.lang.System.Logger.Level;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The progress requests of one {@link EtcdWatch}, answered with fences: a write to the watch's fence
 * key, whose event reaches the watch after every event of a lower revision (etcd delivers each
 * watcher's events in revision order, whether the watcher is synced, catching up or slow). The
 * fence's event is then the {@link io.kapi.storage.WatchEvent.Progress}: it vouches only for what
 * the watch has received, which etcd's own progress notification before 3.4.31/3.5.13 does not
 * (etcd issue 15220: it is sent on a side channel that can overtake buffered events, and with the
 * store's revision even while the watcher is still catching up; Debian 12 ships etcd 3.4.23).
 *
 * <p>At most one fence is in flight per watch: requests made meanwhile are answered by the next one,
 * written once the current one came back (it may have got a revision older than those requests).
 */
final class ProgressFence {

    private static final System.Logger LOG = System.getLogger(ProgressFence.class.getName());

    private final Supplier<CompletableFuture<Long>> write;
    private boolean inFlight;
    private boolean again;
    private long pending;
    private long observed;

    /** @param write writes the fence and gives its revision */
    ProgressFence(Supplier<CompletableFuture<Long>> write) {
        this.write = write;
    }

    /** Asks for a fence; never blocks. */
    void request() {
        synchronized (this) {
            if (inFlight) {
                again = true;
                return;
            }
            inFlight = true;
            pending = 0;
        }
        write.get().whenComplete((revision, failure) -> {
            if (failure != null) {
                LOG.log(Level.DEBUG, "progress fence not written: {0}", failure.getMessage());
            }
            boolean next;
            synchronized (this) {
                pending = failure == null ? revision : -1;
                next = finishIfAnswered();
            }
            if (next) {
                request();
            }
        });
    }

    /** The watch received a fence event at {@code revision} (ours or another watcher's of the prefix). */
    void observed(long revision) {
        boolean next;
        synchronized (this) {
            observed = Math.max(observed, revision);
            next = finishIfAnswered();
        }
        if (next) {
            request();
        }
    }

    /**
     * Under the lock: ends the fence in flight once its write failed (pending -1) or its revision was
     * observed; returns whether a request waits for the next fence.
     */
    private boolean finishIfAnswered() {
        if (!inFlight || pending == 0 || (pending > 0 && observed < pending)) {
            return false;
        }
        inFlight = false;
        boolean next = again;
        again = false;
        return next;
    }
}
