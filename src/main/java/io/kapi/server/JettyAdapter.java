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
    private final FilterChain chain;
    private final ExecutorService requests;
    private final WebSocketStreams websockets;

    JettyAdapter(FilterChain chain, ExecutorService requests, WebSocketStreams websockets) {
        this.chain = chain;
        this.requests = requests;
        this.websockets = websockets;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        requests.execute(() -> serve(request, response, callback));
        return true;
    }

    private void serve(Request request, Response response, Callback callback) {
        RestResponse answer;
        try {
            answer = chain.proceed(toServerRequest(request));
        } catch (ApiException e) {
            answer = StatusResponses.of(e);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "cannot serve " + request.getMethod() + " " + request.getHttpURI(), e);
            answer = StatusResponses.of(ApiException.internal("the request could not be served"));
        }
        if (answer.status() == 200 && answer.body() instanceof RestResponse.Stream stream
                && WebSocketStreams.isUpgrade(request)) {
            if (websockets.serve(request, response, callback, stream, answer.headers())) {
                return;
            }
            answer = StatusResponses.of(ApiException.badRequest("the WebSocket handshake is not valid"));
        }
        try {
            write(request, response, answer);
            callback.succeeded();
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "response to " + request.getMethod() + " " + request.getHttpURI()
                    + " not completed: " + e);
            if (!response.isCommitted() && !(e instanceof IOException)) {
                LOG.log(Level.ERROR, "stream failed before its first byte", e);
                Response.writeError(request, response, callback, 500);
                return;
            }
            callback.failed(e);
        }
    }

    private static ServerRequest toServerRequest(Request request) {
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
        InputStream body = Content.Source.asInputStream(request);
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

    private static void write(Request request, Response response, RestResponse answer) throws IOException {
        response.setStatus(answer.status());
        for (Map.Entry<String, String> header : answer.headers()) {
            response.getHeaders().add(header.getKey(), header.getValue());
        }
        switch (answer.body()) {
            case RestResponse.Bytes bytes -> {
                if (bytes.contentType() != null) {
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, bytes.contentType());
                }
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.data().length);
                Callback.Completable done = new Callback.Completable();
                response.write(true, ByteBuffer.wrap(bytes.data()), done);
                join(done);
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
                }
            }
        }
    }

    /**
     * Sends the status and headers now, as kube-apiserver does when a watch starts: clients wait for
     * them before they count a watch as established (an empty flush sends nothing).
     */
    private static void commit(Response response) throws IOException {
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

    private static void join(Callback.Completable done) throws IOException {
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while writing the response", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }
}
