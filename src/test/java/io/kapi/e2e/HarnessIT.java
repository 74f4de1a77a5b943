package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The harness itself: process lifecycle, kubeconfig TLS, kubectl runner. */
@DisplayName("end-to-end harness")
final class HarnessIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    @Test
    @DisplayName("the server writes an admin kubeconfig pointing at its port, usable by kubectl and Java")
    void kubeconfig() {
        Kubeconfig kc = KAPI.kapi().kubeconfig();
        assertEquals("https://127.0.0.1:" + KAPI.kapi().port(), kc.server().toString());
        assertTrue(kc.clientCertPem().isPresent() && kc.clientKeyPem().isPresent(), "client cert and key");
        assertEquals("ok", KAPI.kubectl().run("get", "--raw", "/readyz").assertOk().stdout());
        try (ApiClient client = KAPI.client()) {
            assertEquals(200, client.get("/version").status());
        }
    }

    @Test
    @DisplayName("restart keeps port and data dir; kill -9 leaves nothing listening until start")
    void lifecycle() throws Exception {
        KapiProcess kapi = KAPI.kapi();
        long pid = kapi.serverPid();
        assertTrue(kapi.rssKiB() > 0);
        kapi.restart();
        assertNotEquals(pid, kapi.serverPid());
        assertTrue(Files.exists(kapi.kubeconfigPath()));
        kapi.kill();
        try (ApiClient client = ApiClient.of(kapi.kubeconfig())) {
            assertThrows(UncheckedIOException.class, () -> client.get("/readyz"));
        }
        kapi.start();
        assertEquals("ok", KAPI.kubectl().run("get", "--raw", "/readyz").assertOk().stdout());
    }
}
