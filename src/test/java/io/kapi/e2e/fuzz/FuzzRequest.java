package io.kapi.e2e.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One request the fuzzer sends: method, path with query, headers and body; {@code framing} says how the
 * body goes on the wire when not as an ordinary request of the HTTP client.
 *
 * @param origin what it was made from: the seed's name and the mutations applied, for the report
 */
record FuzzRequest(String method, String pathAndQuery, Map<String, String> headers, byte[] body, Framing framing,
                   String origin) {

    /** How the body is framed. */
    enum Framing {
        /** By the HTTP/2 client, with a correct length. */
        CLIENT,
        /** HTTP/1.1 on a raw TLS socket, chunked, with a chunk size that is not hex. */
        BAD_CHUNK_SIZE,
        /** HTTP/1.1 on a raw TLS socket, chunked, the connection half-closed before the last chunk. */
        MISSING_LAST_CHUNK,
        /** HTTP/1.1 on a raw TLS socket with both Content-Length and Transfer-Encoding. */
        LENGTH_AND_CHUNKED,
        /** HTTP/1.1 on a raw TLS socket, a Content-Length shorter than the bytes sent (the rest is garbage). */
        SHORT_LENGTH
    }

    FuzzRequest {
        headers = new LinkedHashMap<>(headers);
    }

    FuzzRequest with(String method, String pathAndQuery, Map<String, String> headers, byte[] body, Framing framing,
                     String mutation) {
        return new FuzzRequest(method, pathAndQuery, headers, body, framing, origin + "+" + mutation);
    }

    /** A line to reproduce it from: method, path, headers, body in base64. */
    String describe() {
        String text = new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8).replace('\n', ' ');
        return "%s %s %s [%s] %s body(%d)=%s b64=%s".formatted(method, pathAndQuery, headers, framing, origin,
                body.length, text, body.length <= 2048 ? Base64.getEncoder().encodeToString(body) : "(long)");
    }
}
