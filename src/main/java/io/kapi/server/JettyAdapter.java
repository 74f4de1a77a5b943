package io.kapi.server;

import io.kapi.endpoint.FrameSink;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.server.filter.FilterChain;
import io.kapi.server.filter.ServerRequest;
import io.kapi.server.filter.StatusResponses;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * The seam between Jetty and Kapi: each request is served on its own virtual thread, translated to
 * a {@link ServerRequest}, run through the filter chain, and the {@link RestResponse} written back.
 * A {@link RestResponse.Stream} body is written through a buffer that goes to the client on every
 * {@code flush()}; such a response is exempt from the connection idle timeout (a quiet watch). A
 * stream asked for with a WebSocket upgrade is served by {@link WebSocketStreams} instead.
 */
final class JettyAdapter extends Handler.Abstract.NonBlocking {

    private static final System.Logger LOG = System.getLogger(JettyAdapter.class.getName());
    private static final int STREAM_BUFFER = 16 * 1024;
    private static final int ENCODED_BUFFER = 64 * 1024;
    private static final long DRAIN_BYTES = 3 * 1024 * 1024;
    private static final long DRAIN_MILLIS = 1_000;
    private final FilterChain chain;
    private final boolean compress;
    private final ExecutorService requests;
    private final WebSocketStreams websockets;
    private final InFlight inFlight;
    private final BooleanSupplier closing;
    private final LowerCaseNames lowerCaseNames = new LowerCaseNames();

    /**
     * @param websockets serves a stream asked for with a WebSocket upgrade
     * @param inFlight counts the requests served, for graceful shutdown
     * @param closing whether the server is shutting down: HTTP/1.1 responses then close their connection,
     *                so clients reconnect (to another server) rather than reuse one that is about to close
     * @param compress whether large responses are gzip-compressed for clients that accept it
     *                 ({@link ResponseCompression})
     */
    JettyAdapter(FilterChain chain, ExecutorService requests, WebSocketStreams websockets, InFlight inFlight,
                 BooleanSupplier closing, boolean compress) {
        this.compress = compress;
        this.chain = chain;
        this.requests = requests;
        this.websockets = websockets;
        this.inFlight = inFlight;
        this.closing = closing;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        requests.execute(() -> serve(request, response, callback));
        return true;
    }

