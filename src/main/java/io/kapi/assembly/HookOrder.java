package io.kapi.assembly;

import io.kapi.health.PostStartHook;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Orders post-start hooks that would otherwise race. The server runs every hook at once, each on its
 * own thread, retrying one that fails after a back-off of 0.1 s or more; a bootstrap hook that writes
 * into {@code kube-system} or {@code kube-public} before the system namespaces exist fails so, and
 * its retry was most of an in-process server's start. Ordered hooks keep their names, threads and
 * readiness checks; they only wait for what they need.
 */
final class HookOrder {

    private static final long WAIT_SECONDS = 30;

    private HookOrder() {
    }

    /** {@code first}, then each of {@code then}, which start their work once {@code first} has returned. */
    static List<PostStartHook> after(PostStartHook first, List<PostStartHook> then) {
        CountDownLatch done = new CountDownLatch(1);
        List<PostStartHook> ordered = new ArrayList<>(List.of(counting(first, done)));
        for (PostStartHook hook : then) {
            ordered.add(gated(hook, first.name(), timeout -> done.await(timeout.toNanos(), TimeUnit.NANOSECONDS)));
        }
        return ordered;
    }

    /** {@code hook}, which starts its work once the watch caches have started. */
    static PostStartHook afterCaches(CacheStart caches, PostStartHook hook) {
        return gated(hook, caches.name(), caches::awaitStarted);
    }

    /** Waits for what a hook needs; false when {@code timeout} passed first. */
    @FunctionalInterface
    private interface Gate {
        boolean await(Duration timeout) throws InterruptedException;
    }

    /** {@code hook} under its own name, starting its work once {@code gate} opens ({@code awaited} names it). */
    private static PostStartHook gated(PostStartHook hook, String awaited, Gate gate) {
        return PostStartHook.of(hook.name(), () -> {
            if (!gate.await(Duration.ofSeconds(WAIT_SECONDS))) {
                throw new IllegalStateException(awaited + " has not finished yet");
            }
            hook.run();
        });
    }

    /** {@code hook}, counting {@code latch} down once, the first time it returns. */
    static PostStartHook counting(PostStartHook hook, CountDownLatch latch) {
        boolean[] counted = new boolean[1];
        return PostStartHook.of(hook.name(), () -> {
            hook.run();
            synchronized (counted) {
                if (!counted[0]) {
                    counted[0] = true;
                    latch.countDown();
                }
            }
        });
    }
}
