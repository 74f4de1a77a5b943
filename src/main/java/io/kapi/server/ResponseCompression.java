package io.kapi.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * kube-apiserver's response compression (the {@code APIResponseCompression} feature, on by default): a
 * response whose body is larger than {@value #THRESHOLD} bytes is sent gzip-compressed, at gzip's fastest
 * level as kube's, to a client whose {@code Accept-Encoding} names {@code gzip} (client-go's transport sends it,
 * so kubectl's large lists come compressed), with {@code Content-Encoding: gzip} and {@code Vary:
 * Accept-Encoding}. Smaller bodies, and watch and other streams, are sent as they are.
 */
final class ResponseCompression {

    /** kube-apiserver's {@code defaultGzipThresholdBytes}: bodies up to this size are not compressed. */
    static final int THRESHOLD = 128 * 1024;

    private ResponseCompression() {
    }

    /**
     * Whether {@code acceptEncoding} asks for gzip as kube-apiserver reads it: one of its comma-separated
     * tokens, trimmed, is exactly {@code gzip} (a token with parameters, such as {@code gzip;q=0}, is not).
     */
    static boolean accepts(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        int length = acceptEncoding.length();
        for (int start = 0; start < length; ) {
            int end = acceptEncoding.indexOf(',', start);
            end = end < 0 ? length : end;
            int from = start;
            int to = end;
            while (from < to && Character.isWhitespace(acceptEncoding.charAt(from))) {
                from++;
            }
            while (to > from && Character.isWhitespace(acceptEncoding.charAt(to - 1))) {
                to--;
            }
            if (to - from == 4 && acceptEncoding.startsWith("gzip", from)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    /** {@code data} gzip-compressed at the fastest level. */
    static byte[] gzip(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, data.length / 4));
        try (OutputStream gzip = new FastGzip(out)) {
            gzip.write(data);
        } catch (IOException e) {
            throw new IllegalStateException("compressing into memory", e);
        }
        return out.toByteArray();
    }

    /**
     * A stream that holds what is written to it until more than {@link #THRESHOLD} bytes came: then it runs
     * {@code compressing} (which sets the response's headers, before anything is sent) and sends all of it
     * gzip-compressed to {@code sink}; a body that ends below is sent to {@code sink} as it is.
     */
    static OutputStream deferred(OutputStream sink, Runnable compressing) {
        return new Deferred(sink, compressing);
    }

    /** gzip at {@link Deflater#BEST_SPEED}, as kube-apiserver's level 1. */
    private static final class FastGzip extends GZIPOutputStream {
        FastGzip(OutputStream out) throws IOException {
            super(out, 8192);
            def.setLevel(Deflater.BEST_SPEED);
        }
    }

    private static final class Deferred extends OutputStream {
        private final OutputStream sink;
        private final Runnable compressing;
        private byte[] held = new byte[8192];
        private int size;
        /** Where bytes go once decided: the sink, or a gzip stream over it; null while held. */
        private OutputStream out;

        Deferred(OutputStream sink, Runnable compressing) {
            this.sink = sink;
            this.compressing = compressing;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (out != null) {
                out.write(b, off, len);
                return;
            }
            if (size + len <= THRESHOLD) {
                if (size + len > held.length) {
                    held = java.util.Arrays.copyOf(held, Math.min(THRESHOLD, Math.max(size + len, held.length * 2)));
                }
                System.arraycopy(b, off, held, size, len);
                size += len;
                return;
            }
            compressing.run();
            out = new FastGzip(sink);
            out.write(held, 0, size);
            held = null;
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            if (out != null) {
                out.flush();
            }
        }

        @Override
        public void close() throws IOException {
            if (out == null) {
                out = sink;
                sink.write(held, 0, size);
                held = null;
            }
            out.close();
        }
    }
}
