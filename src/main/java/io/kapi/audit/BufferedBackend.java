package io.kapi.audit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * kube's buffered backend ({@code --audit-*-mode=batch}): requests only put their events in a bounded
 * buffer and go on; one thread takes them out in batches of at most {@code maxBatchSize}, or what came
 * within {@code maxBatchWait}, throttled to {@code qps} batches a second (bursts of {@code burst}), and
 * hands each batch to the delegate. A full buffer drops the event (counted as an error of the delegate's
 * plugin): a slow or dead delegate never holds a request. An asynchronous delegate (the webhook) gets
 * up to {@link #MAX_IN_FLIGHT} batches at once, so memory stays bounded at the buffer plus those.
 * {@link #shutdown()} stops taking events, hands on everything buffered and waits for the delegate.
 */
final class BufferedBackend implements Backend {

    private static final System.Logger LOG = System.getLogger(BufferedBackend.class.getName());
    static final int MAX_IN_FLIGHT = 8;
    private static final long POLL_SLICE_NANOS = 50_000_000;

    /**
     * @param qps batches per second; 0 or less: not throttled
     */
    record Config(int bufferSize, int maxBatchSize, Duration maxBatchWait, double qps, int burst, boolean async) {
    }

    private final Backend delegate;
    private final Config config;
    private final AuditMetrics metrics;
    private final BlockingQueue<ObjectNode> buffer;
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private final Thread worker;
    private volatile boolean stopping;
    private double tokens;
    private long lastRefill = System.nanoTime();

    BufferedBackend(Backend delegate, Config config, AuditMetrics metrics) {
        this.delegate = delegate;
        this.config = config;
        this.metrics = metrics;
        this.buffer = new ArrayBlockingQueue<>(Math.max(1, config.bufferSize()));
        this.tokens = Math.max(1, config.burst());
        this.worker = Thread.ofPlatform().daemon().name("audit-" + delegate.name() + "-batch").start(this::run);
    }

    @Override
    public boolean process(List<ObjectNode> events) {
        for (int i = 0; i < events.size(); i++) {
            if (stopping || !buffer.offer(events.get(i))) {
                int dropped = events.size() - i;
                metrics.error(delegate.name(), dropped);
                LOG.log(Level.ERROR, "Error in audit plugin ''{0}'' affecting {1} audit events: {2}", delegate.name(),
                        dropped, stopping ? "audit backend shut down" : "audit buffer queue blocked");
                return true;
            }
        }
        return true;
    }

    private void run() {
        Duration wait = config.maxBatchWait().isPositive() ? config.maxBatchWait() : Duration.ofMillis(1);
        while (!(stopping && buffer.isEmpty())) {
            List<ObjectNode> batch = new ArrayList<>();
            long until = System.nanoTime() + wait.toNanos();
            while (batch.size() < config.maxBatchSize()) {
                long left = until - System.nanoTime();
                ObjectNode e = stopping || left <= 0 ? buffer.poll() : poll(Math.min(left, POLL_SLICE_NANOS));
                if (e != null) {
                    batch.add(e);
                } else if (stopping || left <= 0) {
                    break;
                }
            }
            if (!batch.isEmpty()) {
                throttle();
                send(batch);
            }
        }
    }

    /**
     * Waits for an event in short slices, so that a shutdown is seen soon; the worker is never
     * interrupted (an interrupt would close the log file's channel under a write).
     */
    private ObjectNode poll(long nanos) {
        try {
            return buffer.poll(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            return null;
        }
    }

    private void send(List<ObjectNode> batch) {
        if (!config.async()) {
            delegate.process(batch);
            return;
        }
        inFlight.acquireUninterruptibly();
        Thread.ofVirtual().name("audit-" + delegate.name() + "-send").start(() -> {
            try {
                delegate.process(batch);
            } finally {
                inFlight.release();
            }
        });
    }

    /** A token bucket: {@code qps} tokens a second up to {@code burst}; a batch takes one. */
    private void throttle() {
        if (config.qps() <= 0 || stopping) {
            return;
        }
        long now = System.nanoTime();
        tokens = Math.min(Math.max(1, config.burst()), tokens + (now - lastRefill) / 1e9 * config.qps());
        lastRefill = now;
        if (tokens < 1) {
            long sleepNanos = (long) ((1 - tokens) / config.qps() * 1e9);
            try {
                TimeUnit.NANOSECONDS.sleep(sleepNanos);
            } catch (InterruptedException e) {
                return;
            }
            tokens = 1;
            lastRefill = System.nanoTime();
        }
        tokens -= 1;
    }

    @Override
    public void shutdown() {
        stopping = true;
        if (config.async()) {
            delegate.shutdown(); // what is left gets one try each, no retries: shutdown must end
        }
        try {
            worker.join();
            inFlight.acquire(MAX_IN_FLIGHT);
            inFlight.release(MAX_IN_FLIGHT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!config.async()) {
            delegate.shutdown();
        }
    }

    @Override
    public String name() {
        return delegate.name();
    }
}
