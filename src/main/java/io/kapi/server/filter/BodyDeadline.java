package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.TreeBody;
import io.kapi.machinery.ApiException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;

/**
 * Holds the request body to the request's deadline ({@code --request-timeout}, 60 s by default), so a
 * client sending its body a byte a second cannot hold a request (and the memory of its body) past it: the
 * read that finds the deadline passed fails with 504 {@code Timeout: request did not complete within the
 * allotted timeout}, kube-apiserver's answer to a request past its deadline. A body that stops arriving
 * altogether is ended by the connection's idle timeout instead. Long-running requests have no deadline.
 */
public final class BodyDeadline implements Filter {

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        Instant deadline = request.context().deadline();
        if (deadline == null || request.rest().body() instanceof TreeBody) {
            return chain.proceed(request); // no deadline, or the loopback client's object, in memory already
        }
        return chain.proceed(request.withBody(new Deadlined(request.rest().body(), deadline)));
    }

    private static final class Deadlined extends FilterInputStream {
        private final Instant deadline;

        Deadlined(InputStream in, Instant deadline) {
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
            if (Instant.now().isAfter(deadline)) {
                throw ApiException.timeout("request did not complete within the allotted timeout");
            }
        }
    }
}
