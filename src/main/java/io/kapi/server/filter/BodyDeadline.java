package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

/**
 * Gives a request body {@code timeout} to arrive, counted from when the request reached this filter, so a
 * client sending its body a byte a second cannot hold a request (and the memory of its body) for long:
 * the read that finds the deadline passed fails with 504 {@code Timeout: request did not complete within
 * the allotted timeout}, kube-apiserver's answer to a request past its deadline. A body that stops
 * arriving altogether is ended by the connection's idle timeout instead.
 */
public record BodyDeadline(Duration timeout) implements Filter {

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        long deadline = System.nanoTime() + timeout.toNanos();
        return chain.proceed(request.withBody(new Deadlined(request.rest().body(), deadline)));
    }

    private static final class Deadlined extends FilterInputStream {
        private final long deadline;

        Deadlined(InputStream in, long deadline) {
            super(in);
            this.deadline = deadline;
        }

        @Override
        public int read() throws IOException {
            check();
            return super.read();
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            check();
            return super.read(buffer, offset, length);
        }

        private void check() {
            if (System.nanoTime() - deadline > 0) {
                throw ApiException.timeout("request did not complete within the allotted timeout");
            }
        }
    }
}
