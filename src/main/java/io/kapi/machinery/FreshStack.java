package io.kapi.machinery;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Runs a task on a thread of its own, with a stack of {@link #STACK_BYTES}, and waits for it: for third-party
 * code that recurses once per level of its input (a parser, a regular expression compiler), bounded by the
 * input's own limits (a few hundred KiB of stack at most), which must not also depend on how deep the
 * caller's stack already is, nor on the JVM's thread stack size (bin/kapi's 512 KiB, which bounds request
 * threads). The task's result is returned and what it throws rethrown, a {@link StackOverflowError}
 * included, for the caller to word as its input's fault.
 */
public final class FreshStack {

    /** The stack a task gets: reserved, and committed only as far as it is used. */
    static final long STACK_BYTES = 16L << 20;

    private FreshStack() {
    }

    /**
     * The result of {@code task}, run on a new thread. An interrupt while waiting does not stop it (such
     * tasks are short and CPU-bound); the interrupt is kept.
     */
    public static <T> T call(Supplier<T> task) {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread worker = new Thread(null, () -> {
            try {
                result.set(task.get());
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "fresh-stack", STACK_BYTES);
        worker.setDaemon(true);
        worker.start();
        boolean interrupted = false;
        while (true) {
            try {
                worker.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        switch (failure.get()) {
            case null -> {
                return result.get();
            }
            case RuntimeException e -> throw e;
            case Error e -> throw e;
            case Throwable t -> throw new IllegalStateException(t);
        }
    }
}
