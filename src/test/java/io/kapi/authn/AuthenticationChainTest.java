package io.kapi.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.certs.TestCertificates;
import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.ApiException;
import io.kapi.user.UserInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The authentication chain as kube-apiserver builds it: the credential authenticators in a union, and
 * anonymous only for a request that presented no credential ({@code FailOnError}). A credential that
 * fails is 401 whatever the anonymous setting, on every path: clients refresh their credential on that 401.
 */
@DisplayName("the authentication chain: anonymous only without a credential")
final class AuthenticationChainTest {

    private static final KeyPair KEY = TokenFixtures.ecKey();
    private static final TokenFixtures.Objects OBJECTS = new TokenFixtures.Objects();
    private static final TokenFixtures.SettableClock CLOCK = new TokenFixtures.SettableClock(Instant.now());
    private static TestCertificates.Cert ca;
    private static TestCertificates.Cert jane;
    private static TestCertificates.Cert stranger;
    private static Path tokenFile;

    @BeforeAll
    static void setUp(@TempDir Path dir) throws Exception {
        ca = TestCertificates.ca("client-ca");
        jane = TestCertificates.client(ca, "jane", List.of("dev"));
        stranger = TestCertificates.client(TestCertificates.ca("other-ca"), "mallory", List.of("system:masters"));
        tokenFile = dir.resolve("tokens.csv");
        Files.writeString(tokenFile, "alice-token,alice,1001\n");
        OBJECTS.put("serviceaccounts", "default", "robot", "robot-uid");
    }

    private static Authenticator chain(String mode, Boolean anonymous) {
        AuthenticationConfig config = AuthenticationConfig.DEFAULT.withTokenAuthFile(tokenFile)
                .withClientCas(List.of(ca.certificate()));
        if (anonymous != null) {
            config = config.withAnonymous(anonymous);
        }
        return Authentications.build(config, List.of(mode), List.of(KEY.getPublic()), List.of(TokenFixtures.ISSUER),
                OBJECTS, LegacyTokenUse.NONE, CLOCK).request();
    }

    private static Optional<UserInfo> authenticate(Authenticator chain, RestRequest request, TestCertificates.Cert cert) {
        List<X509Certificate> certs = cert == null ? List.of() : List.of(cert.certificate());
        return chain.authenticate(request, certs);
    }

    private static void assertUnauthorized(Authenticator chain, RestRequest request, TestCertificates.Cert cert,
                                           String what) {
        ApiException e = assertThrows(ApiException.class, () -> authenticate(chain, request, cert), what);
        assertEquals(401, e.code(), what);
        assertEquals("Unauthorized", e.getMessage(), what);
    }

    private static ObjectNode robotClaims(String audience) {
        return TokenFixtures.boundClaims(CLOCK.instant(), audience, "default", "robot", "robot-uid");
    }

    @Test
    @DisplayName("without a credential the request is system:anonymous; with a good one, its user")
    void anonymousWithoutCredential() {
        Authenticator chain = chain("RBAC", null);
        assertEquals(Optional.of(UserInfo.ANONYMOUS), authenticate(chain, TokenFixtures.request("/healthz", Map.of()), null));
        assertEquals("alice", authenticate(chain, TokenFixtures.bearer("alice-token"), null).orElseThrow().name());
        assertEquals("jane", authenticate(chain, TokenFixtures.request("/api", Map.of()), jane).orElseThrow().name());
        assertEquals("system:serviceaccount:default:robot", authenticate(chain,
                TokenFixtures.bearer(TokenFixtures.sign(KEY, robotClaims(TokenFixtures.ISSUER))), null)
                .orElseThrow().name());
    }

    @Test
    @DisplayName("an unknown, forged, tampered, unsigned (alg none) or other-audience token is 401, not anonymous, "
            + "also on /healthz and /version")
    void failedTokensAreUnauthorized() {
        Authenticator chain = chain("RBAC", null);
        String good = TokenFixtures.sign(KEY, robotClaims(TokenFixtures.ISSUER));
        ObjectNode elevated = robotClaims(TokenFixtures.ISSUER);
        elevated.withObjectProperty("kubernetes.io").put("namespace", "kube-system");
        Map<String, String> bad = Map.of(
                "unknown", "not-a-token",
                "forged", TokenFixtures.sign(TokenFixtures.ecKey(), robotClaims(TokenFixtures.ISSUER)),
                "tampered", TokenFixtures.tampered(good, elevated),
                "alg none", TokenFixtures.unsigned(robotClaims(TokenFixtures.ISSUER)),
                "other audience", TokenFixtures.sign(KEY, robotClaims("https://vault.example.com")),
                "expired", TokenFixtures.sign(KEY, TokenFixtures.boundClaims(CLOCK.instant().minusSeconds(7200),
                        TokenFixtures.ISSUER, "default", "robot", "robot-uid")));
        bad.forEach((what, token) -> {
            for (String path : List.of("/api/v1/namespaces", "/healthz", "/version")) {
                assertUnauthorized(chain, TokenFixtures.request(path, Map.of("Authorization", "Bearer " + token)), null,
                        what + " on " + path);
            }
        });
    }

    @Test
    @DisplayName("a client certificate that does not verify is 401, not anonymous; a good token beside it still wins")
    void failedCertificateIsUnauthorized() {
        Authenticator chain = chain("RBAC", null);
        assertUnauthorized(chain, TokenFixtures.request("/healthz", Map.of()), stranger, "certificate of another CA");
        assertEquals("alice", authenticate(chain, TokenFixtures.bearer("alice-token"), stranger).orElseThrow().name());
    }

    @Test
    @DisplayName("with anonymous off, or with AlwaysAllow (no anonymous authenticator), a bad token is 401 too")
    void otherModes() {
        Authenticator off = chain("RBAC", false);
        assertUnauthorized(off, TokenFixtures.request("/healthz", Map.of()), null, "no credential, anonymous off");
        assertUnauthorized(off, TokenFixtures.bearer("not-a-token"), null, "bad token, anonymous off");
        Authenticator alwaysAllow = chain("AlwaysAllow", null);
        assertTrue(authenticate(alwaysAllow, TokenFixtures.request("/healthz", Map.of()), null).isEmpty());
        assertUnauthorized(alwaysAllow, TokenFixtures.bearer("not-a-token"), null, "bad token, AlwaysAllow");
    }
}
