package io.kapi.server;

import io.kapi.audit.Auditor;
import io.kapi.authn.Authenticator;
import io.kapi.authn.ClientCertificateAuthenticator;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.certs.TlsMaterial;
import io.kapi.flowcontrol.FlowControl;
import io.kapi.server.filter.BodyLimit;
import java.time.Duration;

/**
 * How the HTTPS listener is set up.
 *
 * @param bindAddress the IP address to listen on; {@code 0.0.0.0} for all
 * @param port the port; 0 picks a free one (tests), see {@link KapiServer#port()}
 * @param tls serving certificate and client CAs
 * @param shutdownDelay how long {@code /readyz} reports failure before the listener closes, so load
 *                      balancers stop sending traffic ({@code --shutdown-delay-duration})
 * @param maxRequestBodyBytes request bodies above this are refused with 413
 * @param idleTimeout a connection without traffic is closed after this long; a streamed response
 *                    (watch) being written is exempt
 * @param security who sent a request and whether it may proceed
 * @param limits what one slow or greedy client may hold
 * @param observability the metrics requests are recorded in and {@code /metrics} serves; null for none
 * @param compressResponses whether large responses are gzip-compressed for clients that accept it (kube's
 *                          {@code APIResponseCompression} feature; see {@link ResponseCompression})
 */
public record ServerConfig(String bindAddress, int port, TlsMaterial tls, Duration shutdownDelay,
                           long maxRequestBodyBytes, Duration idleTimeout, Security security, ClientLimits limits,
                           Observability observability, boolean compressResponses) {

    /**
     * What the server records of its requests.
     *
     * @param metrics the server's metrics (its API's)
     * @param served the served resource a resource request names, in the API's own strings, or null: only
     *               served resources get series of their own
     */
    public record Observability(io.kapi.metrics.Metrics metrics, java.util.function.Function<
            io.kapi.request.RequestInfo, io.kapi.machinery.GroupVersionResource> served) {
    }

    /**
     * kube-apiserver's {@code http.Server.IdleTimeout} (90 s), which its HTTP/2 server keeps too: a client
     * pools a connection for that long (client-go's transport keeps idle ones 90 s), and a server that closed
     * it sooner would race a client reusing it.
     */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(90);

    /**
     * The request path's security settings.
     *
     * @param authenticator tells who sent a request; by default the client certificate, verified
     *                      against {@code tls.clientCas()}
     * @param authorizer decides whether the request may proceed ({@code --authorization-mode})
     * @param requestTimeout the deadline of requests that are not long-running ({@code --request-timeout});
     *                       a request body must have arrived by then too
     * @param flowControl API Priority and Fairness or the max-in-flight limits
     * @param auditor the audit policy and backends ({@code --audit-*}); disabled by default
     */
    public record Security(Authenticator authenticator, Authorizer authorizer, Duration requestTimeout,
                           FlowControl flowControl, Auditor auditor) {

        /** Without flow control and audit. */
        public Security(Authenticator authenticator, Authorizer authorizer, Duration requestTimeout) {
            this(authenticator, authorizer, requestTimeout, FlowControl.NONE, Auditor.DISABLED);
        }
    }

    /**
     * Bounds on slow and greedy clients.
     *
     * @param headerTimeout the TLS handshake, and each HTTP/1.1 request's headers, must arrive within this
     *                      (kube-apiserver's {@code ReadHeaderTimeout}: 32 s)
     * @param connectionsPerClient connections one IP address may hold at once
     * @param streamsPerConnection concurrent HTTP/2 streams per connection (Go's default, which
     *                             kube-apiserver keeps: 250)
     */
    public record ClientLimits(Duration headerTimeout, int connectionsPerClient, int streamsPerConnection) {
        public static final ClientLimits DEFAULT = new ClientLimits(Duration.ofSeconds(32), 512, 250);
    }

    /** A listener on {@code bindAddress:port} with kube-apiserver's defaults for the rest. */
    public static ServerConfig of(String bindAddress, int port, TlsMaterial tls) {
        return new ServerConfig(bindAddress, port, tls, Duration.ZERO, BodyLimit.DEFAULT_MAX_BYTES,
                DEFAULT_IDLE_TIMEOUT, new Security(new ClientCertificateAuthenticator(tls.clientCas()),
                        attributes -> Decision.allow(), Duration.ofMinutes(1)), ClientLimits.DEFAULT, null, true);
    }

    public ServerConfig withShutdownDelay(Duration delay) {
        return new ServerConfig(bindAddress, port, tls, delay, maxRequestBodyBytes, idleTimeout, security, limits,
                observability, compressResponses);
    }

    public ServerConfig withIdleTimeout(Duration timeout) {
        return new ServerConfig(bindAddress, port, tls, shutdownDelay, maxRequestBodyBytes, timeout, security, limits,
                observability, compressResponses);
    }

    /** Replaces the authenticator, e.g. with {@code Authenticator.union(certificates, tokens)}. */
    public ServerConfig withAuthenticator(Authenticator authenticator) {
        return withSecurity(new Security(authenticator, security.authorizer(), security.requestTimeout(),
                security.flowControl(), security.auditor()));
    }

    public ServerConfig withAuthorizer(Authorizer authorizer) {
        return withSecurity(new Security(security.authenticator(), authorizer, security.requestTimeout(),
                security.flowControl(), security.auditor()));
    }

    public ServerConfig withRequestTimeout(Duration timeout) {
        return withSecurity(new Security(security.authenticator(), security.authorizer(), timeout,
                security.flowControl(), security.auditor()));
    }

    /** Replaces the flow control (API Priority and Fairness, or the max-in-flight limits). */
    public ServerConfig withFlowControl(FlowControl flowControl) {
        return withSecurity(new Security(security.authenticator(), security.authorizer(), security.requestTimeout(),
                flowControl, security.auditor()));
    }

    public ServerConfig withAuditor(Auditor auditor) {
        return withSecurity(new Security(security.authenticator(), security.authorizer(), security.requestTimeout(),
                security.flowControl(), auditor));
    }

    public ServerConfig withLimits(ClientLimits newLimits) {
        return new ServerConfig(bindAddress, port, tls, shutdownDelay, maxRequestBodyBytes, idleTimeout, security,
                newLimits, observability, compressResponses);
    }

    public ServerConfig withObservability(Observability o) {
        return new ServerConfig(bindAddress, port, tls, shutdownDelay, maxRequestBodyBytes, idleTimeout, security, limits,
                o, compressResponses);
    }

    /** With or without gzip for large responses ({@code --feature-gates=APIResponseCompression=…}). */
    public ServerConfig withResponseCompression(boolean compress) {
        return new ServerConfig(bindAddress, port, tls, shutdownDelay, maxRequestBodyBytes, idleTimeout, security, limits,
                observability, compress);
    }

    private ServerConfig withSecurity(Security s) {
        return new ServerConfig(bindAddress, port, tls, shutdownDelay, maxRequestBodyBytes, idleTimeout, s, limits,
                observability, compressResponses);
    }
}
