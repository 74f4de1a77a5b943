package io.kapi.machinery;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Where objects nested deeper than {@link #SHALLOW_DEPTH} are worked on. A request may nest
 * {@link DecodeBudget#MAX_DEPTH} levels (Go's limit). Reading, copying, comparing, hashing and writing a tree
 * take no stack for its depth ({@link io.kapi.machinery.tree.StacklessNodes}), but the engines that follow
 * kube's own recursive code — server-side apply and managed fields, strategic merge, schema validation,
 * pruning and defaulting, CEL values, protobuf — recurse once (or a few times) per level. On a request's
 * virtual thread they have room for {@link #SHALLOW_DEPTH} levels with a fourfold margin; a deeper object is
 * handed to a platform thread whose stack, {@link #STACK_BYTES}, is sized for the deepest object a request can
 * make, so kube's limit is kept everywhere and no depth a client can send overflows a stack.
 *
 * <p>How a caller uses it: {@link #isDeep} before starting work on an object (an early-exit walk, without
 * recursion), and {@link #call} to run that work where it fits; code that finds a deep tree late (a patch body
 * parsed inside an update) throws {@link Needed} with {@link #require} before recursing into it, and the
 * pass it belongs to runs again on a deep stack. At most {@link #WORKERS} deep tasks run at once.
 */
public final class DeepStack {

    /** How deep a tree may nest and still be walked on any thread's stack. */
    public static final int SHALLOW_DEPTH = 256;
    /** The stack of a deep worker: room for {@link DecodeBudget#MAX_DEPTH} levels of the deepest walk. */
    public static final long STACK_BYTES = Long.getLong("kapi.deepStackBytes", 64L << 20);
    /** Deep tasks running at once: each may touch tens of MiB of its stack. */
    public static final int WORKERS = 4;

    private static final Semaphore PERMITS = new Semaphore(WORKERS, true);

    private DeepStack() {
    }

    /** Thrown by {@link #require} off a deep stack: the pass must run again with {@link #call}. */
    public static final class Needed extends RuntimeException {
        @java.io.Serial
        private static final long serialVersionUID = 1L;

        Needed() {
            super("a tree nested deeper than " + SHALLOW_DEPTH + " levels needs a deep stack", null, false, false);
        }
    }

    /** A deep worker's thread. */
    private static final class Worker extends Thread {
        Worker(Runnable task) {
            super(null, task, "kapi-deep-stack", STACK_BYTES);
            setDaemon(true);
        }
    }

    /** Whether the current thread is a deep worker. */
    public static boolean onDeepStack() {
        return Thread.currentThread() instanceof Worker;
    }

    /** Whether any of {@code trees} (null ones ignored) nests deeper than {@link #SHALLOW_DEPTH}. */
    public static boolean isDeep(JsonNode... trees) {
        for (JsonNode tree : trees) {
            if (tree != null && deeperThan(tree, SHALLOW_DEPTH)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the JSON text {@code json} nests deeper than {@link #SHALLOW_DEPTH}, read without parsing it
     * (brackets in strings do not count). For other text (YAML) it may say no to a deep body.
     */
    public static boolean isDeep(byte[] json) {
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < json.length; i++) {
            byte c = json[i];
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                if (++depth > SHALLOW_DEPTH) {
                    return true;
                }
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return false;
    }

    /** Throws {@link Needed} when {@code tree} is deep and this is not a deep stack. */
    public static void require(JsonNode tree) {
        if (!onDeepStack() && isDeep(tree)) {
            throw new Needed();
        }
    }

    /**
     * The result of {@code task} run on a deep stack (here, when this is one already). Waits for a worker;
     * what the task throws is rethrown. An interrupt while waiting does not stop the task; it is kept.
     */
    public static <T> T call(Supplier<T> task) {
        if (onDeepStack()) {
            return task.get();
        }
        PERMITS.acquireUninterruptibly();
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try {
            Worker worker = new Worker(() -> {
                try {
                    result.set(task.get());
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
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
        } finally {
            PERMITS.release();
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

    /** {@code task} on a deep stack when any of {@code trees} is deep, else here. */
    public static <T> T callIfDeep(Supplier<T> task, JsonNode... trees) {
        return !onDeepStack() && isDeep(trees) ? call(task) : task.get();
    }

    /** Whether {@code tree} has more than {@code limit} nested containers; stops as soon as it finds so. */
    private static boolean deeperThan(JsonNode tree, int limit) {
        if (!tree.isContainerNode()) {
            return false;
        }
        ArrayDeque<Iterator<JsonNode>> open = new ArrayDeque<>();
        open.push(tree.elements());
        while (!open.isEmpty()) {
            Iterator<JsonNode> it = open.peek();
            if (!it.hasNext()) {
                open.pop();
                continue;
            }
            JsonNode child = it.next();
            if (child.isContainerNode() && !child.isEmpty()) {
                if (open.size() + 1 > limit) {
                    return true;
                }
                open.push(child.elements());
            } else if (child.isContainerNode() && open.size() + 1 > limit) {
                return true;
            }
        }
        return false;
    }
}
