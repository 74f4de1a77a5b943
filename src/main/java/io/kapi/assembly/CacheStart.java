package io.kapi.assembly;

import io.kapi.health.PostStartHook;
import io.kapi.storage.cache.WatchCacheHub;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Starts the watch caches once the server's own bootstrap objects are written (system namespaces,
 * RBAC policy, priority classes, flow control, the kubernetes service): the revision each cache starts
 * at is the oldest a watch may resume from, as on a kube-apiserver whose caches started with it, so a
 * watch from before the server started gets 410 Gone. Until then reads go to storage and a cache a
 * request needs starts on the spot. Named as kube-apiserver's hook that starts its informers.
 */
final class CacheStart implements PostStartHook {

    private final WatchCacheHub caches;
    private final CountDownLatch bootstrapped;
    private final CountDownLatch started = new CountDownLatch(1);
    private final List<PostStartHook> prerequisites;

    private CacheStart(WatchCacheHub caches, List<PostStartHook> prerequisites) {
        this.caches = caches;
        this.bootstrapped = new CountDownLatch(prerequisites.size());
        this.prerequisites = prerequisites.stream().map(h -> HookOrder.counting(h, bootstrapped)).toList();
    }

    /** The hook, after the given bootstrap hooks (use {@link #prerequisites()} in their place). */
    static CacheStart after(WatchCacheHub caches, List<PostStartHook> bootstrap) {
        return new CacheStart(caches, bootstrap);
    }

    /** The bootstrap hooks, each telling this one when it is done. */
    List<PostStartHook> prerequisites() {
        return prerequisites;
    }

    @Override
    public String name() {
        return "generic-apiserver-start-informers";
    }

    @Override
    public void run() throws Exception {
        if (!bootstrapped.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("bootstrap objects not written yet");
        }
        caches.start();
        started.countDown();
    }

    /**
     * Waits until this hook has run: the bootstrap objects are written and the caches started, the
     * bulk of a start's work; false when {@code timeout} passed first.
     */
    boolean awaitStarted(Duration timeout) throws InterruptedException {
        return started.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }
}
