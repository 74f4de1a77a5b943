package io.kapi.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.certs.LocalPki;
import io.kapi.certs.ServingNames;
import io.kapi.certs.TestCertificates.Cert;
import io.kapi.certs.TestCertificates;
import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.ApiException;
import io.kapi.user.UserInfo;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("client certificate authentication")
class ClientCertificateAuthenticatorTest {

    private static final ServingNames NAMES = ServingNames.standard("h", "10.96.0.1", List.of());
    private static final RestRequest REQUEST =
            new RestRequest("GET", "/api", Map.of(), Map.of(), new ByteArrayInputStream(new byte[0]), null);

    @Test
    @DisplayName("a certificate from the client CA is its CN, in its O groups")
    void accepted(@TempDir Path dir) {
        LocalPki pki = LocalPki.ensure(dir, NAMES);
        Optional<UserInfo> user = new ClientCertificateAuthenticator(List.of(pki.ca()))
                .authenticate(REQUEST, List.of(pki.adminCertificate()));
        assertEquals(Optional.of(new UserInfo("kubernetes-admin", "", List.of("system:masters"))), user);
    }

    @Test
    @DisplayName("a certificate from another CA is refused (401, never anonymous); none authenticates nobody")
    void rejected(@TempDir Path a, @TempDir Path b) {
        LocalPki ours = LocalPki.ensure(a, NAMES);
        LocalPki theirs = LocalPki.ensure(b, NAMES);
        Authenticator authn = new ClientCertificateAuthenticator(List.of(ours.ca()));
        assertRefused(authn, theirs.adminCertificate(), "another CA");
        assertTrue(authn.authenticate(REQUEST, List.of()).isEmpty());
    }

    @Test
    @DisplayName("expired, not yet valid, self-signed and serverAuth-only certificates are refused")
    void refusedShapes(@TempDir Path dir) throws Exception {
        LocalPki pki = LocalPki.ensure(dir, NAMES);
        Cert ca = TestCertificates.caOf(pki);
        Instant now = Instant.now();
        Map<String, Cert> bad = Map.of(
                "expired", TestCertificates.leaf(ca, "old", List.of(), now.minus(Duration.ofDays(2)),
                        now.minus(Duration.ofDays(1)), KeyPurposeId.id_kp_clientAuth),
                "not yet valid", TestCertificates.leaf(ca, "early", List.of(), now.plus(Duration.ofDays(1)),
                        now.plus(Duration.ofDays(2)), KeyPurposeId.id_kp_clientAuth),
                "self-signed", TestCertificates.leaf(null, "me", List.of("system:masters"), now.minus(Duration.ofHours(1)),
                        now.plus(Duration.ofDays(1)), KeyPurposeId.id_kp_clientAuth),
                "serverAuth only", TestCertificates.leaf(ca, "server", List.of(), now.minus(Duration.ofHours(1)),
                        now.plus(Duration.ofDays(1)), KeyPurposeId.id_kp_serverAuth));
        Authenticator authn = new ClientCertificateAuthenticator(List.of(pki.ca()));
        bad.forEach((what, cert) -> assertRefused(authn, cert.certificate(), what));
    }

    @Test
    @DisplayName("a chain through an intermediate the client sends, and a leaf without key purposes, are accepted")
    void intermediatesAndNoPurpose(@TempDir Path dir) throws Exception {
        LocalPki pki = LocalPki.ensure(dir, NAMES);
        Cert ca = TestCertificates.caOf(pki);
        Cert intermediate = TestCertificates.intermediate(ca, "intermediate");
        Cert jane = TestCertificates.client(intermediate, "jane", List.of("dev"));
        Authenticator authn = new ClientCertificateAuthenticator(List.of(pki.ca()));
        assertEquals(Optional.of(new UserInfo("jane", "", List.of("dev"))),
                authn.authenticate(REQUEST, List.of(jane.certificate(), intermediate.certificate())));
        assertRefused(authn, jane.certificate(), "intermediate missing");
        Cert plain = TestCertificates.leaf(ca, "plain", List.of(), Instant.now().minus(Duration.ofHours(1)),
                Instant.now().plus(Duration.ofDays(1)), null);
        assertEquals("plain", authn.authenticate(REQUEST, List.of(plain.certificate())).orElseThrow().name());
    }

    @Test
    @DisplayName("a remembered chain is refused once it expires")
    void cacheHonoursExpiry(@TempDir Path dir) throws Exception {
        LocalPki pki = LocalPki.ensure(dir, NAMES);
        Cert shortLived = TestCertificates.leaf(TestCertificates.caOf(pki), "brief", List.of(),
                Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofMinutes(5)),
                KeyPurposeId.id_kp_clientAuth);
        MutableClock clock = new MutableClock(Instant.now());
        Authenticator authn = new ClientCertificateAuthenticator(List.of(pki.ca()), clock);
        assertTrue(authn.authenticate(REQUEST, List.of(shortLived.certificate())).isPresent());
        clock.now = clock.now.plus(Duration.ofMinutes(10));
        assertRefused(authn, shortLived.certificate(), "expired since remembered");
    }

    /** kube's x509 authenticator returns the verification error: a 401, not "no credential". */
    private static void assertRefused(Authenticator authn, X509Certificate cert, String what) {
        ApiException e = assertThrows(ApiException.class, () -> authn.authenticate(REQUEST, List.of(cert)), what);
        assertEquals(401, e.code(), what);
    }

    private static final class MutableClock extends Clock {
        Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
