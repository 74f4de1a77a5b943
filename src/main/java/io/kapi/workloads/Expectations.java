package io.kapi.workloads;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube's {@code UIDTrackingControllerExpectations}: how many creations a controller still waits to see in its
 * informer, and which Pods it still waits to see go. While any is outstanding the controller does not count
 * again, so Pods created but not yet seen are never created twice, nor Pods deleted twice. A deletion is
 * tracked by Pod name, so seeing a Pod start terminating and then vanish counts once. Expectations older than
 * {@link #TTL} count as met (a lost watch event must not stop a controller for good).
 */
final class Expectations {

    /** kube's {@code ExpectationsTimeout}. */
    static final Duration TTL = Duration.ofMinutes(5);

    private record Pending(int adds, Set<String> deletes, long since) {
    }

    private final Map<String, Pending> pending = new ConcurrentHashMap<>();

    /** Whether {@code key} may act: nothing outstanding, or expired, or never set. */
    boolean satisfied(String key) {
        Pending p = pending.get(key);
        return p == null || (p.adds() <= 0 && p.deletes().isEmpty()) || System.nanoTime() - p.since() > TTL.toNanos();
    }

    void expectCreations(String key, int adds) {
        pending.put(key, new Pending(adds, ConcurrentHashMap.newKeySet(), System.nanoTime()));
    }

    void expectDeletions(String key, Collection<String> pods) {
        Set<String> deletes = ConcurrentHashMap.newKeySet();
        deletes.addAll(pods);
        pending.put(key, new Pending(0, deletes, System.nanoTime()));
    }

    /** Both at once (kube's daemon controller deletes and creates in one sync). */
    void expect(String key, int adds, Collection<String> pods) {
        Set<String> deletes = ConcurrentHashMap.newKeySet();
        deletes.addAll(pods);
        pending.put(key, new Pending(adds, deletes, System.nanoTime()));
    }

    /** A creation seen, or one that failed and will never be seen. */
    void creationObserved(String key) {
        pending.computeIfPresent(key, (k, p) -> new Pending(p.adds() - 1, p.deletes(), p.since()));
    }

    /** Pod {@code pod} seen terminating or gone, or its deletion failed. */
    void deletionObserved(String key, String pod) {
        Pending p = pending.get(key);
        if (p != null) {
            p.deletes().remove(pod);
        }
    }

    void forget(String key) {
        pending.remove(key);
    }
}
