package io.kapi.authz;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.kapi.authz.modes.AuthorizationModes;
import io.kapi.machinery.Json;
import io.kapi.request.Verb;
import io.kapi.user.UserInfo;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --authorization-config}: kube's validation wording, and the chain it builds against a real
 * SubjectAccessReview webhook on loopback (alice allowed, everyone else no opinion).
 */
final class AuthorizationConfigurationTest {

    private HttpServer server;
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private Path dir;
    private Path kubeconfig;

    @BeforeEach
    void start(@TempDir Path tmp) throws Exception {
        dir = tmp;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            JsonNode review = Json.MAPPER.readTree(exchange.getRequestBody());
            received.add(review);
            String status = review.path("spec").path("user").asText().equals("alice")
                    ? "{\"allowed\":true,\"reason\":\"alice may\"}" : "{\"allowed\":false}";
            byte[] body = ("{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\",\"status\":"
                    + status + "}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        kubeconfig = tmp.resolve("webhook.kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: remote, cluster: {server: "http://127.0.0.1:%d/review"}}]
                users: [{name: api, user: {token: t}}]
                contexts: [{name: c, context: {cluster: remote, user: api}}]
                current-context: c
                """.formatted(server.getAddress().getPort()));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private Path file(String yaml) throws Exception {
        Path f = Files.createTempFile(dir, "authz-", ".yaml");
        Files.writeString(f, yaml);
        return f;
    }

    private String webhook(String extra) {
        return """
                - type: Webhook
                  name: hook
                  webhook:
                    timeout: 3s
                    subjectAccessReviewVersion: v1
                    matchConditionSubjectAccessReviewVersion: v1
                    failurePolicy: %s
                    connectionInfo: {type: KubeConfigFile, kubeConfigFile: %s}
                """.formatted(extra, kubeconfig);
    }

    private static AuthorizationAttributes pods(String user, String namespace) {
        return new AuthorizationAttributes(new UserInfo(user, "", List.of("g"), Map.of()), Verb.LIST, true, "", "v1",
                "pods", "", namespace, "", "");
    }

    private Authorizer chain(String yaml) throws Exception {
        return AuthorizationModes.build(List.of(), null, AuthorizationConfig.DEFAULT.withConfigFile(file(yaml)))
                .authorizer();
    }

    @Test
    @DisplayName("an invalid configuration is refused with kube's field errors")
    void validation() throws Exception {
        String head = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n";
        assertEquals("authorizers: Required value: at least one authorization mode must be defined",
                refused(head + "authorizers: []\n"));
        assertEquals("[authorizers[0].name: Required value, authorizers[1].type: Duplicate value: \"RBAC\", "
                + "authorizers[2].type: Unsupported value: \"Magic\": supported values: \"ABAC\", \"AlwaysAllow\", "
                + "\"AlwaysDeny\", \"Node\", \"RBAC\", \"Webhook\"]", refused(head + """
                authorizers:
                - {type: RBAC}
                - {type: RBAC, name: again}
                - {type: Magic, name: m}
                """));
        assertEquals("authorizers[0].webhook: Required value: required when type=Webhook",
                refused(head + "authorizers: [{type: Webhook, name: w}]\n"));
        assertEquals("[authorizers[0].webhook.timeout: Invalid value: \"1m\": must be > 0s and <= 30s, "
                + "authorizers[0].webhook.failurePolicy: Unsupported value: \"Maybe\": supported values: "
                + "\"NoOpinion\", \"Deny\"]", refused(head + "authorizers:\n"
                + webhook("Maybe").replace("timeout: 3s", "timeout: 1m")));
        String cel = refused(head + "authorizers:\n" + webhook("Deny")
                + "    matchConditions: [{expression: 'request.user =='}]\n");
        assertTrue(cel.startsWith("authorizers[0].webhook.matchConditions[0].expression: Invalid value: "
                + "\"request.user ==\": compilation failed: ERROR: <input>:1:"), cel);
        assertThrows(IllegalArgumentException.class, () -> AuthorizationConfiguration.read(file(
                "apiVersion: v9\nkind: AuthorizationConfiguration\nauthorizers: [{type: RBAC, name: r}]\n")));
    }

    private String refused(String yaml) throws Exception {
        Path f = file(yaml);
        return assertThrows(IllegalArgumentException.class, () -> AuthorizationConfiguration.read(f)).getMessage();
    }

    @Test
    @DisplayName("the webhook is asked only when its match conditions hold; then the next authorizer decides")
    void matchConditions() throws Exception {
        Authorizer chain = chain("apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\n"
                + "authorizers:\n" + webhook("NoOpinion")
                + "    matchConditions: [{expression: \"has(request.resourceAttributes) && "
                + "request.resourceAttributes.namespace == 'hooked'\"}]\n"
                + "- {type: AlwaysDeny, name: deny}\n");
        assertEquals(new Decision.Allow("alice may"), chain.authorize(pods("alice", "hooked")));
        assertEquals(1, received.size());
        assertInstanceOf(Decision.Deny.class, chain.authorize(pods("alice", "elsewhere")));
        assertEquals(1, received.size(), "a condition that does not hold skips the webhook");
        assertInstanceOf(Decision.Deny.class, chain.authorize(pods("bob", "hooked")), "no opinion: the next decides");
    }

    @Test
    @DisplayName("a webhook that fails denies under failurePolicy Deny and has no opinion under NoOpinion")
    void failurePolicy() throws Exception {
        String config = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n";
        Authorizer deny = chain(config + webhook("Deny") + "- {type: AlwaysAllow, name: allow}\n");
        Authorizer noOpinion = chain(config + webhook("NoOpinion") + "- {type: AlwaysAllow, name: allow}\n");
        server.stop(0);
        assertInstanceOf(Decision.Deny.class, deny.authorize(pods("alice", "x")));
        assertInstanceOf(Decision.Allow.class, noOpinion.authorize(pods("alice", "x")));
    }
}
