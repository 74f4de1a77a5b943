package io.kapi.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.certs.LocalPki;
import io.kapi.certs.ServingNames;
import io.kapi.machinery.Json;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real kubectl against the real server with the generated admin kubeconfig (skipped without kubectl). */
@DisplayName("kubectl with the generated admin.kubeconfig")
class KubectlTest {

    @TempDir
    static Path dataDir;
    static KapiServer server;
    static Path kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(onPath("kubectl"), "kubectl is not installed");
        LocalPki pki = LocalPki.ensure(dataDir, ServingNames.standard("test-host", "10.96.0.1", List.of()));
        server = KapiServer.start(ServerConfig.of("127.0.0.1", 0, pki.tls()), r -> null, List.of(), List.of());
        kubeconfig = pki.writeKubeconfig("https://127.0.0.1:" + server.port());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    private static String kubectl(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), err);
        return out;
    }

    @Test
    @DisplayName("kubectl version reads the server version")
    void version() throws Exception {
        JsonNode v = Json.MAPPER.readTree(kubectl("version", "-o", "json"));
        assertEquals("v1.34.0-kapi.0.1.0", v.path("serverVersion").path("gitVersion").asText());
        assertEquals("34", v.path("serverVersion").path("minor").asText());
    }

    @Test
    @DisplayName("kubectl get --raw /readyz?verbose shows the checks")
    void readyz() throws Exception {
        String out = kubectl("get", "--raw", "/readyz?verbose");
        assertTrue(out.startsWith("[+]ping ok\n[+]log ok\n"), out);
        assertTrue(out.endsWith("[+]shutdown ok\nreadyz check passed\n"), out);
    }
}
