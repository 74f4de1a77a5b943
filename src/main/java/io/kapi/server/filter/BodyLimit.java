package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.TreeBody;
import io.kapi.machinery.ApiException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Refuses request bodies over {@code maxBytes} with 413 RequestEntityTooLarge: at once when the
 * Content-Length says so, otherwise (chunked or HTTP/2 without length) by failing the read that
 * passes the limit with the same {@link ApiException}. kube-apiserver's limit is 3 MiB.
 */
public record BodyLimit(long maxBytes) implements Filter {

    /** kube-apiserver's {@code MaxRequestBodyBytes}: 3 MiB. */
    public static final long DEFAULT_MAX_BYTES = 3 * 1024 * 1024;

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        String length = request.rest().header("content-length");
        if (length != null) {
            try {
                if (Long.parseLong(length.trim()) > maxBytes) {
                    throw ApiException.tooLarge(maxBytes);
                }
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("invalid Content-Length: " + length);
            }
        }
        if (request.rest().body() instanceof TreeBody) {
            return chain.proceed(request); // the loopback client's own object, in memory: nothing arrives to count
        }
        return chain.proceed(request.withBody(new Limited(request.rest().body(), maxBytes)));
    }

    private static final class Limited extends FilterInputStream {
        private final long max;
        private long read;

        Limited(InputStream in, long max) {
            super(in);
            this.max = max;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            count(skipped);
            return skipped;
        }

        private void count(long n) {
            read += n;
            if (read > max) {
                throw ApiException.tooLarge(max);
            }
        }
    }
}
