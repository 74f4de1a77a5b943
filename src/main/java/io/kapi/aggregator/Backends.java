package io.kapi.aggregator;

import io.kapi.certs.Pem;
import io.kapi.webhook.WebhookTrust;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The HTTPS clients the aggregator calls aggregated API servers with (kube's {@code BuildTransportConfig}):
 * the backend's certificate checked against the APIService's {@code caBundle} for the name
 * {@code <service>.<namespace>.svc} whatever address is dialled, or not at all with
 * {@code insecureSkipTLSVerify}; the proxy client certificate ({@code --proxy-client-cert-file}) presented
 * when the backend asks for one. Clients are kept per trust, so connections are reused. No redirects.
 */
final class Backends implements AutoCloseable {

    private static final Duration CONNECT = Duration.ofSeconds(10);

    private record Trust(String caBundle, String serverName, boolean insecure) {
    }

    private final KeyManager[] proxyKeys;
    private final Map<Trust, HttpClient> clients = new ConcurrentHashMap<>();

    /** @param proxyKeys the proxy client certificate's key managers, null for none */
    Backends(KeyManager[] proxyKeys) {
        this.proxyKeys = proxyKeys;
    }

    /** With the proxy client certificate of {@code config}, read now (a bad file stops the start). */
    static Backends of(AggregatorConfig config) {
        if (config.proxyClientCertFile() == null || config.proxyClientKeyFile() == null) {
            return new Backends(null);
        }
        try {
            var chain = Pem.certificates(Files.readString(config.proxyClientCertFile()));
            var key = Pem.privateKey(Files.readString(config.proxyClientKeyFile()));
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("proxy-client", key, new char[0], chain.toArray(new Certificate[0]));
            KeyManagerFactory f = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            f.init(store, new char[0]);
            return new Backends(f.getKeyManagers());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the proxy client certificate: " + e.getMessage(), e);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException("invalid proxy client certificate or key ("
                    + config.proxyClientCertFile() + ", " + config.proxyClientKeyFile() + "): " + e.getMessage(), e);
        }
    }

    /** The client that proxies to {@code route}'s backend. */
    HttpClient forRoute(ApiServiceRoute route) {
        Trust trust = new Trust(route.insecure() ? "" : route.caBundle(),
                route.service().serverName(), route.insecure());
        return clients.computeIfAbsent(trust, t -> build(t.insecure()
                ? WebhookTrust.insecure(proxyKeys)
                : WebhookTrust.context(t.caBundle().getBytes(StandardCharsets.ISO_8859_1), t.serverName(), proxyKeys)));
    }

    /** The client of the availability check, which (as kube's) does not verify the backend's certificate. */
    HttpClient unverified() {
        return clients.computeIfAbsent(new Trust("", "", true), t -> build(WebhookTrust.insecure(proxyKeys)));
    }

    /** Stops every client made (their selector threads and connections). */
    @Override
    public void close() {
        clients.values().forEach(HttpClient::shutdownNow);
        clients.clear();
    }

    private static HttpClient build(SSLContext tls) {
        return HttpClient.newBuilder().sslContext(tls).connectTimeout(CONNECT)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }
}
