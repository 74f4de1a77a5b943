package io.kapi.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.e2e.TestWebhookServer;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The webhook client against a real HTTPS server: the webhook's timeout holds the whole call. */
class WebhookClientTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** Well under what the slow paths take (5 s to the headers, 20 s of body). */
    private static final Duration BOUND = Duration.ofMillis(4_500);

    private static TestWebhookServer server;
    private static final WebhookClient CLIENT = new WebhookClient(new ObjectLookup() {
        @Override
        public Optional<ObjectNode> get(GroupVersionResource resource, String namespace, String name) {
            return Optional.empty();
        }

        @Override
        public List<ObjectNode> list(GroupVersionResource resource, String namespace) {
            return List.of();
        }
    });

    @BeforeAll
    static void start() throws Exception {
        server = new TestWebhookServer();
        CLIENT.post(endpoint("/allow"), Json.object(), Duration.ofSeconds(30)); // the TLS code loaded, warm
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static WebhookEndpoint endpoint(String path) {
        return WebhookEndpoint.of(Json.object().put("url", server.url(path)).put("caBundle", server.caBundle()));
    }

    private WebhookClient.CallFailure failure(String path) {
        long start = System.nanoTime();
        WebhookClient.CallFailure f = assertThrows(WebhookClient.CallFailure.class,
                () -> CLIENT.post(endpoint(path), Json.object(), TIMEOUT));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(BOUND) < 0, "the call took " + took);
        return f;
    }

    @Test
    @DisplayName("a webhook that sends its headers and then trickles its body fails at its timeout, as client-go words it")
    void trickledBody() {
        WebhookClient.CallFailure f = failure("/trickle");
        assertEquals("unexpected error when reading response body. Please retry. Original error: context deadline "
                + "exceeded", f.getMessage());
        assertFalse(f.answered());
    }

    @Test
    @DisplayName("a webhook that does not answer within its timeout fails with Go's context deadline error")
    void noHeaders() {
        WebhookClient.CallFailure f = failure("/slow");
        assertEquals("Post \"" + server.url("/slow") + "?timeout=2s\": context deadline exceeded", f.getMessage());
        assertFalse(f.answered());
    }
}
