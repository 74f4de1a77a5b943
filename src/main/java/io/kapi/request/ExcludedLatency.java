package io.kapi.request;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The time a request spent waiting on what kube-apiserver leaves out of its SLI latency
 * ({@code apiserver_request_sli_duration_seconds}): admission webhooks and the flow-control queue. Added
 * to by the webhook plugins and the flow-control filter, read by the request metrics when it is answered.
 */
public final class ExcludedLatency {

    private final AtomicLong nanos = new AtomicLong();

    /** Adds the time since {@code startNanos} ({@link System#nanoTime()}). */
    public void since(long startNanos) {
        nanos.addAndGet(Math.max(0, System.nanoTime() - startNanos));
    }

    /** The time added so far, in nanoseconds. */
    public long nanos() {
        return nanos.get();
    }
}
