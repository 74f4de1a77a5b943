package io.kapi.apis.bootstrap;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a hook's independent writes a few at a time on virtual threads ({@value #WRITES} in flight): each
 * write through the local client is mostly CPU (decoding, admission, validation, encoding) with a commit
 * at its end, so a hook with a hundred of them (the RBAC policy) finishes sooner when they overlap, and
 * one group commit (one sync of the embedded store) serves several of them. Returns when all are done;
 * after a failure no further write starts, and the first failure is rethrown.
 */
final class Concurrently {

    /** Writes in flight at once: enough to keep two cores busy while each waits for its commit. */
    static final int WRITES = 4;

    private Concurrently() {
    }

    static void run(String name, List<Runnable> tasks) {
        run(name, tasks, WRITES);
    }

    static void run(String name, List<Runnable> tasks, int parallelism) {
        AtomicInteger next = new AtomicInteger();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < Math.min(parallelism, tasks.size()); w++) {
            workers.add(Thread.ofVirtual().name(name + "-" + w).start(() -> {
                for (int t = next.getAndIncrement(); t < tasks.size() && failure.get() == null; t = next.getAndIncrement()) {
                    try {
                        tasks.get(t).run();
                    } catch (RuntimeException e) {
                        failure.compareAndSet(null, e);
                    }
                }
            }));
        }
        try {
            for (Thread worker : workers) {
                worker.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name + " interrupted", e);
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
