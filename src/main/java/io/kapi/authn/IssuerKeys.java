package io.kapi.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import io.kapi.certs.Pem;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The signing keys of one OIDC issuer: its discovery document ({@code /.well-known/openid-configuration},
 * or the configured discovery URL) names {@code jwks_uri}, whose JWK set is fetched over HTTPS, verified
 * with the issuer's CA bundle. Fetched on first use and again when a token names a key not in the set,
 * at most every {@value #REFRESH_SECONDS} s (a flood of forged key ids cannot make Kapi hammer the issuer).
 * Until a fetch succeeds no token of the issuer is accepted.
 */
final class IssuerKeys {

    static final long REFRESH_SECONDS = 10;
    private static final System.Logger LOG = System.getLogger(IssuerKeys.class.getName());

    private final JwtIssuer issuer;
    private final HttpClient http;
    private final Clock clock;
    private volatile JWKSet keys = new JWKSet();
    private volatile Instant lastFetch = Instant.MIN;

    IssuerKeys(JwtIssuer issuer, Clock clock) {
        this.issuer = issuer;
        this.clock = clock;
        this.http = HttpClient.newBuilder().sslContext(sslContext(issuer.caPem()))
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** The key with {@code keyId} (any key when null), fetching the set again if it is not known. */
    List<JWK> find(String keyId) {
        List<JWK> found = matching(keys, keyId);
        if (found.isEmpty()) {
            refresh();
            found = matching(keys, keyId);
        }
        return found;
    }

    private static List<JWK> matching(JWKSet set, String keyId) {
        return set.getKeys().stream().filter(k -> keyId == null || keyId.equals(k.getKeyID())).toList();
    }

    private synchronized void refresh() {
        Instant now = clock.instant();
        if (lastFetch.plusSeconds(REFRESH_SECONDS).isAfter(now)) {
            return;
        }
        lastFetch = now;
        try {
            String discovery = issuer.discoveryUrl() != null ? issuer.discoveryUrl()
                    : issuer.url().replaceAll("/+$", "") + "/.well-known/openid-configuration";
            JsonNode config = Json.MAPPER.readTree(get(discovery));
            if (issuer.discoveryUrl() == null && !config.path("issuer").asText().equals(issuer.url())) {
                LOG.log(System.Logger.Level.WARNING, "oidc: issuer did not match the issuer returned by provider, "
                        + "expected \"{0}\" got \"{1}\"", issuer.url(), config.path("issuer").asText());
                return;
            }
            keys = JWKSet.parse(get(config.path("jwks_uri").asText()));
        } catch (IOException | java.text.ParseException | IllegalArgumentException e) {
            LOG.log(System.Logger.Level.WARNING, "oidc: cannot fetch the keys of {0}: {1}", issuer.url(), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String get(String url) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException(url + ": HTTP " + r.statusCode());
        }
        return r.body();
    }

    /** TLS trusting the CA bundle, or the JDK's roots without one. */
    static SSLContext sslContext(String caPem) {
        try {
            if (caPem == null) {
                return SSLContext.getDefault();
            }
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            int i = 0;
            for (X509Certificate ca : Pem.certificates(caPem)) {
                trust.setCertificateEntry("ca-" + i++, ca);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            return ssl;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("cannot use the CA bundle: " + e.getMessage(), e);
        }
    }
}
