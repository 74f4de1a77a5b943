package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** /version and the health endpoints, read with kubectl get --raw. */
@DisplayName("version and health endpoints")
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a hung request or watch fails one test, not the suite
final class HealthIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    @Test
    @DisplayName("the generated admin kubeconfig points at the server's port with a client certificate")
    void adminKubeconfig() {
        Kubeconfig kc = KAPI.kapi().kubeconfig();
        assertEquals("https://127.0.0.1:" + KAPI.kapi().port(), kc.server().toString());
        assertTrue(kc.clientCertPem().isPresent() && kc.clientKeyPem().isPresent(), "client cert and key");
        try (ApiClient client = KAPI.client()) {
            assertEquals(200, client.get("/version").status());
        }
    }

    @Test
    @DisplayName("/version says v1.34, major 1, minor 34")
    void version() throws IOException {
        Kubectl.Result r = KAPI.kubectl().run("get", "--raw", "/version").assertOk();
        JsonNode v = Json.MAPPER.readTree(r.stdout());
        assertEquals("1", v.path("major").asText(), r.toString());
        assertEquals("34", v.path("minor").asText(), r.toString());
        assertTrue(v.path("gitVersion").asText().matches("v1\\.34\\.\\d+.*"), r.toString());
        assertEquals("linux/amd64", v.path("platform").asText(), r.toString());
        for (String field : List.of("gitCommit", "gitTreeState", "buildDate", "goVersion", "compiler")) {
            assertTrue(v.has(field), field + " in " + r);
        }
    }

    @Test
    @DisplayName("kubectl version shows the server version")
    void kubectlVersion() throws IOException {
        Kubectl.Result r = KAPI.kubectl().run("version", "-o", "json").assertOk();
        assertTrue(Json.MAPPER.readTree(r.stdout()).path("serverVersion").path("gitVersion").asText().startsWith("v1.34."),
                r.toString());
    }

    @Test
    @DisplayName("cluster-info names the control plane's address")
    void clusterInfo() {
        Kubectl.Result r = KAPI.kubectl().run("cluster-info").assertOk();
        assertTrue(r.stdout().contains("Kubernetes control plane")
                && r.stdout().contains("https://127.0.0.1:" + KAPI.kapi().port()), r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/healthz", "/livez", "/readyz", "/readyz/ping", "/livez/ping", "/healthz/ping"})
    @DisplayName("health endpoints and their ping checks answer ok")
    void ok(String path) {
        assertEquals("ok", KAPI.kubectl().run("get", "--raw", path).assertOk().stdout());
    }

    @Test
    @DisplayName("/readyz?verbose lists each check as [+]name ok and ends with 'readyz check passed'")
    void readyzVerbose() {
        Kubectl.Result r = KAPI.kubectl().run("get", "--raw", "/readyz?verbose").assertOk();
        List<String> lines = r.stdout().strip().lines().toList();
        assertEquals("[+]ping ok", lines.get(0), r.toString());
        assertEquals("readyz check passed", lines.getLast(), r.toString());
        lines.subList(0, lines.size() - 1).forEach(l -> assertTrue(l.matches("\\[\\+][a-z0-9/-]+ ok"), l));
        assertTrue(lines.contains("[+]poststarthook/start-system-namespaces-controller ok"), r.toString());
    }

    /**
     * The check of a kube-apiserver component Kapi does not run as such is left out: the storage object count
     * tracker (Kapi's work estimates and object-count metrics read the watch caches' counts as they are). A check
     * names a component that is ready, and Kapi does not claim readiness of parts it lacks.
     */
    private static final List<String> NOT_YET = List.of("poststarthook/storage-object-count-tracker-hook");

    @Test
    @DisplayName("/readyz?verbose has kube-apiserver 1.32's check for every component Kapi has")
    void readyzChecksLikeKubeApiserver() throws IOException {
        List<String> want = Manifests.read("reference/readyz-verbose-v1.32.13.txt").lines()
                .filter(line -> NOT_YET.stream().noneMatch(name -> line.equals("[+]" + name + " ok"))).toList();
        List<String> got = KAPI.kubectl().run("get", "--raw", "/readyz?verbose").assertOk().stdout().strip().lines().toList();
        List<String> missing = new ArrayList<>(want);
        missing.removeAll(got);
        assertTrue(missing.isEmpty(), "missing: " + missing);
        assertEquals(want.stream().filter(line -> !line.equals("readyz check passed")).toList(),
                got.stream().filter(want::contains).filter(line -> !line.equals("readyz check passed")).toList(),
                "kube's checks in kube's order");
    }

    @Test
    @DisplayName("/livez and /healthz leave out the readiness-only checks (etcd-readiness, informer-sync, shutdown)")
    void readinessOnlyChecks() {
        for (String endpoint : List.of("livez", "healthz")) {
            String verbose = KAPI.kubectl().run("get", "--raw", "/" + endpoint + "?verbose").assertOk().stdout();
            assertTrue(verbose.contains("[+]etcd ok"), verbose);
            for (String readiness : List.of("etcd-readiness", "informer-sync", "shutdown")) {
                assertFalse(verbose.contains("[+]" + readiness + " ok"), endpoint + ": " + verbose);
            }
        }
        KAPI.kubectl().run("get", "--raw", "/readyz/informer-sync").assertOk();
        KAPI.kubectl().run("get", "--raw", "/readyz/autoregister-completion").assertOk();
        KAPI.kubectl().run("get", "--raw", "/livez/autoregister-completion").assertOk();
    }

    @Test
    @DisplayName("/livez?verbose ends with 'livez check passed'")
    void livezVerbose() {
        Kubectl.Result r = KAPI.kubectl().run("get", "--raw", "/livez?verbose").assertOk();
        assertTrue(r.stdout().strip().startsWith("[+]ping ok"), r.toString());
        assertTrue(r.stdout().strip().endsWith("livez check passed"), r.toString());
    }
}
