package io.kapi.endpoint;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where large LIST responses are encoded: a list of at least {@link #LARGE_ITEMS} items is written by one of
 * a few platform threads (one per core, at least two), taking turns in arrival order, while the request's
 * virtual thread waits — the way kube-apiserver's API Priority and Fairness gives a large list a wide seat.
 *
 * <p>Requests run on virtual threads, which the JDK does not preempt, on one carrier per core: sixteen
 * LISTs of 10,000 objects encoded on them held both carriers of a two-core machine, and a probe GET's
 * thread waited up to 1.7 s for a carrier although the encoders yield every 64 items. On platform threads
 * the encoding is preempted by the operating system, and the carriers stay free for everything else.
 * Smaller lists are written where they are. A list whose turn does not come within the longest wait (10 s
 * by default; encoders held by clients that do not read) is written by a platform thread of its own: the
 * encoders shape load, they never refuse or starve a request; how many lists run at once is API Priority and
 * Fairness's to say (their seats). The encoders run at the operating system's background priority
 * ({@link BackgroundPriority}): a flood of large lists takes only the CPU the other requests leave, and on an
 * idle machine a list is written as fast as before. Thread-safe.
 */
public final class ListEncoders implements AutoCloseable {

    /** Lists smaller than this are written by the request's own thread. */
    public static final int LARGE_ITEMS = 1000;
    private static final Duration MAX_WAIT = Duration.ofSeconds(10);

    private final ExecutorService threads;
    private final long maxWaitNanos;

    /**
     * @param threads how many encoders
     * @param maxWait how long a large list waits for its turn before it is written by its own thread
     */
    public ListEncoders(int threads, Duration maxWait) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        ThreadFactory platform = Thread.ofPlatform().daemon().name("kapi-list-encoder-", 0).factory();
        this.threads = Executors.newFixedThreadPool(threads, work -> platform.newThread(() -> {
            BackgroundPriority.lowerCurrentThread();
            work.run();
        }));
        this.maxWaitNanos = maxWait.toNanos();
    }

    /** One encoder per core, at least two; a 10 s longest wait. */
    public static ListEncoders perCore() {
        return new ListEncoders(Math.max(2, Runtime.getRuntime().availableProcessors()), MAX_WAIT);
    }

    /** Writing a response, which may fail as I/O does. */
    @FunctionalInterface
    public interface Writing {
        void write() throws IOException;
    }

    /** Runs {@code writing} of a list of {@code items} items: here when small, else on an encoder, waiting for it. */
    public void encode(int items, Writing writing) throws IOException {
        if (items < LARGE_ITEMS) {
            writing.write();
            return;
        }
        Future<?> turn = threads.submit(() -> {
            try {
                writing.write();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try {
            try {
                turn.get(maxWaitNanos, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                if (turn.cancel(false)) {
                    writeOwnThread(writing); // its turn never came
                    return;
                }
                turn.get();
            }
        } catch (InterruptedException e) {
            turn.cancel(true);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while a list was being written");
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case UncheckedIOException io -> throw io.getCause();
                case RuntimeException r -> throw r;
                case Error error -> throw error;
                default -> throw new IOException(e.getCause());
            }
        }
    }

    /**
     * Writes a large list whose turn did not come by a platform thread of its own (here when the caller is
     * one), never on a virtual thread's carrier: under a LIST flood on two cores, the lists that had waited
     * 10 s were encoded on the carriers, which then ran nothing else for seconds (exempt requests too).
     */
    private static void writeOwnThread(Writing writing) throws IOException {
        if (!Thread.currentThread().isVirtual()) {
            writing.write();
            return;
        }
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread writer = Thread.ofPlatform().daemon().name("kapi-list-encoder-late").start(() -> {
            BackgroundPriority.lowerCurrentThread();
            try {
                writing.write();
            } catch (IOException | RuntimeException | Error e) {
                failed.set(e);
            }
        });
        try {
            writer.join();
        } catch (InterruptedException e) {
            writer.interrupt();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while a list was being written");
        }
        switch (failed.get()) {
            case null -> { }
            case IOException io -> throw io;
            case RuntimeException r -> throw r;
            case Error error -> throw error;
            default -> throw new IOException(failed.get());
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
