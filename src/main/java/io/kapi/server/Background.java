package io.kapi.server;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Start-up work run beside other start-up work (certificates while the API is assembled, the schemas
 * while the storage opens): each task on its own daemon platform thread, its failure rethrown as it
 * was thrown when its result is taken.
 */
public final class Background {

    private Background() {
    }

    /** Starts {@code task} now on a thread named {@code name}. */
    public static <T> CompletableFuture<T> start(String name, Supplier<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofPlatform().name(name).daemon().start(() -> {
            try {
                result.complete(task.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return result;
    }

    /** Waits for the result of {@code future}; a failure is rethrown unwrapped. */
    public static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
