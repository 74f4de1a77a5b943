package io.kapi.webhook;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.e2e.TestWebhookServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Calling a real HTTPS server (certificate for 127.0.0.1 and webhook.default.svc) with the webhook client's trust. */
class WebhookTrustTest {

    private static TestWebhookServer server;
    private static byte[] ca;

    @BeforeAll
    static void start() throws Exception {
        server = new TestWebhookServer();
        ca = Base64.getDecoder().decode(server.caBundle().getBytes(StandardCharsets.US_ASCII));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static int call(byte[] bundle, String serverName) throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(WebhookTrust.context(bundle, serverName))
                .connectTimeout(Duration.ofSeconds(10)).build();
        return client.send(HttpRequest.newBuilder(URI.create(server.url("/allow"))).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String failure(byte[] bundle, String serverName) {
        Throwable e = assertThrows(IOException.class, () -> call(bundle, serverName));
        StringBuilder messages = new StringBuilder();
        for (Throwable c = e; c != null; c = c.getCause()) {
            messages.append(c.getMessage()).append(" | ");
        }
        return messages.toString();
    }

    @Test
    @DisplayName("a chain to the caBundle naming the host asked for is trusted, under either of its names")
    void trusted() throws Exception {
        assertTrue(call(ca, "127.0.0.1") > 0);
        assertTrue(call(ca, TestWebhookServer.SERVICE_NAME) > 0);
    }

    @Test
    @DisplayName("a certificate for other names, or from a CA not in the bundle, ends the handshake with Go's words")
    void refused() {
        String otherName = failure(ca, "other.default.svc");
        assertTrue(otherName.contains("x509: certificate is valid for"), otherName);
        assertTrue(otherName.contains("not other.default.svc"), otherName);
        String systemRoots = failure(new byte[0], "127.0.0.1");
        assertTrue(systemRoots.contains("x509: certificate signed by unknown authority"), systemRoots);
    }
}
