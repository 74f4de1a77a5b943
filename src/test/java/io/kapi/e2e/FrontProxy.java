package io.kapi.e2e;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kapi.certs.Pem;
import io.kapi.certs.TestCertificates;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * An authenticating front proxy for tests, as kube's aggregator or an auth proxy is: kubectl talks to it
 * over HTTPS (its own serving CA, {@link #caPem()}), and it forwards every request to Kapi with its
 * front-proxy client certificate and the identity headers it was given ({@code X-Remote-User} ...),
 * dropping any such headers the client sent.
 */
final class FrontProxy implements AutoCloseable {

    private static final Set<String> HOP = Set.of("host", "connection", "content-length", "transfer-encoding",
            "upgrade", "keep-alive", "expect", "http2-settings", "authorization");

    private final HttpsServer server;
    private final HttpClient client;
    private final URI upstream;
    private final Map<String, List<String>> identity;
    private final String caPem;

    /**
     * @param proxyCert the client certificate it presents to Kapi (signed by the requestheader CA)
     * @param identity the headers it adds, e.g. {@code X-Remote-User: alice}
     */
    FrontProxy(Kubeconfig kapi, TestCertificates.Cert proxyCert, Map<String, List<String>> identity) throws Exception {
        this.upstream = kapi.server();
        this.identity = Map.copyOf(identity);
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .sslContext(new Kubeconfig(kapi.server(), kapi.caPem(), java.util.Optional.of(Pem.encode(
                        proxyCert.certificate())), java.util.Optional.of(Pem.encode(proxyCert.key()))).sslContext())
                .connectTimeout(Duration.ofSeconds(10)).build();
        List<TestCertificates.Cert> tls = TestCertificates.loopbackServing();
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("k", tls.get(1).key(), new char[0],
                new Certificate[] {tls.get(1).certificate(), tls.get(0).certificate()});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, new char[0]);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), null, null);
        caPem = Pem.encode(tls.get(0).certificate());
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(ssl));
        server.createContext("/", this::forward);
        server.start();
    }

    URI url() {
        return URI.create("https://127.0.0.1:" + server.getAddress().getPort());
    }

    String caPem() {
        return caPem;
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder request = HttpRequest.newBuilder(upstream.resolve(exchange.getRequestURI().toString()))
                    .timeout(Duration.ofSeconds(30))
                    .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                String lower = name.toLowerCase(java.util.Locale.ROOT);
                if (!HOP.contains(lower) && !lower.startsWith("x-remote-")) {
                    values.forEach(v -> request.header(name, v));
                }
            });
            identity.forEach((name, values) -> values.forEach(v -> request.header(name, v)));
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().map().forEach((name, values) -> {
                if (!HOP.contains(name.toLowerCase(java.util.Locale.ROOT)) && !name.startsWith(":")) {
                    exchange.getResponseHeaders().put(name, values);
                }
            });
            byte[] answer = response.body();
            exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
            exchange.getResponseBody().write(answer);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.sendResponseHeaders(502, -1);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
