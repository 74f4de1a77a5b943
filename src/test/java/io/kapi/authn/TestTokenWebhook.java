package io.kapi.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kapi.certs.Pem;
import io.kapi.certs.TestCertificates;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A token-authentication webhook on loopback HTTPS for tests, answering TokenReviews at
 * {@code /authenticate}: a token {@code wh-<name>} is user {@code <name>} (uid {@code wh-uid-<name>}, group
 * {@code webhook-users}, extra {@code example.com/source: webhook}), any other is not authenticated. Counts
 * the reviews it answered.
 */
public final class TestTokenWebhook implements AutoCloseable {

    private final HttpsServer server;
    private final String caPem;
    private final AtomicInteger reviews = new AtomicInteger();

    public TestTokenWebhook() throws IOException, GeneralSecurityException {
        List<TestCertificates.Cert> tls = TestCertificates.loopbackServing();
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("k", tls.get(1).key(), new char[0],
                new Certificate[] {tls.get(1).certificate(), tls.get(0).certificate()});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, new char[0]);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(ssl));
        caPem = Pem.encode(tls.get(0).certificate());
        server.createContext("/authenticate", exchange -> {
            JsonNode review = Json.MAPPER.readTree(exchange.getRequestBody());
            byte[] body = Json.MAPPER.writeValueAsBytes(answer(review));
            reviews.incrementAndGet();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    private static ObjectNode answer(JsonNode review) {
        ObjectNode out = Json.object();
        out.put("apiVersion", review.path("apiVersion").asText());
        out.put("kind", "TokenReview");
        ObjectNode status = out.putObject("status");
        String token = review.path("spec").path("token").asText();
        if (token.startsWith("wh-")) {
            String name = token.substring(3);
            status.put("authenticated", true);
            ObjectNode user = status.putObject("user");
            user.put("username", name);
            user.put("uid", "wh-uid-" + name);
            user.putArray("groups").add("webhook-users");
            user.putObject("extra").putArray("example.com/source").add("webhook");
        } else {
            status.put("authenticated", false);
        }
        return out;
    }

    /** How many TokenReviews it has answered. */
    public int reviews() {
        return reviews.get();
    }

    /** Writes the kubeconfig of {@code --authentication-token-webhook-config-file} pointing at it. */
    public Path kubeconfig(Path dir) throws IOException {
        Path file = dir.resolve("token-webhook.kubeconfig");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: webhook
                  cluster:
                    server: https://127.0.0.1:%d/authenticate
                    certificate-authority-data: %s
                users:
                - name: kapi
                contexts:
                - name: webhook
                  context: {cluster: webhook, user: kapi}
                current-context: webhook
                """.formatted(server.getAddress().getPort(),
                Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.US_ASCII))));
        return file;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
