package io.kapi.bench.authn;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.apis.subresources.ServiceAccountKeys;
import io.kapi.authn.AuthenticationConfigFile;
import io.kapi.authn.ClientCertificateAuthenticator;
import io.kapi.authn.JwtAuthenticator;
import io.kapi.authn.LegacyTokenUse;
import io.kapi.authn.ServiceAccountTokens;
import io.kapi.authn.TestOidcIssuer;
import io.kapi.authn.TestTokenWebhook;
import io.kapi.authn.TokenAuthenticator;
import io.kapi.authn.TokenCache;
import io.kapi.authn.TokenFile;
import io.kapi.authn.WebhookTokenAuthenticator;
import io.kapi.certs.TestCertificates;
import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.user.UserInfo;
import io.kapi.webhook.KubeconfigWebhook;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What each authenticator adds to a request, per authentication (JMH sample time: the p0.50 line is the
 * median in µs): a client certificate chain verified against the client CA (and remembered, as the server
 * does: {@code x509}); a static token file; a bound service-account JWT as every request pays it (its
 * signature remembered, its times, audience and account checked: {@code serviceAccountJwt}) and on first use
 * ({@code serviceAccountJwtFirstUse}: the signature verified too); an OIDC ID token of a loopback issuer (keys
 * fetched once); a webhook token over loopback HTTPS; and the tokens through kube's 10 s token cache
 * ({@code cached*}: what every request after the first pays; the server no longer puts service-account
 * tokens behind it, so that revocation is immediate). The lookups are an in-memory map, as the server's come
 * from its watch cache.
 *
 * <p>Run: {@code bench/authn.sh} (about a minute).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class AuthenticatorBenchmark {

    private static final String API = "https://kubernetes.default.svc.cluster.local";

    private ClientCertificateAuthenticator x509;
    private List<X509Certificate> cas;
    private RestRequest request;
    private List<X509Certificate> chain;
    private TokenAuthenticator tokenFile;
    private TokenAuthenticator serviceAccounts;
    private TokenAuthenticator oidc;
    private TokenAuthenticator webhook;
    private TokenAuthenticator cachedServiceAccounts;
    private java.security.PublicKey saKey;
    private ObjectLookup saLookup;
    private TokenAuthenticator cachedOidc;
    private TokenAuthenticator cachedWebhook;
    private String saToken;
    private String idToken;
    private TestOidcIssuer issuer;
    private TestTokenWebhook webhookServer;

    @Setup
    public void setUp() throws Exception {
        TestCertificates.Cert ca = TestCertificates.ca("bench-ca");
        cas = List.of(ca.certificate());
        x509 = new ClientCertificateAuthenticator(cas);
        chain = List.of(TestCertificates.client(ca, "jane", List.of("dev")).certificate());
        request = new RestRequest("GET", "/api", Map.of(), Map.of(), new ByteArrayInputStream(new byte[0]), null);
        Path dir = Files.createTempDirectory("authn-bench-");
        Path tokens = dir.resolve("tokens.csv");
        Files.writeString(tokens, "alice-secret-token,alice,1001,\"dev,ops\"\nbob-token,bob,1002\n");
        tokenFile = TokenFile.read(tokens);
        serviceAccounts(Clock.systemUTC());
        issuer = new TestOidcIssuer();
        Path config = dir.resolve("authn.yaml");
        Files.writeString(config, """
                apiVersion: apiserver.config.k8s.io/v1
                kind: AuthenticationConfiguration
                jwt:
                - issuer:
                    url: %s
                    certificateAuthority: |
                %s
                    audiences: [kapi]
                  claimMappings:
                    username: {claim: email, prefix: ""}
                    groups: {claim: groups, prefix: "oidc:"}
                """.formatted(issuer.url(), issuer.caPem().strip().indent(6).stripTrailing()));
        oidc = new JwtAuthenticator(AuthenticationConfigFile.read(config, List.of(API)).jwt().getFirst(),
                Clock.systemUTC());
        idToken = issuer.token("u-1", "kapi", Instant.now().plusSeconds(3600), Map.of("email", "jane@example.com",
                "email_verified", true, "groups", List.of("dev")));
        webhookServer = new TestTokenWebhook();
        webhook = new WebhookTokenAuthenticator(KubeconfigWebhook.fromKubeconfig(webhookServer.kubeconfig(dir),
                Duration.ofSeconds(30)), "v1", List.of(API));
        Duration ttl = Duration.ofSeconds(10);
        cachedServiceAccounts = new TokenCache(serviceAccounts, ttl, Duration.ZERO, Clock.systemUTC());
        cachedOidc = new TokenCache(oidc, ttl, Duration.ZERO, Clock.systemUTC());
        cachedWebhook = new TokenCache(webhook, Duration.ofMinutes(2), Duration.ofMinutes(2), Clock.systemUTC());
        for (TokenAuthenticator t : List.of(serviceAccounts, oidc, webhook)) {
            if (t.authenticate(t == serviceAccounts ? saToken : t == oidc ? idToken : "wh-carol", List.of()).isEmpty()) {
                throw new IllegalStateException("the benchmark's token is refused by " + t);
            }
        }
    }

    /** A bound token of {@code default/robot}, and the authenticator with the account to look up. */
    private void serviceAccounts(Clock clock) {
        ServiceAccountKeys keys = ServiceAccountKeys.ephemeral();
        ObjectNode account = Json.object();
        account.putObject("metadata").put("name", "robot").put("namespace", "default").put("uid", "sa-uid-1");
        ObjectLookup lookup = new ObjectLookup() {
            @Override
            public Optional<ObjectNode> get(GroupVersionResource resource, String namespace, String name) {
                return resource.resource().equals("serviceaccounts") && name.equals("robot")
                        ? Optional.of(account.deepCopy()) : Optional.empty();
            }

            @Override
            public List<ObjectNode> list(GroupVersionResource resource, String namespace) {
                return List.of();
            }
        };
        saKey = keys.publicKey();
        saLookup = lookup;
        serviceAccounts = new ServiceAccountTokens(List.of(keys.publicKey()), List.of(API), List.of(), lookup, true,
                LegacyTokenUse.NONE, clock);
        long now = clock.instant().getEpochSecond();
        ObjectNode claims = Json.object();
        claims.put("iss", API).put("sub", "system:serviceaccount:default:robot").put("exp", now + 3600)
                .put("iat", now).put("nbf", now).put("jti", "bench-jti");
        claims.putArray("aud").add(API);
        ObjectNode k8s = claims.putObject("kubernetes.io");
        k8s.put("namespace", "default");
        k8s.putObject("serviceaccount").put("name", "robot").put("uid", "sa-uid-1");
        saToken = keys.sign(claims);
    }

    @TearDown
    public void tearDown() {
        issuer.close();
        webhookServer.close();
    }

    @Benchmark
    public Optional<UserInfo> x509() {
        return x509.authenticate(request, chain);
    }

    /** Without the verified-chain cache: a fresh authenticator verifies the chain (PKIX, signature). */
    @Benchmark
    public Optional<UserInfo> x509Uncached() {
        return new ClientCertificateAuthenticator(cas).authenticate(request, chain);
    }

    @Benchmark
    public Object tokenFile() {
        return tokenFile.authenticate("alice-secret-token", List.of());
    }

    @Benchmark
    public Object serviceAccountJwt() {
        return serviceAccounts.authenticate(saToken, List.of());
    }

    /** A fresh authenticator: the signature is verified (ES256) before the claims are checked. */
    @Benchmark
    public Object serviceAccountJwtFirstUse() {
        return new ServiceAccountTokens(List.of(saKey), List.of(API), List.of(), saLookup, true, LegacyTokenUse.NONE,
                Clock.systemUTC()).authenticate(saToken, List.of());
    }

    @Benchmark
    public Object oidcJwt() {
        return oidc.authenticate(idToken, List.of());
    }

    @Benchmark
    public Object webhook() {
        return webhook.authenticate("wh-carol", List.of());
    }

    @Benchmark
    public Object cachedServiceAccountJwt() {
        return cachedServiceAccounts.authenticate(saToken, List.of());
    }

    @Benchmark
    public Object cachedOidcJwt() {
        return cachedOidc.authenticate(idToken, List.of());
    }

    @Benchmark
    public Object cachedWebhook() {
        return cachedWebhook.authenticate("wh-carol", List.of());
    }
}
