package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.certs.TestCertificates;
import io.kapi.fixtures.Await;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The authentication chain as a user meets it with kubectl: {@code kubectl auth whoami} for each kind
 * of identity (client certificates, a static token file, bootstrap tokens, service-account tokens,
 * impersonation), TokenReview, the issuer discovery documents, and kube's 401 for what no one accepts.
 */
@DisplayName("authentication with kubectl")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class AuthenticationIT {

    private static final String UNAUTHORIZED = "error: You must be logged in to the server (Unauthorized)";

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--token-auth-file=" + tokenFile(),
            "--enable-bootstrap-token-auth");

    private final Identities as = new Identities(KAPI);

    private static Path tokenFile() {
        try {
            Path file = Files.createTempFile("kapi-tokens-", ".csv");
            file.toFile().deleteOnExit();
            Files.writeString(file, "alice-secret-token,alice,1001,\"dev,ops\"\nbob-token,bob,1002\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode whoami(Kubectl kubectl, String... flags) {
        List<String> args = new java.util.ArrayList<>(List.of(flags));
        args.addAll(List.of("auth", "whoami", "-o", "json"));
        Kubectl.Result r = kubectl.run(args.toArray(String[]::new)).assertOk();
        try {
            return Json.MAPPER.readTree(r.stdout()).path("status").path("userInfo");
        } catch (IOException e) {
            throw new AssertionError(r.toString(), e);
        }
    }

    private static List<String> groups(JsonNode userInfo) {
        return Json.MAPPER.convertValue(userInfo.path("groups"), Json.MAPPER.getTypeFactory()
                .constructCollectionType(List.class, String.class));
    }

    private static void assertUnauthorized(Kubectl kubectl) {
        Kubectl.Result r = kubectl.run("auth", "whoami").assertFailed();
        assertTrue(r.stderr().contains(UNAUTHORIZED), r.toString());
    }

    @Test
    @DisplayName("the admin kubeconfig is kubernetes-admin in system:masters")
    void admin() {
        JsonNode user = whoami(KAPI.kubectl());
        assertEquals("kubernetes-admin", user.path("username").asText());
        assertEquals(List.of("system:masters", "system:authenticated"), groups(user));
    }

    @Test
    @DisplayName("a certificate signed by the cluster CA is its CN in its O groups; an untrusted or expired one is 401")
    void clientCertificates() throws Exception {
        JsonNode user = whoami(as.certificate("jane", List.of("team-a", "team-b")));
        assertEquals("jane", user.path("username").asText());
        assertEquals(List.of("team-a", "team-b", "system:authenticated"), groups(user));
        assertUnauthorized(as.certificate(TestCertificates.client(TestCertificates.ca("stranger"), "mallory",
                List.of("system:masters"))));
        assertUnauthorized(as.certificate(TestCertificates.leaf(as.clusterCa(), "late", List.of(),
                Instant.now().minus(Duration.ofDays(2)), Instant.now().minus(Duration.ofDays(1)),
                org.bouncycastle.asn1.x509.KeyPurposeId.id_kp_clientAuth)));
    }

    @Test
    @DisplayName("a token of --token-auth-file is its user with uid and groups; an unknown token is 401")
    void staticTokens() {
        JsonNode user = whoami(as.token("alice-secret-token"));
        assertEquals("alice", user.path("username").asText());
        assertEquals("1001", user.path("uid").asText());
        assertEquals(List.of("dev", "ops", "system:authenticated"), groups(user));
        assertEquals(List.of("system:authenticated"), groups(whoami(as.token("bob-token"))));
        Kubectl.Result r = as.token("no-such-token").run("get", "pods").assertFailed();
        // kubectl get words kube-apiserver's 401 so
        assertTrue(r.stderr().contains("error: You must be logged in to the server (the server has asked for the client "
                + "to provide credentials)"), r.toString());
        assertFalse(r.stderr().contains("no-such-token"), "the token is not echoed: " + r);
    }

    @Test
    @DisplayName("a bootstrap token secret authenticates system:bootstrap:<id> until it expires")
    void bootstrapTokens() {
        KAPI.kubectl().runWithInput(bootstrapSecret("abc123", "0123456789abcdef", Instant.now().plusSeconds(3600)),
                "apply", "-f", "-").assertOk();
        KAPI.kubectl().runWithInput(bootstrapSecret("old456", "fedcba9876543210", Instant.now().minusSeconds(60)),
                "apply", "-f", "-").assertOk();
        JsonNode user = whoami(as.token("abc123.0123456789abcdef"));
        assertEquals("system:bootstrap:abc123", user.path("username").asText());
        assertEquals(List.of("system:bootstrappers", "system:bootstrappers:kubeadm:default-node-token",
                "system:authenticated"), groups(user));
        assertUnauthorized(as.token("abc123.0123456789abcdee"));
        assertUnauthorized(as.token("old456.fedcba9876543210"));
    }

    private static String bootstrapSecret(String id, String secret, Instant expiration) {
        return """
                apiVersion: v1
                kind: Secret
                metadata: {name: bootstrap-token-%s, namespace: kube-system}
                type: bootstrap.kubernetes.io/token
                stringData:
                  token-id: %s
                  token-secret: %s
                  expiration: "%s"
                  usage-bootstrap-authentication: "true"
                  auth-extra-groups: system:bootstrappers:kubeadm:default-node-token
                """.formatted(id, id, secret, expiration.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    }

    @Test
    @DisplayName("kubectl create token is the service account; refused once the account is deleted")
    void serviceAccountTokens() throws InterruptedException {
        KAPI.kubectl().run("create", "serviceaccount", "robot").assertOk();
        String token = KAPI.kubectl().run("create", "token", "robot", "--duration=1h").assertOk().stdout().strip();
        JsonNode user = whoami(as.token(token));
        assertEquals("system:serviceaccount:default:robot", user.path("username").asText());
        assertEquals(List.of("system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"),
                groups(user));
        assertTrue(user.path("extra").path("authentication.kubernetes.io/credential-id").get(0).asText()
                .startsWith("JTI="), user.toString());
        KAPI.kubectl().run("delete", "serviceaccount", "robot").assertOk();
        // kube caches authentications for 10 s
        Kubectl.Result r = Await.atMost(Duration.ofSeconds(60)).every(Duration.ofMillis(500))
                .poll(() -> as.token(token).run("auth", "whoami"), refused -> refused.exitCode() != 0);
        assertTrue(r.stderr().contains(UNAUTHORIZED), "refused after the account is deleted: " + r);
    }

    @Test
    @DisplayName("a token for another audience is refused by the API and accepted by a TokenReview for it")
    void audiences() throws IOException {
        KAPI.kubectl().run("create", "serviceaccount", "aud-robot").assertOk();
        String token = KAPI.kubectl().run("create", "token", "aud-robot", "--audience=vault").assertOk()
                .stdout().strip();
        assertUnauthorized(as.token(token));
        JsonNode status = tokenReview(token, List.of("vault"));
        assertTrue(status.path("authenticated").asBoolean(), status.toString());
        assertEquals("system:serviceaccount:default:aud-robot", status.path("user").path("username").asText());
        assertEquals("[\"vault\"]", status.path("audiences").toString());
        assertFalse(tokenReview(token, List.of()).path("authenticated").asBoolean());
    }

    @Test
    @DisplayName("TokenReview says who a token is, and that an unknown one is not authenticated")
    void tokenReviews() throws IOException {
        JsonNode status = tokenReview("alice-secret-token", List.of());
        assertTrue(status.path("authenticated").asBoolean(), status.toString());
        assertEquals("alice", status.path("user").path("username").asText());
        assertEquals("[\"https://kubernetes.default.svc.cluster.local\"]", status.path("audiences").toString(),
                "an audience-agnostic token is valid for the API's audiences, as kube reports");
        assertFalse(tokenReview("alice-secret-token", List.of("vault")).path("authenticated").asBoolean(),
                "nor for another audience");
        assertFalse(tokenReview("nobody-token", List.of()).path("authenticated").asBoolean());
    }

    private static JsonNode tokenReview(String token, List<String> audiences) throws IOException {
        String review = Json.MAPPER.writeValueAsString(Map.of("apiVersion", "authentication.k8s.io/v1",
                "kind", "TokenReview", "spec", Map.of("token", token, "audiences", audiences)));
        Kubectl.Result r = KAPI.kubectl().runWithInput(review, "create", "-f", "-", "-o", "json").assertOk();
        return Json.MAPPER.readTree(r.stdout()).path("status");
    }

    @Test
    @DisplayName("the service-account issuer's discovery document and JWKS verify kubectl create token's tokens")
    void issuerDiscovery() throws IOException {
        JsonNode config = Json.MAPPER.readTree(KAPI.kubectl().run("get", "--raw", "/.well-known/openid-configuration")
                .assertOk().stdout());
        assertEquals("https://kubernetes.default.svc.cluster.local", config.path("issuer").asText());
        assertEquals(config.path("issuer").asText() + "/openid/v1/jwks", config.path("jwks_uri").asText());
        JsonNode keys = Json.MAPPER.readTree(KAPI.kubectl().run("get", "--raw", "/openid/v1/jwks").assertOk().stdout());
        KAPI.kubectl().run("create", "serviceaccount", "jwks-robot").assertOk();
        String token = KAPI.kubectl().run("create", "token", "jwks-robot").assertOk().stdout().strip();
        JsonNode header = Json.MAPPER.readTree(Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))));
        // a data directory's key is P-256 (ES256), as a kube-apiserver given an EC signing key signs
        assertEquals("ES256", header.path("alg").asText());
        assertEquals(header.path("kid").asText(), keys.path("keys").get(0).path("kid").asText(), keys.toString());
        assertEquals("ES256", keys.path("keys").get(0).path("alg").asText(), keys.toString());
        try {
            var jwk = com.nimbusds.jose.jwk.JWKSet.parse(keys.toString()).getKeys().getFirst().toECKey();
            assertTrue(com.nimbusds.jwt.SignedJWT.parse(token).verify(new com.nimbusds.jose.crypto.ECDSAVerifier(jwk)),
                    "the JWKS key verifies the token's signature");
        } catch (java.text.ParseException | com.nimbusds.jose.JOSEException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @DisplayName("kubectl --as and --as-group impersonate another user")
    void impersonation() {
        JsonNode user = whoami(KAPI.kubectl(), "--as=carol", "--as-group=g1", "--as-group=g2");
        assertEquals("carol", user.path("username").asText());
        assertEquals(List.of("g1", "g2", "system:authenticated"), groups(user));
        JsonNode robot = whoami(as.token("alice-secret-token"), "--as=system:serviceaccount:ns1:builder");
        assertEquals("system:serviceaccount:ns1:builder", robot.path("username").asText());
        assertEquals(List.of("system:serviceaccounts", "system:serviceaccounts:ns1", "system:authenticated"),
                groups(robot));
    }

    @Test
    @DisplayName("without credentials only the public paths answer; the rest is kube's 401 Status")
    void anonymous() {
        try (ApiClient client = ApiClient.anonymous(KAPI.kapi().kubeconfig(), Map.of())) {
            assertEquals(200, client.get("/version").status());
            assertEquals(200, client.get("/healthz").status());
            ApiClient.Response r = client.get("/api/v1/namespaces");
            assertEquals(401, r.status(), r.toString());
            assertEquals("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}", r.body().strip());
        }
        try (ApiClient client = ApiClient.anonymous(KAPI.kapi().kubeconfig(),
                Map.of("Authorization", "Bearer alice-secret-token"))) {
            assertEquals(200, client.get("/api/v1/namespaces").status());
        }
    }
}
