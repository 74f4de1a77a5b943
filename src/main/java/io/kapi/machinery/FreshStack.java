package io.kapi.machinery;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Runs a task on a virtual thread of its own and waits for it: for third-party code that recurses once per
 * level of its input (a parser, a regular expression compiler), bounded by the input's own limits, which
 * must not also depend on how deep the caller's stack already is. The task's result is returned and what it
 * throws rethrown, a {@link StackOverflowError} included, for the caller to word as its input's fault.
 */
public final class FreshStack {

    private FreshStack() {
    }

    /**
     * The result of {@code task}, run on a new virtual thread. An interrupt while waiting does not stop it
     * (such tasks are short and CPU-bound); the interrupt is kept.
     */
    public static <T> T call(Supplier<T> task) {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread worker = Thread.ofVirtual().name("fresh-stack").start(() -> {
            try {
                result.set(task.get());
            } catch (Throwable t) {
                failure.set(t);
            }
        });
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
