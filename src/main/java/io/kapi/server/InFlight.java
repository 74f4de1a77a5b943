package io.kapi.server;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The requests being served, for graceful shutdown: short requests are counted so shutdown can wait for
 * them to finish; streamed responses (watches) are known by their threads so shutdown can end them.
 *
 * <p>Ending a stream interrupts its thread: a watch's wait for the next event returns, the stream's
 * writer returns normally and the adapter closes the response, which sends the final chunk (HTTP/1.1)
 * or END_STREAM (HTTP/2). While streams are being ended, writes are not cut short by that interrupt
 * ({@link #ending()}), so the last event and the final chunk still go out. Thread-safe.
 */
final class InFlight {

    private final AtomicInteger requests = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong started = new java.util.concurrent.atomic.AtomicLong();
    private final Set<Thread> streams = ConcurrentHashMap.newKeySet();
    private volatile boolean ending;

    /** A short request begins; pair with {@link #requestDone()}. */
    void requestStarted() {
        requests.incrementAndGet();
        started.incrementAndGet();
    }

    /** How many requests have begun since the server started. */
    long started() {
        return started.get();
    }

    void requestDone() {
        if (requests.decrementAndGet() == 0) {
            synchronized (this) {
                notifyAll();
            }
        }
    }

    /** The calling thread starts writing a stream; once streams are being ended it is ended at once. */
    void streamStarted() {
        Thread current = Thread.currentThread();
        streams.add(current);
        if (ending) {
            current.interrupt();
        }
    }

    void streamDone() {
        streams.remove(Thread.currentThread());
        synchronized (this) {
            notifyAll();
        }
    }

    /** Whether streams are being ended: an interrupt is then shutdown's, not a client gone. */
    boolean ending() {
        return ending;
    }

    /** Waits until no short request is in flight, at most {@code timeout}; returns how many still are. */
    int awaitRequests(Duration timeout) throws InterruptedException {
        return await(timeout, false);
    }

    /** Ends every stream (and any that starts from now on), waiting at most {@code timeout}; returns how many remain. */
    int endStreams(Duration timeout) throws InterruptedException {
        ending = true;
        streams.forEach(Thread::interrupt);
        return await(timeout, true);
    }

    private synchronized int await(Duration timeout, boolean streamsToo) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            int left = requests.get() + (streamsToo ? streams.size() : 0);
            long wait = deadline - System.nanoTime();
            if (left == 0 || wait <= 0) {
                return left;
            }
            wait(Math.max(1, wait / 1_000_000), 0);
        }
    }
}
