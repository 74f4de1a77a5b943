package io.kapi.testing;

import io.kapi.certs.Pem;
import io.kapi.certs.TlsMaterial;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The library's own client of a server, for what the extension does for tests (their namespaces): plain
 * HTTPS with the admin certificate, made on first use, closed with the server.
 */
final class AdminHttp implements AdminCalls, AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private final KapiServer server;
    private HttpClient client;

    AdminHttp(KapiServer server) {
        this.server = server;
    }

    void createNamespace(String name) {
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}";
        expect(201, send(HttpRequest.newBuilder(uri("/api/v1/namespaces"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))), "create namespace " + name);
    }

    void deleteNamespace(String name) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/api/v1/namespaces/" + name)).DELETE());
        if (response.statusCode() != 404) {
            expect(200, response, "delete namespace " + name);
        }
    }

    @Override
    public Answer post(String path, String contentType, String body) {
        return answer(send(HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body))));
    }

    @Override
    public Answer get(String path) {
        return answer(send(HttpRequest.newBuilder(uri(path)).GET()));
    }

    @Override
    public String where() {
        return server.url();
    }

    private static Answer answer(HttpResponse<String> response) {
        return new Answer(response.statusCode(), response.body());
    }

    private URI uri(String path) {
        return URI.create(server.url() + path);
    }

    private static void expect(int code, HttpResponse<String> response, String what) {
        if (response.statusCode() != code) {
            throw new IllegalStateException("cannot " + what + ": " + response.statusCode() + " " + response.body());
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return client().send(request.timeout(TIMEOUT).header("Accept", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("cannot reach " + server.url() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private synchronized HttpClient client() {
        if (client == null) {
            client = HttpClient.newBuilder().sslContext(sslContext()).connectTimeout(TIMEOUT).build();
        }
        return client;
    }

    private SSLContext sslContext() {
        try {
            List<X509Certificate> chain = Pem.certificates(server.adminCertificatePem());
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("admin", Pem.privateKey(server.adminKeyPem()), new char[0],
                    chain.toArray(X509Certificate[]::new));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, new char[0]);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(TlsMaterial.trustStore(List.of(server.caCertificate())));
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build the admin TLS context", e);
        }
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.shutdownNow();
            client = null;
        }
    }
}
