package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.authn.TestOidcIssuer;
import io.kapi.authn.TestTokenWebhook;
import io.kapi.certs.Pem;
import io.kapi.certs.TestCertificates;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Identities from outside the cluster, with kubectl: an OIDC ID token through {@code --authentication-config}
 * (CEL claim mappings and rules, against a loopback HTTPS issuer), a token a webhook vouches for
 * ({@code --authentication-token-webhook-config-file}), and a user a front proxy names in request headers
 * ({@code --requestheader-*}); plus the config file's anonymous paths. Under RBAC, as a cluster would run.
 */
@DisplayName("OIDC, webhook and front-proxy identities with kubectl")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class ExternalIdentitiesIT {

    private static final String UNAUTHORIZED = "error: You must be logged in to the server (Unauthorized)";
    private static final Setup SETUP = Setup.start();

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension(SETUP.args());

    private final Identities as = new Identities(KAPI);

    /** The issuer, webhook and front-proxy CA the server is started with, and its flags. */
    private record Setup(TestOidcIssuer oidc, TestTokenWebhook webhook, TestCertificates.Cert proxyCa, Path dir) {

        static Setup start() {
            try {
                Path dir = Files.createTempDirectory("kapi-external-ids-");
                return new Setup(new TestOidcIssuer(), new TestTokenWebhook(), TestCertificates.ca("front-proxy-ca"),
                        dir);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        String[] args() {
            try {
                Path config = dir.resolve("authentication-config.yaml");
                Files.writeString(config, """
                        apiVersion: apiserver.config.k8s.io/v1
                        kind: AuthenticationConfiguration
                        jwt:
                        - issuer:
                            url: %s
                            certificateAuthority: |
                        %s
                            audiences: [kapi]
                          claimValidationRules:
                          - expression: claims.email_verified == true
                            message: the email must be verified
                          claimMappings:
                            username: {expression: claims.email}
                            groups: {claim: groups, prefix: "oidc:"}
                            uid: {claim: sub}
                            extra:
                            - {key: example.com/tenant, valueExpression: claims.tenant}
                          userValidationRules:
                          - expression: "!user.username.startsWith('system:')"
                            message: no system users from the identity provider
                        anonymous:
                          enabled: true
                          conditions: [{path: /livez}, {path: /readyz}, {path: /healthz}]
                        """.formatted(oidc.url(), oidc.caPem().strip().indent(6).stripTrailing()));
                Path proxyCaFile = dir.resolve("front-proxy-ca.crt");
                Files.writeString(proxyCaFile, Pem.encode(proxyCa.certificate()));
                return new String[] {"--authorization-mode=RBAC", "--authentication-config=" + config,
                        "--authentication-token-webhook-config-file=" + webhook.kubeconfig(dir),
                        "--authentication-token-webhook-version=v1", "--authentication-token-webhook-cache-ttl=30s",
                        "--requestheader-client-ca-file=" + proxyCaFile,
                        "--requestheader-allowed-names=front-proxy-client",
                        "--requestheader-username-headers=X-Remote-User", "--requestheader-group-headers=X-Remote-Group",
                        "--requestheader-extra-headers-prefix=X-Remote-Extra-"};
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @AfterAll
    static void stop() {
        SETUP.oidc().close();
        SETUP.webhook().close();
        KapiProcess.deleteTree(SETUP.dir());
    }

    private static JsonNode whoami(Kubectl kubectl) {
        Kubectl.Result r = kubectl.run("auth", "whoami", "-o", "json").assertOk();
        try {
            return Json.MAPPER.readTree(r.stdout()).path("status").path("userInfo");
        } catch (IOException e) {
            throw new AssertionError(r.toString(), e);
        }
    }

    private static void assertUnauthorized(Kubectl kubectl) {
        Kubectl.Result r = kubectl.run("auth", "whoami").assertFailed();
        assertTrue(r.stderr().contains(UNAUTHORIZED), r.toString());
    }

    private static String idToken(String email, boolean verified) {
        return SETUP.oidc().token("sub-" + email.hashCode(), "kapi", Instant.now().plusSeconds(600), Map.of(
                "email", email, "email_verified", verified, "groups", List.of("dev", "ops"), "tenant", "acme"));
    }

    @Test
    @DisplayName("an OIDC ID token is the user its CEL mappings make; unverified email or a system: name is 401")
    void oidc() {
        String token = idToken("jane@example.com", true);
        JsonNode user = whoami(as.token(token));
        assertEquals("jane@example.com", user.path("username").asText(), user.toString());
        assertEquals("sub-" + "jane@example.com".hashCode(), user.path("uid").asText());
        assertEquals("[\"oidc:dev\",\"oidc:ops\",\"system:authenticated\"]", user.path("groups").toString());
        assertEquals("[\"acme\"]", user.path("extra").path("example.com/tenant").toString());
        assertUnauthorized(as.token(idToken("joe@example.com", false)));
        assertUnauthorized(as.token(idToken("system:admin", true)));
        assertUnauthorized(as.token(SETUP.oidc().token("jane", "another-client", Instant.now().plusSeconds(600),
                Map.of("email", "jane@example.com", "email_verified", true))));
    }

    @Test
    @DisplayName("a token the webhook vouches for is its user, with groups and extra; one it refuses is 401")
    void webhook() {
        JsonNode user = whoami(as.token("wh-carol"));
        assertEquals("carol", user.path("username").asText(), user.toString());
        assertEquals("wh-uid-carol", user.path("uid").asText());
        assertEquals("[\"webhook-users\",\"system:authenticated\"]", user.path("groups").toString());
        assertEquals("[\"webhook\"]", user.path("extra").path("example.com/source").toString());
        int reviews = SETUP.webhook().reviews();
        whoami(as.token("wh-carol"));
        assertEquals(reviews, SETUP.webhook().reviews(), "a second use within the cache TTL does not ask again");
        assertUnauthorized(as.token("not-a-webhook-token"));
    }

    @Test
    @DisplayName("a front proxy's identity headers are the user when its certificate is allowed; another name is 401")
    void frontProxy() throws Exception {
        Map<String, List<String>> identity = Map.of("X-Remote-User", List.of("dave"),
                "X-Remote-Group", List.of("proxied", "readers"), "X-Remote-Extra-Scopes", List.of("read"));
        try (FrontProxy proxy = new FrontProxy(KAPI.kapi().kubeconfig(),
                TestCertificates.client(SETUP.proxyCa(), "front-proxy-client", List.of()), identity)) {
            JsonNode user = whoami(through(proxy, "allowed"));
            assertEquals("dave", user.path("username").asText(), user.toString());
            assertEquals("[\"proxied\",\"readers\",\"system:authenticated\"]", user.path("groups").toString());
            assertEquals("[\"read\"]", user.path("extra").path("scopes").toString());
        }
        try (FrontProxy intruder = new FrontProxy(KAPI.kapi().kubeconfig(),
                TestCertificates.client(SETUP.proxyCa(), "intruder", List.of()), identity)) {
            assertUnauthorized(through(intruder, "intruder"));
        }
    }

    /** kubectl pointed at the proxy, with a session token of the proxy's (which it does not forward). */
    private static Kubectl through(FrontProxy proxy, String name) throws IOException {
        Path file = KAPI.kapi().dataDir().resolve("proxy-" + name + ".kubeconfig");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - cluster:
                    certificate-authority-data: %s
                    server: %s
                  name: proxy
                contexts:
                - context: {cluster: proxy, user: nobody}
                  name: proxy
                current-context: proxy
                users:
                - name: nobody
                  user: {token: proxy-session-token}
                """.formatted(Base64.getEncoder().encodeToString(proxy.caPem().getBytes(StandardCharsets.US_ASCII)),
                proxy.url()));
        return KAPI.kubectlWith(file);
    }

    @Test
    @DisplayName("the config file's anonymous section allows anonymous requests on its paths only")
    void anonymousPaths() {
        try (ApiClient client = ApiClient.anonymous(KAPI.kapi().kubeconfig(), Map.of())) {
            assertEquals(200, client.get("/livez").status());
            assertEquals(200, client.get("/readyz").status());
            assertEquals(401, client.get("/version").status(), "not among the conditions' paths");
            assertEquals(401, client.get("/api/v1/namespaces").status());
        }
    }
}
