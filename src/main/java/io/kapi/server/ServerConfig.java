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
 */
public record ServerConfig(String bindAddress, int port, TlsMaterial tls, Duration shutdownDelay,
                           long maxRequestBodyBytes, Duration idleTimeout, Authenticator authenticator) {

    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);

    /** A listener on {@code bindAddress:port} with kube-apiserver's defaults for the rest. */
    public static ServerConfig of(String bindAddress, int port, TlsMaterial tls) {
        return new ServerConfig(bindAddress, port, tls, Duration.ZERO, BodyLimit.DEFAULT_MAX_BYTES,
                DEFAULT_IDLE_TIMEOUT, new ClientCertificateAuthenticator(tls.clientCas()));
    }

    public ServerConfig withShutdownDelay(Duration delay) {
        return new ServerConfig(bindAddress, port, tls, delay, maxRequestBodyBytes, idleTimeout, authenticator);
    }

    public ServerConfig withIdleTimeout(Duration timeout) {
        return new ServerConfig(bindAddress, port, tls, shutdownDelay, maxRequestBodyBytes, timeout, authenticator);
    }

    /** Replaces the authenticator, e.g. with {@code Authenticator.union(certificates, tokens)}. */
    public ServerConfig withAuthenticator(Authenticator authenticator) {
        return new ServerConfig(bindAddress, port, tls, shutdownDelay, maxRequestBodyBytes, idleTimeout, authenticator);
    }
}
