package io.kapi.authn;

import com.nimbusds.jose.JOSEException;
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
import io.kapi.certs.Pem;
import io.kapi.certs.TestCertificates;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A small OIDC issuer on loopback HTTPS for tests: its discovery document and JWKS (one RSA key,
 * {@code k1}), served with a certificate of its own CA ({@link #caPem()}), and ID tokens it signs.
 * {@link #close()} stops it.
 */
public final class TestOidcIssuer implements AutoCloseable {

    private final HttpsServer server;
    private final RSAKey key;
    private final String url;
    private final String caPem;
    private final AtomicInteger keyFetches = new AtomicInteger();

    public TestOidcIssuer() throws IOException, GeneralSecurityException, JOSEException {
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
        url = "https://127.0.0.1:" + server.getAddress().getPort();
        key = new RSAKeyGenerator(2048).keyID("k1").generate();
        caPem = Pem.encode(tls.get(0).certificate());
        serve("/.well-known/openid-configuration", "{\"issuer\":\"" + url + "\",\"jwks_uri\":\"" + url + "/keys\"}");
        serve("/keys", new JWKSet(key.toPublicJWK()).toString());
        server.start();
    }

    private void serve(String path, String json) {
        server.createContext(path, exchange -> {
            if (path.equals("/keys")) {
                keyFetches.incrementAndGet();
            }
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
    }

    /** The issuer URL ({@code iss}): {@code https://127.0.0.1:<port>}. */
    public String url() {
        return url;
    }

    /** The PEM of the CA that signed the issuer's serving certificate. */
    public String caPem() {
        return caPem;
    }

    /** The issuer's signing key (to forge look-alikes in tests, generate another with the same key id). */
    public RSAKey key() {
        return key;
    }

    /** An ID token of this issuer: {@code iss}, {@code sub}, {@code aud}, {@code iat}, {@code exp} and {@code claims}. */
    public String token(String subject, String audience, Instant expiry, Map<String, Object> claims) {
        return token(key, subject, audience, expiry, claims);
    }

    /** As {@link #token(String, String, Instant, Map)}, signed with {@code signer}. */
    public String token(RSAKey signer, String subject, String audience, Instant expiry, Map<String, Object> claims) {
        JWTClaimsSet.Builder b = new JWTClaimsSet.Builder().issuer(url).subject(subject).audience(audience)
                .issueTime(new Date()).expirationTime(Date.from(expiry));
        claims.forEach(b::claim);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(signer.getKeyID()).build(),
                b.build());
        try {
            jwt.sign(new RSASSASigner(signer));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
