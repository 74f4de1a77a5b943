package io.kapi.server.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.authn.UserInfo;
import io.kapi.endpoint.RestRequest;
import io.kapi.server.certs.LocalPki;
import io.kapi.server.certs.ServingNames;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    @DisplayName("a certificate from another CA, or none, authenticates nobody")
    void rejected(@TempDir Path a, @TempDir Path b) {
        LocalPki ours = LocalPki.ensure(a, NAMES);
        LocalPki theirs = LocalPki.ensure(b, NAMES);
        Authenticator authn = new ClientCertificateAuthenticator(List.of(ours.ca()));
        assertTrue(authn.authenticate(REQUEST, List.of(theirs.adminCertificate())).isEmpty());
        assertTrue(authn.authenticate(REQUEST, List.of()).isEmpty());
    }
}
