package io.kapi.endpoint;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Where a {@link RestResponse.Stream} writes its frames. The transport decides what a frame becomes:
 * bytes of a chunked HTTP body, or one WebSocket message.
 */
public interface FrameSink {

    /** Queues one whole frame; it may be sent at once or at the next {@link #flush()}. */
    void frame(byte[] frame) throws IOException;

    /** Sends every queued frame to the client. */
    void flush() throws IOException;

    /** Frames written back to back on {@code out}; {@link #flush()} flushes it. */
    static FrameSink of(OutputStream out) {
        return new FrameSink() {
            @Override
            public void frame(byte[] frame) throws IOException {
                out.write(frame);
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }
        };
    }
}
