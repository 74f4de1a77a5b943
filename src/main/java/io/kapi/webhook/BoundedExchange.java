package io.kapi.webhook;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One HTTP exchange held, as a whole, to one timeout: connecting, sending, the status line and headers
 * and the whole body, as a Go context deadline or {@code http.Client.Timeout} bounds a call. The JDK's own
 * request timeout ends at the headers, so a server that sends them and then trickles its body (or never
 * ends it) would hold the caller for as long as it likes; here the exchange is cancelled (its connection
 * closed) when the time is up.
 */
public final class BoundedExchange {

    /**
     * The timeout passed before the whole answer came.
     *
     * @see #answered()
     */
    public static final class DeadlineExceeded extends HttpTimeoutException {

        private final int status;

        DeadlineExceeded(int status) {
            super(status < 0 ? "timed out awaiting headers" : "timed out reading the body");
            this.status = status;
        }

        /** Whether the status line and headers had come (the body had not, or not all of it). */
        public boolean answered() {
            return status >= 0;
        }

        /** The status code answered, -1 when none was. */
        public int status() {
            return status;
        }
    }

    private BoundedExchange() {
    }

    /**
     * Sends {@code request} and reads its answer with {@code body}, all within {@code timeout}.
     *
     * @throws DeadlineExceeded the timeout passed first; the exchange is cancelled
     * @throws IOException the exchange failed (as {@link HttpClient#send} fails)
     * @throws InterruptedException the calling thread was interrupted; the exchange is cancelled
     */
    public static <T> HttpResponse<T> send(HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> body,
                                           Duration timeout) throws IOException, InterruptedException {
        AtomicInteger status = new AtomicInteger(-1);
        CompletableFuture<HttpResponse<T>> exchange = client.sendAsync(request, info -> {
            status.set(info.statusCode());
            return body.apply(info);
        });
        try {
            return exchange.get(Math.max(1, timeout.toNanos()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw new DeadlineExceeded(status.get());
        } catch (InterruptedException e) {
            exchange.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw failure(e.getCause());
        }
    }

    private static IOException failure(Throwable cause) {
        if (cause instanceof IOException io) {
            return io;
        }
        if (cause instanceof RuntimeException r) {
            throw r;
        }
        if (cause instanceof Error err) {
            throw err;
        }
        return new IOException(cause);
    }
}
