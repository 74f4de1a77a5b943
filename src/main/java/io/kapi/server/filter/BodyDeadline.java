package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.TreeBody;
import io.kapi.machinery.ApiException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Holds the request body to the request's deadline ({@code --request-timeout}, 60 s by default), as
 * kube-apiserver's timeout filter holds the whole request: a client sending its body a byte a second, or
 * sending part of it and then nothing, cannot hold a request (and the memory of its body) past it. The read
 * that finds the deadline passed, or that is blocked when it passes, fails with 504 {@code Timeout: request
 * did not complete within the allotted timeout}, kube-apiserver's answer to a request past its deadline.
 * Long-running requests have no deadline.
 *
 * <p>A read blocked at the deadline is interrupted by a watchdog armed on the first read and disarmed when
 * the body ends; the interrupt only ever reaches the thread while it is inside a read of the body, and is
 * cleared before the read returns or fails.
 */
public final class BodyDeadline implements Filter {

    private static final ScheduledThreadPoolExecutor WATCHDOGS = watchdogs();

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        Instant deadline = request.context().deadline();
        if (deadline == null || request.rest().body() instanceof TreeBody) {
            return chain.proceed(request); // no deadline, or the loopback client's object, in memory already
        }
        return chain.proceed(request.withBody(new Deadlined(request.rest().body(), deadline)));
    }

    private static ScheduledThreadPoolExecutor watchdogs() {
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().name("kapi-body-deadline").daemon().factory());
        pool.setRemoveOnCancelPolicy(true);
        return pool;
    }

    private static final class Deadlined extends FilterInputStream {
        private final Instant deadline;
        private Thread reader; // the thread inside a read, guarded by this
        private boolean expired; // guarded by this
        private ScheduledFuture<?> watchdog; // guarded by this
        private boolean ended; // guarded by this

        Deadlined(InputStream in, Instant deadline) {
            super(in);
            this.deadline = deadline;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            check();
            enter();
            int n = -1;
            boolean returned = false;
            try {
                n = super.read(buffer, offset, length);
                returned = true;
            } finally {
                if (leave(!returned || n < 0)) {
                    throw timeout(); // the deadline passed during this read: whatever it did, the answer is 504
                }
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            disarm();
            super.close();
        }

        private void check() {
            if (Instant.now().isAfter(deadline)) {
                throw timeout();
            }
        }

        private synchronized void enter() {
            reader = Thread.currentThread();
            if (watchdog == null && !ended) {
                long nanos = Math.max(0, Duration.between(Instant.now(), deadline).toNanos());
                watchdog = WATCHDOGS.schedule(this::expire, nanos, TimeUnit.NANOSECONDS);
            }
        }

        /**
         * Ends a read: clears an interrupt the watchdog sent, and disarms it when the body is done.
         *
         * @return whether the deadline passed while the thread was reading
         */
        private synchronized boolean leave(boolean done) {
            reader = null;
            if (done) {
                disarm();
            }
            if (expired) {
                Thread.interrupted();
                return true;
            }
            return false;
        }

        private synchronized void disarm() {
            ended = true;
            if (watchdog != null) {
                watchdog.cancel(false);
            }
        }

        private synchronized void expire() {
            expired = true;
            if (reader != null) {
                reader.interrupt();
            }
        }

        private static ApiException timeout() {
            return ApiException.timeout("request did not complete within the allotted timeout");
        }
    }
}
