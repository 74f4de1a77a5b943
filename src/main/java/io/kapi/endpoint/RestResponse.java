package io.kapi.endpoint;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An HTTP response as the endpoint layer builds it.
 *
 * @param status the HTTP status code
 * @param headers extra headers as name/value pairs (a name may repeat, e.g. {@code Warning})
 * @param body the entity
 */
public record RestResponse(int status, List<Map.Entry<String, String>> headers, Body body) {

    /** The response entity. */
    public sealed interface Body {
    }

    /** A complete entity; {@code contentType} may be null only for an empty body. */
    public record Bytes(String contentType, byte[] data) implements Body {
    }

    /**
     * A streamed entity of frames (a watch's events): {@code writer} sends frames until it is done.
     * Over HTTP the frames follow each other in the body, and {@link FrameSink#flush()} sends what was
     * written so far; over a WebSocket (a watch asked for with an upgrade) each frame is one message.
     */
    public record Stream(String contentType, StreamWriter writer) implements Body {
    }

    /**
     * A complete entity written as it is encoded (a large list), so that it is never held in memory
     * whole. Unlike a {@link Stream} it is an ordinary response: it is subject to the idle timeout, and
     * shutdown waits for it like any short request.
     */
    public record Encoded(String contentType, BodyWriter writer) implements Body {
    }

    /** Writes a whole entity as it is encoded. */
    @FunctionalInterface
    public interface BodyWriter {
        void writeTo(java.io.OutputStream out) throws IOException;
    }

    @FunctionalInterface
    public interface StreamWriter {
        /** Writes the frames; returns when the stream ends. An IOException means the client went away. */
        void writeTo(FrameSink out) throws IOException;
    }

    public static RestResponse bytes(int status, String contentType, byte[] data) {
        return new RestResponse(status, new ArrayList<>(), new Bytes(contentType, data));
    }

    /** Adds a header and returns this response, for chaining while it is built. */
    public RestResponse withHeader(String name, String value) {
        headers.add(Map.entry(name, value));
        return this;
    }
}
