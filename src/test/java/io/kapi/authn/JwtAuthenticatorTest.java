package io.kapi.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OIDC ({@code --oidc-*} flags) against a small issuer on loopback HTTPS serving its discovery document
 * and JWKS: ID tokens it signed are users (claim and prefix rules, groups, required claims); expired,
 * wrongly addressed or foreign-signed ones are not.
 */
final class JwtAuthenticatorTest {

    private static TestOidcIssuer issuer;
    private static RSAKey key;
    private static String issuerUrl;
    private static Path caFile;

    @BeforeAll
    static void issuer(@TempDir Path dir) throws Exception {
        issuer = new TestOidcIssuer();
        issuerUrl = issuer.url();
        key = issuer.key();
        caFile = dir.resolve("ca.crt");
        Files.writeString(caFile, issuer.caPem());
    }

    @AfterAll
    static void stop() {
        issuer.close();
    }

    private static JwtAuthenticator oidc(String usernameClaim, String prefix, Map<String, String> required) {
        return new JwtAuthenticator(AuthenticationConfigFile.fromFlags(new AuthenticationConfig.Oidc(issuerUrl, "kapi",
                usernameClaim, prefix, "groups", "oidc:", caFile, required, List.of())), Clock.systemUTC());
    }

    private static String token(RSAKey signer, String audience, Instant expiry, Map<String, Object> claims) {
        return issuer.token(signer, "u-123", audience, expiry, claims);
    }

    @Test
    @DisplayName("an ID token of the issuer is its claim's user, prefixed, with prefixed groups")
    void accepted() throws Exception {
        String t = token(key, "kapi", Instant.now().plusSeconds(600), Map.of("email", "jane@example.com",
                "email_verified", true, "groups", List.of("dev", "ops")));
        Optional<TokenAuthenticator.Accepted> byEmail = oidc("email", "", Map.of()).authenticate(t, List.of());
        assertEquals("jane@example.com", byEmail.orElseThrow().user().name());
        assertEquals(List.of("oidc:dev", "oidc:ops"), byEmail.get().user().groups());
        Optional<TokenAuthenticator.Accepted> bySub = oidc("sub", "", Map.of()).authenticate(t, List.of());
        assertEquals(issuerUrl + "#u-123", bySub.orElseThrow().user().name(), "kube's default prefix for non-email claims");
        assertEquals("corp:u-123", oidc("sub", "corp:", Map.of()).authenticate(t, List.of()).orElseThrow().user().name());
    }

    @Test
    @DisplayName("expired, for another client, foreign-signed or missing a required claim: not accepted")
    void refused() throws Exception {
        JwtAuthenticator a = oidc("sub", "-", Map.of("hd", "example.com"));
        Map<String, Object> hd = Map.of("hd", "example.com");
        assertTrue(a.authenticate(token(key, "kapi", Instant.now().plusSeconds(600), hd), List.of()).isPresent());
        assertTrue(a.authenticate(token(key, "kapi", Instant.now().minusSeconds(600), hd), List.of()).isEmpty());
        assertTrue(a.authenticate(token(key, "other-client", Instant.now().plusSeconds(600), hd), List.of()).isEmpty());
        RSAKey forged = new RSAKeyGenerator(2048).keyID("k1").generate();
        assertTrue(a.authenticate(token(forged, "kapi", Instant.now().plusSeconds(600), hd), List.of()).isEmpty());
        assertTrue(a.authenticate(token(key, "kapi", Instant.now().plusSeconds(600), Map.of("hd", "evil.com")),
                List.of()).isEmpty());
        assertTrue(a.authenticate("not-a-jwt", List.of()).isEmpty());
    }
}
