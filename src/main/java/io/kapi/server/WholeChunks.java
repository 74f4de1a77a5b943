package io.kapi.server;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpGenerator;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.BufferUtil;

/**
 * HTTP/1.1 whose chunks are whole when they are flushed: {@code size CRLF data CRLF}, as Go's server
 * writes them.
 *
 * <p>Why: Jetty's generator sends the CRLF that ends a chunk only in front of the next chunk (jetty
 * issue 154). That is valid HTTP, but a client that reads a chunk together with its CRLF before it
 * hands the data on (urllib3, hence the official Python client) then sees every watch event only when
 * the next one comes. This generator sends the pending CRLF right after the chunk's data, in the same
 * flush, and drops the CRLF Jetty then puts in front of the next chunk (or of the last chunk).
 */
final class WholeChunks extends HttpConnectionFactory {

    WholeChunks(HttpConfiguration config) {
        super(config);
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        HttpConnection connection = new HttpConnection(getHttpConfiguration(), connector, endPoint) {
            @Override
            protected HttpGenerator newHttpGenerator() {
                return new Generator();
            }
        };
        return configure(connection, connector, endPoint);
    }

    /** Jetty's generator, but a data chunk's CRLF goes out with the chunk. */
    static final class Generator extends HttpGenerator {

        private static final int CR = '\r';
        private static final int LF = '\n';

        /** A data chunk was flushed without its CRLF. */
        private boolean crlfPending;
        /** That CRLF was sent; the super class does not know and will put it in front of the next chunk. */
        private boolean crlfSent;

        @Override
        public Result generateResponse(MetaData.Response info, boolean head, ByteBuffer header, ByteBuffer chunk,
                                       ByteBuffer content, boolean last) throws java.io.IOException {
            int length = BufferUtil.length(content);
            Result result = super.generateResponse(info, head, header, chunk, content, last);
            if (result == Result.FLUSH) {
                if (crlfSent && startsWithCrlf(chunk)) {
                    chunk.position(chunk.position() + 2);
                    crlfSent = false;
                } else if (crlfPending && startsWithCrlf(chunk)) {
                    crlfPending = false; // Jetty sends it now, in front of the chunk it prepared
                }
                if (isChunking() && length > 0 && !last && !head) {
                    crlfPending = true;
                }
                return result;
            }
            if (result == Result.DONE && crlfPending && getState() == State.COMMITTED) {
                if (chunk == null) {
                    return Result.NEED_CHUNK;
                }
                BufferUtil.clearToFill(chunk);
                BufferUtil.putCRLF(chunk);
                BufferUtil.flipToFlush(chunk, 0);
                crlfPending = false;
                crlfSent = true;
                return Result.FLUSH;
            }
            return result;
        }

        private static boolean startsWithCrlf(ByteBuffer chunk) {
            return chunk != null && chunk.remaining() >= 2
                    && chunk.get(chunk.position()) == CR && chunk.get(chunk.position() + 1) == LF;
        }

        @Override
        public void reset() {
            super.reset();
            crlfPending = false;
            crlfSent = false;
        }
    }
}
