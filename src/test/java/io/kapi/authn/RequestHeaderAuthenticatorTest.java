package io.kapi.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.certs.TestCertificates;
import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.ApiException;
import io.kapi.user.UserInfo;
import java.io.ByteArrayInputStream;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The front-proxy authenticator: identity headers trusted only from the proxy CA's allowed names. */
final class RequestHeaderAuthenticatorTest {

    private static TestCertificates.Cert proxyCa;
    private static TestCertificates.Cert proxy;
    private static TestCertificates.Cert otherProxy;
    private static TestCertificates.Cert stranger;
    private static RequestHeaderAuthenticator authenticator;

    @BeforeAll
    static void certificates() throws Exception {
        proxyCa = TestCertificates.ca("front-proxy-ca");
        proxy = TestCertificates.client(proxyCa, "front-proxy-client", List.of());
        otherProxy = TestCertificates.client(proxyCa, "someone-else", List.of());
        stranger = TestCertificates.client(TestCertificates.ca("other-ca"), "front-proxy-client", List.of());
        authenticator = new RequestHeaderAuthenticator(List.of(proxyCa.certificate()),
                new AuthenticationConfig.RequestHeader(null, List.of("front-proxy-client"), List.of("X-Remote-User"),
                        List.of("X-Remote-Uid"), List.of("X-Remote-Group"), List.of("X-Remote-Extra-")));
    }

    private static RestRequest request(Map<String, List<String>> headers) {
        Map<String, List<String>> lower = new LinkedHashMap<>();
        headers.forEach((k, v) -> lower.put(k.toLowerCase(java.util.Locale.ROOT), v));
        return new RestRequest("GET", "/api", Map.of(), lower, new ByteArrayInputStream(new byte[0]), null);
    }

    private static Optional<UserInfo> authenticate(TestCertificates.Cert cert, Map<String, List<String>> headers) {
        List<X509Certificate> chain = cert == null ? List.of() : List.of(cert.certificate());
        return authenticator.authenticate(request(headers), chain);
    }

    @Test
    @DisplayName("from the proxy: user, uid, every group value and the extra headers (key lower-cased, unescaped)")
    void fromProxy() {
        UserInfo user = authenticate(proxy, Map.of("X-Remote-User", List.of("jane"), "X-Remote-Uid", List.of("42"),
                "X-Remote-Group", List.of("a", "b"), "X-Remote-Extra-Scopes", List.of("view"),
                "X-Remote-Extra-Acme.com%2Fproject", List.of("p1"))).orElseThrow();
        assertEquals("jane", user.name());
        assertEquals("42", user.uid());
        assertEquals(List.of("a", "b"), user.groups());
        assertEquals(List.of("view"), user.extra().get("scopes"));
        assertEquals(List.of("p1"), user.extra().get("acme.com/project"));
    }

    @Test
    @DisplayName("the headers are ignored without a client certificate; one from another CA is refused (kube's CA "
            + "verifier returns its error, and the client certificate authenticator still decides in the union)")
    void notFromProxy() {
        Map<String, List<String>> headers = Map.of("X-Remote-User", List.of("root"), "X-Remote-Group",
                List.of("system:masters"));
        assertTrue(authenticate(null, headers).isEmpty());
        assertThrows(ApiException.class, () -> authenticate(stranger, headers));
    }

    @Test
    @DisplayName("a proxy certificate whose CN is not allowed is refused; without a user header the next authenticator tries")
    void allowedNames() {
        assertThrows(ApiException.class, () -> authenticate(otherProxy, Map.of("X-Remote-User", List.of("jane"))));
        assertTrue(authenticate(proxy, Map.of()).isEmpty());
    }
}
