package io.kapi.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The authentication flags' checks at start, worded as kube-apiserver's. */
@DisplayName("authentication flags")
final class AuthenticationFlagsTest {

    @TempDir
    Path dir;

    private static String error(String... args) {
        return assertThrows(FlagParser.FlagException.class, () -> FlagParser.parse(List.of(args))).getMessage();
    }

    private Path file(String text) throws Exception {
        Path f = Files.createTempFile(dir, "authn-", ".yaml");
        Files.writeString(f, text);
        return f;
    }

    private Path anonymousConfig() throws Exception {
        return file("""
                apiVersion: apiserver.config.k8s.io/v1
                kind: AuthenticationConfiguration
                anonymous: {enabled: true, conditions: [{path: /livez}]}
                """);
    }

    @Test
    @DisplayName("--authentication-config with --oidc-* flags, or an anonymous section with --anonymous-auth, is refused")
    void mutuallyExclusive() throws Exception {
        Path config = anonymousConfig();
        assertEquals("authentication-config file and oidc-* flags are mutually exclusive", error(
                "--authentication-config=" + config, "--oidc-issuer-url=https://idp", "--oidc-client-id=kapi"));
        assertEquals("anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in "
                + "authentication configuration file", error("--authentication-config=" + config, "--anonymous-auth=false"));
        assertInstanceOf(FlagParser.Run.class, FlagParser.parse(List.of("--authentication-config=" + config)));
        Path jwtOnly = file("apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt: []\n");
        assertInstanceOf(FlagParser.Run.class, FlagParser.parse(List.of("--authentication-config=" + jwtOnly,
                "--anonymous-auth=false")));
    }

    @Test
    @DisplayName("--oidc-* flags need the issuer and the client id, the issuer on https")
    void oidc() {
        assertEquals("oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set",
                error("--oidc-username-claim=email", "--oidc-client-id=kapi"));
        assertEquals("invalid authentication configuration: jwt[0].issuer.url: Invalid value: \"http://idp\": URL "
                + "scheme must be https", error("--oidc-issuer-url=http://idp", "--oidc-client-id=kapi"));
    }

    @Test
    @DisplayName("an invalid --authentication-config file stops the start with its field errors")
    void invalidFile() throws Exception {
        Path bad = file("""
                apiVersion: apiserver.config.k8s.io/v1
                kind: AuthenticationConfiguration
                jwt:
                - issuer: {url: "https://kubernetes.default.svc.cluster.local", audiences: [a]}
                  claimMappings: {username: {claim: sub, prefix: ""}}
                """);
        String message = error("--authentication-config=" + bad);
        assertTrue(message.startsWith("invalid authentication configuration: jwt[0].issuer.url: Invalid value: "
                + "\"https://kubernetes.default.svc.cluster.local\": URL must not overlap with disallowed issuers"), message);
        assertInstanceOf(FlagParser.Run.class, FlagParser.parse(List.of("--authentication-config=" + bad,
                "--service-account-issuer=https://sa.example")), "the issuer is only refused when it is a SA issuer");
    }
}
