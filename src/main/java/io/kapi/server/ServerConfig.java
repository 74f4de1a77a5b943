package io.kapi.server;

import io.kapi.server.authn.Authenticator;
import io.kapi.server.authn.ClientCertificateAuthenticator;
import io.kapi.server.certs.TlsMaterial;
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
 * @param authenticator tells who sent a request; by default the client certificate, verified
 *                      against {@code tls.clientCas()}
 * @param limits what one slow or greedy client may hold
 */
public record ServerConfig(String bindAddress, int port, TlsMaterial tls, Duration shutdownDelay,
                           long maxRequestBodyBytes, Duration idleTimeout, Authenticator authenticator,
                           ClientLimits limits) {

    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);

    /**
     * Bounds on slow and greedy clients.
     *
     * @param headerTimeout the TLS handshake, and each HTTP/1.1 request's headers, must arrive within this
     *                      (kube-apiserver's {@code ReadHeaderTimeout}: 32 s)
     * @param bodyTimeout a request body must arrive within this (kube-apiserver's request timeout: 60 s)
     * @param connectionsPerClient connections one IP address may hold at once
     * @param streamsPerConnection concurrent HTTP/2 streams per connection (Go's default, which
     *                             kube-apiserver keeps: 250)
     */
    public record ClientLimits(Duration headerTimeout, Duration bodyTimeout, int connectionsPerClient,
                               int streamsPerConnection) {
        public static final ClientLimits DEFAULT =
                new ClientLimits(Duration.ofSeconds(32), Duration.ofSeconds(60), 512, 250);
    }

    /** A listener on {@code bindAddress:port} with kube-apiserver's defaults for the rest. */
    public static ServerConfig of(String bindAddress, int port, TlsMaterial tls) {
        return new ServerConfig(bindAddress, port, tls, Duration.ZERO, BodyLimit.DEFAULT_MAX_BYTES,
                DEFAULT_IDLE_TIMEOUT, new ClientCertificateAuthenticator(tls.clientCas()), ClientLimits.DEFAULT);
    }

    public ServerConfig withShutdownDelay(Duration delay) {
        return new ServerConfig(bindAddress, port, tls, delay, maxRequestBodyBytes, idleTimeout, authenticator, limits);
    }

    public ServerConfig withIdleTimeout(Duration timeout) {
        return new ServerConfig(bindAddress, port, tls, shutdownDelay, maxRequestBodyBytes, timeout, authenticator,
                limits);
    }

    /** Replaces the authenticator, e.g. with {@code Authenticator.union(certificates, tokens)}. */
    public ServerConfig withAuthenticator(Authenticator authenticator) {
        return new ServerConfig(bindAddress, port, tls, shutdownDelay, maxRequestBodyBytes, idleTimeout, authenticator,
                limits);
    }

    public ServerConfig withLimits(ClientLimits limits) {
        return new ServerConfig(bindAddress, port, tls, shutdownDelay, maxRequestBodyBytes, idleTimeout, authenticator,
                limits);
    }
}