    /**
     * Serves one request and always completes {@code callback}: whatever is thrown, an error of the JVM
     * included, the client gets a 500 (or, past the first byte of a stream, a reset) and the log a trace.
     */
    private void serve(Request request, Response response, Callback callback) {
        inFlight.requestStarted();
        RestResponse answer;
        InputStream body = Content.Source.asInputStream(request);
        try {
            answer = chain.proceed(toServerRequest(request, body));
        } catch (ApiException e) {
            answer = StatusResponses.of(e, request.getHeaders().get("Accept"));
        } catch (RuntimeException | Error e) {
            logFailure("cannot serve " + request.getMethod() + " " + request.getHttpURI(), e);
            answer = StatusResponses.of(ApiException.internal("the request could not be served"));
        }
        if (answer.status() == 200 && answer.body() instanceof RestResponse.Stream upgraded
                && WebSocketStreams.isUpgrade(request)) {
            if (websockets.serve(request, response, callback, upgraded, answer.headers())) {
                inFlight.requestDone();
                return;
            }
            answer = StatusResponses.of(ApiException.badRequest("the WebSocket handshake is not valid"));
        }
        boolean stream = answer.body() instanceof RestResponse.Stream;
        if (stream) {
            inFlight.requestDone();
            inFlight.streamStarted();
        }
        try {
            write(request, response, answer);
            if (!stream && answer.status() != 504) {
                drain(body); // a body too slow is what a 504 says: reading on would only wait for it
            }
            callback.succeeded();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "response to " + request.getMethod() + " " + request.getHttpURI()
                    + " not completed: " + e);
            callback.failed(e);
        } catch (RuntimeException | Error e) {
            logFailure("response to " + request.getMethod() + " " + request.getHttpURI() + " failed", e);
            if (response.isCommitted()) {
                callback.failed(e);
            } else {
                Response.writeError(request, response, callback, 500);
            }
        } finally {
            if (stream) {
                inFlight.streamDone();
            } else {
                inFlight.requestDone();
            }
        }
    }

    /**
     * A header value as visible ASCII: other characters (a Warning quoting a field name the client sent
     * with a U+FFFD in it) are escaped as {@code \\uXXXX}. Raw, clients that check header values (the
     * JDK's HTTP/2 client) reset the stream and lose the whole response.
     */
    static String visibleAscii(String value) {
        if (isVisibleAscii(value)) {
            return value;
        }
        StringBuilder b = new StringBuilder(value.length() + 16);
        value.chars().forEach(c -> {
            if (c == '\t' || (c >= 0x20 && c < 0x7f)) {
                b.append((char) c);
            } else {
                b.append("\\u%04x".formatted(c));
            }
        });
        return b.toString();
    }

    /** A loop, not a stream: every header of every response passes here. */
    private static boolean isVisibleAscii(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c != '\t' && (c < 0x20 || c >= 0x7f)) {
                return false;
            }
        }
        return true;
    }

    /** Logs a failure; an error while logging (no memory left) must not stop the answer. */
    private static void logFailure(String message, Throwable e) {
        try {
            LOG.log(Level.ERROR, message, e);
        } catch (RuntimeException | Error ignored) {
            // the answer matters more than the log line
        }
    }

    /**
     * Reads what the handler left of the request body (an error answered before the body was read, a 413
     * included), once the answer is written, at most {@value #DRAIN_BYTES} bytes for at most
     * {@value #DRAIN_MILLIS} ms, as Go's server does. Otherwise the stream or connection would be reset as
     * soon as the answer is written, while the client is still sending: an HTTP/2 client that has not yet
     * taken the answer in (the JDK's) then sees RST_STREAM instead of it. A body larger than the bound is
     * still cut off, after the client has had its answer.
     */
    private static void drain(InputStream body) {
        long deadline = System.nanoTime() + DRAIN_MILLIS * 1_000_000;
        try {
            if (body.read() < 0) {
                return; // nothing left, as for almost every request: no scratch buffer to allocate and clear
            }
            byte[] scratch = new byte[8192];
            long left = DRAIN_BYTES - 1;
            while (left > 0 && System.nanoTime() < deadline) {
                int n = body.read(scratch, 0, (int) Math.min(scratch.length, left));
                if (n < 0) {
                    return;
                }
                left -= n;
            }
        } catch (IOException | RuntimeException e) {
            // a body that cannot be read is the connection's problem, not this response's
        }
    }

    private static ServerRequest toServerRequest(Request request, InputStream body) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (HttpField field : request.getHeaders()) {
            headers.computeIfAbsent(field.getLowerCaseName(), k -> new ArrayList<>()).add(field.getValue());
        }
        Map<String, List<String>> query = new LinkedHashMap<>();
        Fields fields;
        try {
            fields = Request.extractQueryParameters(request);
        } catch (RuntimeException e) {
            throw ApiException.badRequest("invalid query string: " + e.getMessage());
        }
        for (Fields.Field field : fields) {
            query.put(field.getName(), List.copyOf(field.getValues()));
        }
        String path = request.getHttpURI().getDecodedPath();
        RestRequest rest = new RestRequest(request.getMethod().toUpperCase(Locale.ROOT),
                path == null || path.isEmpty() ? "/" : path, query, headers, body, null);
        return new ServerRequest(rest, clientCertificates(request), Request.getRemoteAddr(request));
    }

    private static List<X509Certificate> clientCertificates(Request request) {
        if (request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE) instanceof EndPoint.SslSessionData ssl
                && ssl.peerCertificates() != null) {
            return List.of(ssl.peerCertificates());
        }
        return List.of();
    }

    /**
     * Whether a large body of this response is sent gzip-compressed: compression is on, the client accepts
     * gzip, and the body is not encoded already (the OpenAPI documents come compressed). Asked only of bodies
     * that may be large, so a small GET reads no header for it.
     */
    private boolean compresses(Request request, Response response) {
        return compress && ResponseCompression.accepts(request.getHeaders().get(HttpHeader.ACCEPT_ENCODING))
                && !response.getHeaders().contains(HttpHeader.CONTENT_ENCODING);
    }

    /** Marks a response whose body is sent gzip-compressed. */
    private static void compressed(Response response) {
        response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
        response.getHeaders().add(HttpHeader.VARY, "Accept-Encoding");
    }

    private void write(Request request, Response response, RestResponse answer) throws IOException {
        response.setStatus(answer.status());
        boolean http2 = request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2;
        for (Map.Entry<String, String> header : answer.headers()) {
            // HTTP/1.1 keeps the names as written (kube-apiserver's canonical forms); HTTP/2 sends lower case
            String name = http2 ? lowerCaseNames.of(header.getKey()) : header.getKey();
            response.getHeaders().add(name, visibleAscii(header.getValue()));
        }
        if (closing.getAsBoolean() && !http2) {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        switch (answer.body()) {
            case RestResponse.Bytes bytes -> {
                if (bytes.contentType() != null) {
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, bytes.contentType());
                }
                byte[] data = bytes.data();
                if (data.length > ResponseCompression.THRESHOLD && compresses(request, response)) {
                    data = ResponseCompression.gzip(data);
                    compressed(response);
                }
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, data.length);
                Callback.Completable done = new Callback.Completable();
                response.write(true, ByteBuffer.wrap(data), done);
                join(done);
            }
            case RestResponse.Encoded encoded -> {
                if (encoded.contentType() != null) {
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, encoded.contentType());
                }
                OutputStream sink = new BufferedOutputStream(Content.Sink.asOutputStream(response), ENCODED_BUFFER);
                try (OutputStream out = compresses(request, response)
                        ? ResponseCompression.deferred(sink, () -> compressed(response)) : sink) {
                    encoded.writer().writeTo(out);
                }
            }
            case RestResponse.Stream stream -> {
                if (stream.contentType() != null) {
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, stream.contentType());
                }
                // a client that goes away (an HTTP/2 reset, a failed connection) ends the stream's writer
                Thread writer = Thread.currentThread();
                request.addFailureListener(failure -> writer.interrupt());
                try (QuietAllowed ignored = QuietAllowed.on(request);
                     OutputStream out = new BufferedOutputStream(Content.Sink.asOutputStream(response),
                             STREAM_BUFFER)) {
                    commit(response);
                    stream.writer().writeTo(FrameSink.of(out));
                    if (inFlight.ending()) {
                        // ended by shutdown: the interrupt has done its work, the final chunk must still go out
                        Thread.interrupted();
                    }
                }
            }
        }
    }

    /**
     * Sends the status and headers now, as kube-apiserver does when a watch starts: clients wait for
     * them before they count a watch as established (an empty flush sends nothing).
     */
    private void commit(Response response) throws IOException {
        Callback.Completable done = new Callback.Completable();
        response.write(false, ByteBuffer.allocate(0), done);
        join(done);
    }

    /**
     * Keeps a quiet streamed response (a watch with no events) from being cut by the idle timeout,
     * as Go's server never times out a running handler. HTTP/2 streams ignore the timeout through a
     * request listener; an HTTP/1.1 connection, which carries only this response, has its timeout
     * lifted until the stream ends.
     */
    private record QuietAllowed(EndPoint endPoint, long saved) implements AutoCloseable {

        static QuietAllowed on(Request request) {
            request.addIdleTimeoutListener(timeout -> false);
            if (request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2) {
                return new QuietAllowed(null, 0);
            }
            EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
            long saved = endPoint.getIdleTimeout();
            endPoint.setIdleTimeout(0);
            return new QuietAllowed(endPoint, saved);
        }

        @Override
        public void close() {
            if (endPoint != null) {
                endPoint.setIdleTimeout(saved);
            }
        }
    }

    /**
     * Waits for a write. An interrupt (the client went away) abandons it, except while shutdown ends
     * streams: then the write completes (or fails by the connection's idle timeout) and the interrupt stays.
     */
    private void join(Callback.Completable done) throws IOException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    done.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                    if (!inFlight.ending()) {
                        throw new IOException("interrupted while writing the response", e);
                    }
                }
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
