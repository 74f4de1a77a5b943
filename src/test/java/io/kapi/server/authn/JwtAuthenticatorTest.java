package io.kapi.server.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kapi.server.certs.Pem;
import io.kapi.server.certs.TestCertificates;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
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

    private static HttpsServer server;
    private static RSAKey key;
    private static String issuerUrl;
    private static Path caFile;

    @BeforeAll
    static void issuer(@TempDir Path dir) throws Exception {
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
        issuerUrl = "https://127.0.0.1:" + server.getAddress().getPort();
        key = new RSAKeyGenerator(2048).keyID("k1").generate();
        serve("/.well-known/openid-configuration", "{\"issuer\":\"" + issuerUrl + "\",\"jwks_uri\":\"" + issuerUrl
                + "/keys\"}");
        serve("/keys", new JWKSet(key.toPublicJWK()).toString());
        server.start();
        caFile = dir.resolve("ca.crt");
        Files.writeString(caFile, Pem.encode(tls.get(0).certificate()));
    }

    private static void serve(String path, String json) {
        server.createContext(path, exchange -> {
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    private static JwtAuthenticator oidc(String usernameClaim, String prefix, Map<String, String> required) {
        return new JwtAuthenticator(AuthenticationConfigFile.fromFlags(new AuthenticationConfig.Oidc(issuerUrl, "kapi",
                usernameClaim, prefix, "groups", "oidc:", caFile, required, List.of())), Clock.systemUTC());
    }

    private static String token(RSAKey signer, String audience, Instant expiry, Map<String, Object> claims)
            throws Exception {
        JWTClaimsSet.Builder b = new JWTClaimsSet.Builder().issuer(issuerUrl).subject("u-123").audience(audience)
                .issueTime(new Date()).expirationTime(Date.from(expiry));
        claims.forEach(b::claim);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(signer.getKeyID()).build(), b.build());
        jwt.sign(new RSASSASigner(signer));
        return jwt.serialize();
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
