package io.kapi.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("response compression as kube-apiserver's")
class ResponseCompressionTest {

    private static byte[] gunzip(byte[] gzip) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            return in.readAllBytes();
        }
    }

    private static byte[] body(int size) {
        byte[] out = new byte[size];
        Random r = new Random(size);
        for (int i = 0; i < size; i++) {
            out[i] = (byte) ('a' + r.nextInt(8)); // text-like: compresses, but not to nothing
        }
        return out;
    }

    @Test
    @DisplayName("Accept-Encoding asks for gzip when one comma-separated token, trimmed, is exactly gzip")
    void acceptsAsKube() {
        assertTrue(ResponseCompression.accepts("gzip"));
        assertTrue(ResponseCompression.accepts("deflate, gzip"));
        assertTrue(ResponseCompression.accepts(" br ,gzip ,deflate"));
        assertFalse(ResponseCompression.accepts(null));
        assertFalse(ResponseCompression.accepts(""));
        assertFalse(ResponseCompression.accepts("identity"));
        assertFalse(ResponseCompression.accepts("x-gzip, br"));
        assertFalse(ResponseCompression.accepts("gzip;q=1.0"));
        assertFalse(ResponseCompression.accepts(","));
    }

    @Test
    @DisplayName("a whole body gzips and reads back the same")
    void wholeBody() throws IOException {
        byte[] data = body(ResponseCompression.THRESHOLD + 1);
        byte[] gzip = ResponseCompression.gzip(data);
        assertTrue(gzip.length < data.length / 2, "compressed: " + gzip.length);
        assertArrayEquals(data, gunzip(gzip));
    }

    @Test
    @DisplayName("a streamed body up to the threshold goes out as it is, without the compression headers")
    void smallStreamAsIs() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        AtomicInteger headers = new AtomicInteger();
        byte[] data = body(ResponseCompression.THRESHOLD);
        try (OutputStream out = ResponseCompression.deferred(sink, headers::incrementAndGet)) {
            for (int at = 0; at < data.length; at += 1000) {
                out.write(data, at, Math.min(1000, data.length - at));
                out.flush();
                assertEquals(0, sink.size(), "held until the end or the threshold");
            }
        }
        assertEquals(0, headers.get());
        assertArrayEquals(data, sink.toByteArray());
    }

    @Test
    @DisplayName("a streamed body past the threshold is compressed whole, the headers set once before the first byte")
    void largeStreamCompressed() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        AtomicInteger headers = new AtomicInteger();
        byte[] data = body(3 * ResponseCompression.THRESHOLD + 17);
        try (OutputStream out = ResponseCompression.deferred(sink, () -> {
            assertEquals(0, sink.size(), "headers go before any byte");
            headers.incrementAndGet();
        })) {
            out.write(data[0]);
            for (int at = 1; at < data.length; at += 4093) {
                out.write(data, at, Math.min(4093, data.length - at));
            }
        }
        assertEquals(1, headers.get());
        assertArrayEquals(data, gunzip(sink.toByteArray()));
    }
}
