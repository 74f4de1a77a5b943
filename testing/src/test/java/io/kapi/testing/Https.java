package io.kapi.testing;

import io.kapi.certs.Pem;
import io.kapi.certs.TlsMaterial;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** Plain HTTPS to a server: trusting its CA, with or without the admin client certificate. */
final class Https implements AutoCloseable {

    private final KapiServer server;
    private final HttpClient client;

    private Https(KapiServer server, boolean withCertificate) throws Exception {
        this.server = server;
        KeyManagerFactory kmf = null;
        if (withCertificate) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("admin", Pem.privateKey(server.adminKeyPem()), new char[0],
                    Pem.certificates(server.adminCertificatePem()).toArray(X509Certificate[]::new));
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, new char[0]);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(TlsMaterial.trustStore(List.of(server.caCertificate())));
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        this.client = HttpClient.newBuilder().sslContext(context).connectTimeout(Duration.ofSeconds(20)).build();
    }

    static Https admin(KapiServer server) throws Exception {
        return new Https(server, true);
    }

    static Https anonymous(KapiServer server) throws Exception {
        return new Https(server, false);
    }

    HttpResponse<String> get(String path) throws Exception {
        return client.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A GET as {@code user} (no groups), impersonated: the admin may impersonate anyone. */
    HttpResponse<String> getAs(String user, String path) throws Exception {
        return client.send(request(path).header("Impersonate-User", user).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String json) throws Exception {
        return client.send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(server.url() + path)).timeout(Duration.ofSeconds(30))
                .header("Accept", "application/json");
    }

    @Override
    public void close() {
        client.shutdownNow();
    }
}
