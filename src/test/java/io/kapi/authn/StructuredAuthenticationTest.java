package io.kapi.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.user.UserInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --authentication-config} JWT authenticators against a loopback HTTPS issuer: claim mappings by
 * claim and by CEL expression, claim and user validation rules, v1 and v1beta1; and the file's
 * validation worded as kube-apiserver's.
 */
final class StructuredAuthenticationTest {

    private static final List<String> SA_ISSUERS = List.of("https://kubernetes.default.svc.cluster.local");
    private static TestOidcIssuer issuer;
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        issuer = new TestOidcIssuer();
    }

    @AfterAll
    static void stop() {
        issuer.close();
    }

    /** The JWT authenticator configuration the tests share, its issuer block first. */
    static String config(String apiVersion, String issuerUrl, String caPem) {
        return """
                apiVersion: %s
                kind: AuthenticationConfiguration
                jwt:
                - issuer:
                    url: %s
                    certificateAuthority: |
                %s
                    audiences: [kapi, other]
                    audienceMatchPolicy: MatchAny
                  claimValidationRules:
                  - expression: 'claims.hd == "example.com"'
                    message: the hosted domain must be example.com
                  - claim: tier
                    requiredValue: gold
                  claimMappings:
                    username:
                      expression: '"oidc:" + claims.sub'
                    groups:
                      claim: roles
                      prefix: "oidc:"
                    uid:
                      claim: sub
                    extra:
                    - key: example.com/tenant
                      valueExpression: claims.tenant
                  userValidationRules:
                  - expression: "!user.username.startsWith('oidc:system:')"
                    message: username cannot use reserved system prefix
                """.formatted(apiVersion, issuerUrl, caPem.strip().indent(6).stripTrailing());
    }

    private static AuthenticationConfigFile read(String text) throws Exception {
        Path file = Files.createTempFile(dir, "authn-", ".yaml");
        Files.writeString(file, text);
        return AuthenticationConfigFile.read(file, SA_ISSUERS);
    }

    private static Map<String, Object> claims(String hd, String tier) {
        Map<String, Object> claims = new HashMap<>(Map.of("roles", List.of("dev", "ops"), "tenant", "acme"));
        if (hd != null) {
            claims.put("hd", hd);
        }
        if (tier != null) {
            claims.put("tier", tier);
        }
        return claims;
    }

    @ParameterizedTest
    @ValueSource(strings = {"apiserver.config.k8s.io/v1", "apiserver.config.k8s.io/v1beta1"})
    @DisplayName("a token of the configured issuer maps to its user by expression and claim, with extra")
    void mapped(String apiVersion) throws Exception {
        AuthenticationConfigFile file = read(config(apiVersion, issuer.url(), issuer.caPem()));
        JwtAuthenticator jwt = new JwtAuthenticator(file.jwt().getFirst(), Clock.systemUTC());
        String token = issuer.token("jane", "other", Instant.now().plusSeconds(600), claims("example.com", "gold"));
        UserInfo user = jwt.authenticate(token, List.of()).orElseThrow().user();
        assertEquals("oidc:jane", user.name());
        assertEquals("jane", user.uid());
        assertEquals(List.of("oidc:dev", "oidc:ops"), user.groups());
        assertEquals(Map.of("example.com/tenant", List.of("acme")), user.extra());
    }

    @Test
    @DisplayName("a token failing a claim rule, a required claim, a user rule or the audiences is not accepted")
    void refused() throws Exception {
        JwtAuthenticator jwt = new JwtAuthenticator(read(config("apiserver.config.k8s.io/v1", issuer.url(),
                issuer.caPem())).jwt().getFirst(), Clock.systemUTC());
        Instant later = Instant.now().plusSeconds(600);
        assertTrue(jwt.authenticate(issuer.token("jane", "kapi", later, claims("evil.com", "gold")), List.of()).isEmpty());
        assertTrue(jwt.authenticate(issuer.token("jane", "kapi", later, claims("example.com", null)), List.of()).isEmpty());
        assertTrue(jwt.authenticate(issuer.token("system:admin", "kapi", later, claims("example.com", "gold")),
                List.of()).isEmpty());
        assertTrue(jwt.authenticate(issuer.token("jane", "elsewhere", later, claims("example.com", "gold")),
                List.of()).isEmpty());
        assertTrue(jwt.authenticate(issuer.token("jane", "kapi", later, claims("example.com", "gold")),
                List.of()).isPresent());
    }

    private static String invalid(String jwtEntry) {
        String text = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt:\n" + jwtEntry;
        return assertThrows(IllegalArgumentException.class, () -> read(text)).getMessage();
    }

    @Test
    @DisplayName("invalid files are refused with kube's field errors, several aggregated")
    void validation() {
        assertEquals("invalid authentication configuration: jwt[0].issuer.url: Invalid value: \"http://idp\": "
                + "URL scheme must be https", invalid("""
                - issuer: {url: "http://idp", audiences: [a]}
                  claimMappings: {username: {claim: sub, prefix: ""}}
                """));
        assertEquals("invalid authentication configuration: jwt[0].issuer.url: Invalid value: "
                + "\"https://kubernetes.default.svc.cluster.local\": URL must not overlap with disallowed issuers: "
                + "[https://kubernetes.default.svc.cluster.local]", invalid("""
                - issuer: {url: "https://kubernetes.default.svc.cluster.local", audiences: [a]}
                  claimMappings: {username: {claim: sub, prefix: ""}}
                """));
        assertEquals("invalid authentication configuration: [jwt[0].issuer.audienceMatchPolicy: Invalid value: \"\": "
                + "audienceMatchPolicy must be MatchAny for multiple audiences, jwt[0].claimMappings.username.prefix: "
                + "Required value: prefix is required when claim is set. It can be set to an empty string to disable "
                + "prefixing]", invalid("""
                - issuer: {url: "https://idp", audiences: [a, b]}
                  claimMappings: {username: {claim: sub}}
                """));
        assertEquals("invalid authentication configuration: jwt[0].claimMappings.username: Required value: claim or "
                + "expression is required", invalid("""
                - issuer: {url: "https://idp", audiences: [a]}
                """));
        assertTrue(invalid("""
                - issuer: {url: "https://idp", audiences: [a]}
                  claimMappings: {username: {expression: "claims.sub +"}}
                """).startsWith("invalid authentication configuration: jwt[0].claimMappings.username.expression: "
                + "Invalid value: \"claims.sub +\": compilation failed: "));
        assertEquals("invalid authentication configuration: jwt[0].claimMappings.extra[0].key: Invalid value: "
                + "\"kubernetes.io/x\": k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use",
                invalid("""
                - issuer: {url: "https://idp", audiences: [a]}
                  claimMappings:
                    username: {claim: sub, prefix: ""}
                    extra: [{key: kubernetes.io/x, valueExpression: claims.x}]
                """));
        assertEquals("invalid authentication configuration: jwt[0].claimMappings.username.expression: Invalid value: "
                + "\"claims.email\": claims.email_verified must be used in claimMappings.username.expression or "
                + "claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is "
                + "used in claimMappings.username.expression", invalid("""
                - issuer: {url: "https://idp", audiences: [a]}
                  claimMappings: {username: {expression: claims.email}}
                """));
        assertEquals("invalid authentication configuration: jwt[0].userValidationRules[0].expression: Invalid value: "
                + "\"user.username\": must evaluate to bool", invalid("""
                - issuer: {url: "https://idp", audiences: [a]}
                  claimMappings: {username: {claim: sub, prefix: ""}}
                  userValidationRules: [{expression: user.username}]
                """));
    }

    @Test
    @DisplayName("an unreadable kind and a duplicate issuer are refused as kube-apiserver words it")
    void loadErrors() throws Exception {
        Path file = Files.createTempFile(dir, "authn-", ".yaml");
        Files.writeString(file, "apiVersion: v1\nkind: ConfigMap\n");
        String message = assertThrows(IllegalArgumentException.class,
                () -> AuthenticationConfigFile.read(file, SA_ISSUERS)).getMessage();
        assertTrue(message.startsWith("failed to load authentication configuration from file \"" + file + "\": "), message);
        assertEquals("invalid authentication configuration: jwt[1].issuer.url: Duplicate value: \"https://idp\"", invalid("""
                - issuer: {url: "https://idp", audiences: [a]}
                  claimMappings: {username: {claim: sub, prefix: ""}}
                - issuer: {url: "https://idp", audiences: [b]}
                  claimMappings: {username: {claim: sub, prefix: ""}}
                """));
    }

    @Test
    @DisplayName("the anonymous section limits anonymous requests to its paths; conditions need enabled")
    void anonymous() throws Exception {
        AuthenticationConfigFile file = read("""
                apiVersion: apiserver.config.k8s.io/v1
                kind: AuthenticationConfiguration
                anonymous:
                  enabled: true
                  conditions: [{path: /livez}, {path: /readyz}]
                """);
        assertEquals(new AuthenticationConfigFile.Anonymous(true, List.of("/livez", "/readyz")), file.anonymous());
        String message = assertThrows(IllegalArgumentException.class, () -> read("""
                apiVersion: apiserver.config.k8s.io/v1beta1
                kind: AuthenticationConfiguration
                anonymous:
                  enabled: false
                  conditions: [{path: /livez}]
                """)).getMessage();
        assertTrue(message.startsWith("invalid authentication configuration: anonymous.conditions: Invalid value: "), message);
        assertTrue(message.endsWith(": enabled should be set to true when conditions are defined"), message);
    }
}
