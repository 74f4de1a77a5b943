package io.kapi.authz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.kapi.authn.TokenAuthenticator;
import io.kapi.authn.WebhookTokenAuthenticator;
import io.kapi.machinery.Json;
import io.kapi.request.Verb;
import io.kapi.user.UserInfo;
import io.kapi.webhook.KubeconfigWebhook;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook authorizer and token authenticator against a real HTTP webhook on loopback that answers
 * SubjectAccessReviews (alice allowed, mallory denied, others no opinion) and TokenReviews.
 */
final class WebhookAuthorizerTest {

    private HttpServer server;
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private Path kubeconfig;

    @BeforeEach
    void start(@TempDir Path dir) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            JsonNode review = Json.MAPPER.readTree(exchange.getRequestBody());
            received.add(review);
            String status;
            if (review.path("kind").asText().equals("TokenReview")) {
                status = review.path("spec").path("token").asText().equals("good-token")
                        ? "{\"authenticated\":true,\"user\":{\"username\":\"remote-user\",\"uid\":\"7\",\"groups\":[\"remote\"]}}"
                        : "{\"authenticated\":false}";
            } else {
                String user = review.path("spec").path("user").asText();
                status = user.equals("alice") ? "{\"allowed\":true,\"reason\":\"alice may\"}"
                        : user.equals("mallory") ? "{\"allowed\":false,\"denied\":true,\"reason\":\"never\"}"
                        : "{\"allowed\":false}";
            }
            byte[] body = ("{\"apiVersion\":\"v1\",\"status\":" + status + "}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        kubeconfig = dir.resolve("webhook.kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: remote
                  cluster: {server: "http://127.0.0.1:%d/review"}
                users:
                - name: api
                  user: {token: webhook-secret}
                contexts:
                - name: c
                  context: {cluster: remote, user: api}
                current-context: c
                """.formatted(server.getAddress().getPort()));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static AuthorizationAttributes pods(String user) {
        return new AuthorizationAttributes(new UserInfo(user, "", List.of("g1"), Map.of()), Verb.LIST, true, "", "v1",
                "pods", "", "ns", "", "");
    }

    @Test
    @DisplayName("the remote's allowed, denied and no-opinion answers decide; answers are cached by TTL")
    void decisions() {
        WebhookAuthorizer webhook = new WebhookAuthorizer(KubeconfigWebhook.fromKubeconfig(kubeconfig, Duration.ofSeconds(10)),
                "v1", Duration.ofMinutes(5), Duration.ZERO, Clock.systemUTC());
        assertEquals(new Decision.Allow("alice may"), webhook.authorize(pods("alice")));
        assertEquals(new Decision.Deny("never"), webhook.authorize(pods("mallory")));
        assertInstanceOf(Decision.NoOpinion.class, webhook.authorize(pods("bob")));
        JsonNode first = received.getFirst();
        assertEquals("SubjectAccessReview", first.path("kind").asText());
        assertEquals("pods", first.path("spec").path("resourceAttributes").path("resource").asText());
        assertEquals("[\"g1\"]", first.path("spec").path("groups").toString());
        int calls = received.size();
        webhook.authorize(pods("alice"));
        assertEquals(calls, received.size(), "an allowed answer is cached");
        webhook.authorize(pods("bob"));
        assertEquals(calls + 1, received.size(), "no unauthorized caching with a zero TTL");
    }

    @Test
    @DisplayName("chained after the webhook's no opinion, the next mode decides; a webhook that is down has none")
    void chained() {
        Authorizer chain = Authorizer.chain(List.of(new WebhookAuthorizer(KubeconfigWebhook.fromKubeconfig(kubeconfig,
                Duration.ofSeconds(10)), "v1", Duration.ZERO, Duration.ZERO, Clock.systemUTC()), a -> Decision.allow()));
        assertInstanceOf(Decision.Deny.class, chain.authorize(pods("mallory")));
        assertInstanceOf(Decision.Allow.class, chain.authorize(pods("bob")));
        server.stop(0);
        WebhookAuthorizer down = new WebhookAuthorizer(KubeconfigWebhook.fromKubeconfig(kubeconfig, Duration.ofSeconds(2)),
                "v1", Duration.ZERO, Duration.ZERO, Clock.systemUTC());
        assertInstanceOf(Decision.NoOpinion.class, down.authorize(pods("alice")));
    }

    @Test
    @DisplayName("the token webhook authenticates what the remote's TokenReview accepts, and nothing else")
    void tokenWebhook() {
        TokenAuthenticator tokens = new WebhookTokenAuthenticator(KubeconfigWebhook.fromKubeconfig(kubeconfig,
                Duration.ofSeconds(10)), "v1", List.of("https://kubernetes.default.svc.cluster.local"));
        Optional<TokenAuthenticator.Accepted> ok = tokens.authenticate("good-token", List.of());
        assertTrue(ok.isPresent());
        assertEquals("remote-user", ok.get().user().name());
        assertEquals(List.of("remote"), ok.get().user().groups());
        assertTrue(tokens.authenticate("bad-token", List.of()).isEmpty());
        assertEquals("TokenReview", received.getFirst().path("kind").asText());
    }
}
