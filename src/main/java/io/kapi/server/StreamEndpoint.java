package io.kapi.server;

import io.kapi.endpoint.FrameSink;
import io.kapi.endpoint.RestResponse;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;

/**
 * One WebSocket session serving one {@link RestResponse.StreamWriter}: the writer runs on its own
 * (virtual) thread from the moment the session opens, each frame it writes is sent as one message,
 * and the session is closed normally when it returns. The client closing the session, or the
 * connection failing, interrupts the writer. Incoming messages are dropped.
 *
 * <p>Sends are asynchronous with at most {@value #IN_FLIGHT} messages in flight, so a burst of
 * events goes out in few network writes while a slow client still holds the writer back;
 * {@link FrameSink#flush()} waits until every message was written.
 *
 * <p>Public only because Jetty binds the listener methods through method handles; not an API.
 */
public final class StreamEndpoint implements Session.Listener.AutoDemanding {

    private static final System.Logger LOG = System.getLogger(StreamEndpoint.class.getName());
    private static final int IN_FLIGHT = 64;

    private final RestResponse.StreamWriter writer;
    private final boolean text;
    private final Executor executor;
    private final AtomicReference<Thread> thread = new AtomicReference<>();
    private volatile boolean closed;

    StreamEndpoint(RestResponse.StreamWriter writer, boolean text, Executor executor) {
        this.writer = writer;
        this.text = text;
        this.executor = executor;
    }

    @Override
    public void onWebSocketOpen(Session session) {
        executor.execute(() -> run(session));
    }

    private void run(Session session) {
        thread.set(Thread.currentThread());
        Messages messages = new Messages(session);
        try {
            if (!closed) {
                writer.writeTo(messages);
                messages.flush();
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "WebSocket stream to {0} ended: {1}", session.getRemoteSocketAddress(), e.toString());
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "WebSocket stream failed", e);
        } finally {
            thread.set(null);
            Thread.interrupted(); // an interrupt for the ending stream must not outlive it
            if (session.isOpen()) {
                session.close(StatusCode.NORMAL, null, Callback.NOOP);
            }
        }
    }

    @Override
    public void onWebSocketText(String message) {
        // kube-apiserver ignores what the client of a watch sends
    }

    @Override
    public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
        callback.succeed();
    }

    @Override
    public void onWebSocketClose(int statusCode, String reason) {
        stop();
    }

    @Override
    public void onWebSocketError(Throwable cause) {
        LOG.log(Level.DEBUG, "WebSocket error: {0}", cause.toString());
        stop();
    }

    private void stop() {
        closed = true;
        Thread t = thread.get();
        if (t != null) {
            t.interrupt();
        }
    }

    /** Each frame as one message, asynchronously, at most {@value #IN_FLIGHT} in flight. */
    private final class Messages implements FrameSink {

        private final Session session;
        private final Semaphore window = new Semaphore(IN_FLIGHT);
        private volatile Throwable failure;

        Messages(Session session) {
            this.session = session;
        }

        @Override
        public void frame(byte[] frame) throws IOException {
            check();
            acquire(1);
            Callback done = Callback.from(window::release, failed -> {
                failure = failed;
                window.release();
            });
            if (text) {
                session.sendText(new String(frame, StandardCharsets.UTF_8), done);
            } else {
                session.sendBinary(ByteBuffer.wrap(frame), done);
            }
        }

        @Override
        public void flush() throws IOException {
            acquire(IN_FLIGHT);
            window.release(IN_FLIGHT);
            check();
        }

        private void acquire(int permits) throws IOException {
            try {
                window.acquire(permits);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("the WebSocket was closed");
            }
        }

        private void check() throws IOException {
            if (failure != null) {
                throw new IOException("WebSocket send failed", failure);
            }
            if (closed) {
                throw new IOException("the WebSocket was closed");
            }
        }
    }
}
