package io.kapi.server;

import io.kapi.endpoint.RestResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.websocket.server.ServerWebSocketContainer;

/**
 * Serves a streamed response (a watch) over a WebSocket, as kube-apiserver does when a watch request
 * asks for an upgrade (fabric8 does, before it falls back to a streamed HTTP watch):
 * <ul>
 *   <li>an HTTP/1.1 {@code GET} with {@code Connection: Upgrade} and {@code Upgrade: websocket} is
 *       answered {@code 101 Switching Protocols} once the watch has started; a request the watch
 *       refuses (a bad option, a forbidden resource) gets its error as a plain HTTP response first;</li>
 *   <li>every frame of the stream (one watch event) is one message: a text message for a textual
 *       content type (JSON), a binary one otherwise, as kube's {@code websocketFramer};</li>
 *   <li>the server closes with 1000 when the stream ends (its timeout, or the watch ended); the
 *       client closing, or the connection failing, ends the stream; what the client sends is read and
 *       dropped;</li>
 *   <li>subprotocols: kube-apiserver's watch ({@code golang.org/x/net/websocket}) accepts the one
 *       subprotocol a client offers ({@code v4.channel.k8s.io}, {@code base64.channel.k8s.io},
 *       {@code channel.k8s.io}, ...) and answers with it, the framing unchanged; so does Kapi. A client
 *       offering several gets the first (x/net refuses that handshake with a 400), none gets none.</li>
 * </ul>
 * The session has no idle timeout: a watch with no events is quiet by design and ends at its own timeout.
 */
final class WebSocketStreams {

    private static final System.Logger LOG = System.getLogger(WebSocketStreams.class.getName());

    private final ServerWebSocketContainer container;
    private final Executor writers;

    /** Installs the WebSocket container on {@code jetty} (before it starts); writers run on {@code writers}. */
    WebSocketStreams(Server jetty, Executor writers) {
        this.container = ServerWebSocketContainer.ensure(jetty);
        this.container.setIdleTimeout(Duration.ZERO);
        this.container.setMaxTextMessageSize(64 * 1024);
        this.container.setMaxBinaryMessageSize(64 * 1024);
        this.writers = writers;
    }

    /** Whether {@code request} asks to switch to the WebSocket protocol (RFC 6455 over HTTP/1.1). */
    static boolean isUpgrade(Request request) {
        return request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_1_1
                && "GET".equals(request.getMethod())
                && request.getHeaders().contains(HttpHeader.UPGRADE, "websocket")
                && request.getHeaders().contains(HttpHeader.CONNECTION, "upgrade");
    }

    /**
     * Upgrades the connection and serves {@code stream} on it; {@code callback} completes with the
     * upgrade.
     *
     * @param headers headers of the response to send with the 101 (warnings)
     * @return false when the request is not a valid WebSocket handshake; nothing was sent then
     */
    boolean serve(Request request, Response response, Callback callback, RestResponse.Stream stream,
                  List<Map.Entry<String, String>> headers) {
        boolean text = isText(stream.contentType());
        try {
            return container.upgrade((upgrade, upgraded, done) -> {
                List<String> offered = upgrade.getSubProtocols();
                if (!offered.isEmpty()) {
                    upgraded.setAcceptedSubProtocol(offered.getFirst());
                }
                if (stream.contentType() != null) {
                    upgraded.getHeaders().put(HttpHeader.CONTENT_TYPE, stream.contentType());
                }
                headers.forEach(h -> upgraded.getHeaders().add(h.getKey(), h.getValue()));
                return new StreamEndpoint(stream.writer(), text, writers);
            }, request, response, callback);
        } catch (RuntimeException e) {
            if (response.isCommitted()) {
                throw e;
            }
            LOG.log(System.Logger.Level.DEBUG, "WebSocket upgrade refused: {0}", e.toString());
            return false;
        }
    }

    private static boolean isText(String contentType) {
        return contentType == null || contentType.startsWith("application/json") || contentType.startsWith("text/")
                || contentType.startsWith("application/yaml");
    }
}
