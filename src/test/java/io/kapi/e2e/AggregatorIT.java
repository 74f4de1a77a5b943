package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.fixtures.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The aggregation layer with kubectl against a real HTTPS extension server: an APIService that names a
 * Service becomes Available once its server answers discovery, its group is listed by discovery (kubectl
 * finds the resource by name and short name), requests are proxied with who made them in
 * {@code X-Remote-*} headers and without the client's credentials, and an APIService whose server is gone
 * or whose Service is missing is unavailable with kube's reason and answers 503. Endpoint routing is on
 * ({@code --enable-aggregator-routing}): the Service's EndpointSlice points at the server on 127.0.0.1.
 */
@DisplayName("aggregated API servers with kubectl")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class AggregatorIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--enable-aggregator-routing=true");

    private static final Await SEEN = Await.atMost(Duration.ofSeconds(60)).every(Duration.ofMillis(250));
    private static final String API_SERVICE = "v1alpha1.wardle.example.com";
    private static TestExtensionServer wardle;

    @BeforeAll
    static void register() throws Exception {
        wardle = new TestExtensionServer();
        kubectl().runWithInput(service("wardle", wardle.port()) + "---\n" + apiService(API_SERVICE, "wardle",
                wardle.port()), "apply", "-f", "-").assertOk();
        awaitCondition(API_SERVICE, "True");
    }

    @AfterAll
    static void stop() {
        if (wardle != null) {
            wardle.close();
        }
    }

    private static Kubectl kubectl() {
        return KAPI.kubectl();
    }

    /** A selectorless Service on {@code port} and its EndpointSlice: 127.0.0.1 on that port. */
    static String service(String name, int port) {
        return "apiVersion: v1\nkind: Service\nmetadata:\n  name: " + name + "\n  namespace: default\nspec:\n"
                + "  ports:\n  - name: https\n    port: " + port + "\n---\n"
                + "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: " + name + "-1\n"
                + "  namespace: default\n  labels:\n    kubernetes.io/service-name: " + name + "\naddressType: IPv4\n"
                + "ports:\n- name: https\n  port: " + port + "\n  protocol: TCP\n"
                + "endpoints:\n- addresses: [\"127.0.0.1\"]\n  conditions:\n    ready: true\n";
    }

    static String apiService(String name, String service, int port) {
        String[] parts = name.split("\\.", 2);
        return "apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: " + name + "\nspec:\n"
                + "  group: " + parts[1] + "\n  version: " + parts[0] + "\n  groupPriorityMinimum: 1000\n"
                + "  versionPriority: 15\n  caBundle: " + wardle.caBundle() + "\n  service:\n    namespace: default\n"
                + "    name: " + service + "\n    port: " + port + "\n";
    }

    /** Waits for the APIService's Available condition to have {@code status}; returns the condition. */
    static com.fasterxml.jackson.databind.JsonNode awaitCondition(String name, String status) {
        return SEEN.until("APIService " + name + " Available=" + status, () -> {
            Kubectl.Result r = kubectl().run("get", "apiservice", name, "-o", "json");
            if (r.exitCode() != 0) {
                return null;
            }
            for (var c : r.json().path("status").path("conditions")) {
                if (c.path("type").asText().equals("Available") && c.path("status").asText().equals(status)) {
                    return c;
                }
            }
            return null;
        }, Objects::nonNull);
    }

    /** Runs {@code kubectl ARGS} until {@code done} holds for its result; returns that result. */
    static Kubectl.Result until(Predicate<Kubectl.Result> done, String... args) {
        return SEEN.until(String.join(" ", args), () -> kubectl().run(args), done);
    }

    @Test
    @DisplayName("an APIService whose server answers discovery is Available, with kube's reason and message")
    void available() throws Exception {
        var condition = awaitCondition(API_SERVICE, "True");
        assertEquals("Passed", condition.path("reason").asText());
        assertEquals("all checks passed", condition.path("message").asText());
        String row = kubectl().run("get", "apiservice", API_SERVICE, "--no-headers").assertOk().stdout();
        assertTrue(row.matches("(?s)" + API_SERVICE.replace(".", "\\.") + "\\s+default/wardle\\s+True\\s+.*"), row);
    }

    @Test
    @DisplayName("discovery lists the aggregated group, and kubectl finds its resource by name and short name")
    void discovery() throws Exception {
        String resources = until(r -> r.stdout().contains("flunders"), "api-resources",
                "--api-group=wardle.example.com").stdout();
        assertTrue(resources.matches("(?s).*flunders\\s+fl\\s+wardle\\.example\\.com/v1alpha1\\s+true\\s+Flunder.*"),
                resources);
        var groups = kubectl().run("get", "--raw", "/apis").assertOk().json();
        assertTrue(groups.path("groups").toString().contains("\"name\":\"wardle.example.com\""), groups.toString());
        var group = kubectl().run("get", "--raw", "/apis/wardle.example.com").assertOk().json();
        assertEquals("APIGroup", group.path("kind").asText());
        assertEquals(TestExtensionServer.GROUP_VERSION, group.path("preferredVersion").path("groupVersion").asText());
        String list = kubectl().run("get", "fl", "-n", "kube-public").assertOk().stdout();
        assertTrue(list.contains("first"), list);
    }

    @Test
    @DisplayName("restarted, the server is ready only with the aggregated group in discovery (apiservice-discovery-controller)")
    void discoveryAtReadiness() {
        KAPI.kapi().restart(); // returns once /readyz is ok
        String resources = kubectl().run("api-resources", "--api-group=wardle.example.com").assertOk().stdout();
        assertTrue(resources.contains("flunders"), resources);
        kubectl().run("get", "--raw", "/readyz/poststarthook/apiservice-discovery-controller").assertOk();
        awaitCondition(API_SERVICE, "True");
    }

    @Test
    @DisplayName("the backend's OpenAPI v3 document is listed and served, so kubectl explain describes its kinds")
    void openApi() throws Exception {
        var index = until(r -> r.stdout().contains("apis/wardle.example.com/v1alpha1"), "get", "--raw", "/openapi/v3")
                .json();
        String url = index.path("paths").path("apis/wardle.example.com/v1alpha1").path("serverRelativeURL").asText();
        assertTrue(url.startsWith("/openapi/v3/apis/wardle.example.com/v1alpha1?hash="), index.toString());
        String explained = kubectl().run("explain", "flunders.spec").assertOk().stdout();
        assertTrue(explained.contains("What the flunder wants.") && explained.contains("reference"), explained);
    }

    @Test
    @DisplayName("the backend's OpenAPI v2 paths and definitions are in /openapi/v2, so kubectl explain's v2 output describes its kinds")
    void openApiV2() throws Exception {
        String flunder = "/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders/{name}";
        var swagger = until(r -> r.stdout().contains("com.example.wardle.v1alpha1.Flunder"), "get", "--raw",
                "/openapi/v2").json();
        assertTrue(swagger.path("paths").has(flunder), "the group's path");
        assertFalse(swagger.path("paths").has("/apis/other.example.com/v1/things"), "a path of another group");
        assertTrue(swagger.path("paths").has("/api/v1/namespaces"), "this server's own paths stay");
        var meta = swagger.path("definitions").path("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
        assertFalse(meta.path("description").asText().equals("wardle's own ObjectMeta"), "this server's definition wins");
        var renamed = swagger.path("definitions").path("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta_2");
        assertEquals("wardle's own ObjectMeta", renamed.path("description").asText(), "the backend's, renamed");
        assertEquals("#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta_2", swagger.path("definitions")
                .path("com.example.wardle.v1alpha1.Flunder").path("properties").path("metadata").path("$ref").asText());
        String explained = kubectl().run("explain", "flunders.spec", "--output=plaintext-openapiv2").assertOk().stdout();
        assertTrue(explained.contains("What the flunder wants (v2).") && explained.contains("reference"), explained);
    }

    @Test
    @DisplayName("a request is proxied with its path, query and body, who made it in X-Remote headers, no credentials")
    void proxied() throws Exception {
        String path = "/apis/wardle.example.com/v1alpha1/namespaces/default/flunders";
        var list = kubectl().run("get", "--raw", path + "?limit=5").assertOk().json();
        assertEquals("FlunderList", list.path("kind").asText());
        TestExtensionServer.Seen seen = wardle.seen(path).getLast();
        assertEquals("GET", seen.method());
        assertEquals("limit=5", seen.query());
        assertEquals("kubernetes-admin", seen.header("X-Remote-User"));
        assertTrue(seen.all("X-Remote-Group").contains("system:masters"), seen.headers().toString());
        assertNull(seen.header("Authorization"));
        String created = kubectl().runWithInput("{\"apiVersion\":\"wardle.example.com/v1alpha1\",\"kind\":\"Flunder\","
                + "\"metadata\":{\"name\":\"second\"}}", "create", "-f", "-", "-o", "name").assertOk().stdout();
        assertEquals("flunder.wardle.example.com/second", created.strip());
        assertEquals("POST", wardle.seen(path).getLast().method());
        assertTrue(wardle.seen(path).getLast().body().contains("\"second\""));
    }

    @Test
    @DisplayName("a watch is streamed through the proxy")
    void watch() throws Exception {
        var events = kubectl().run("get", "--raw",
                "/apis/wardle.example.com/v1alpha1/namespaces/default/flunders?watch=true").assertOk().stdout();
        assertTrue(events.contains("\"type\":\"ADDED\""), events);
    }

    @Test
    @DisplayName("a request the backend does not answer by the request's deadline fails with kube's 504, as kubectl shows it")
    void backendTimeout() throws Exception {
        Instant start = Instant.now();
        Kubectl.Result r = kubectl().run("get", "--raw",
                "/apis/wardle.example.com/v1alpha1/namespaces/default/flunders/slow?timeout=2s").assertFailed();
        assertEquals("Error from server (Timeout): the server was unable to return a response in the time allotted, "
                + "but may still be processing the request", r.stderr().strip(), r.toString());
        assertTrue(Duration.between(start, Instant.now()).compareTo(Duration.ofSeconds(15)) < 0, r.toString());
    }

    @Test
    @DisplayName("an APIService whose Service is missing is unavailable (ServiceNotFound) and answers 503")
    void missingService() throws Exception {
        kubectl().runWithInput(apiService("v1beta1.gone.example.com", "nothing-here", 443), "apply", "-f", "-").assertOk();
        var condition = awaitCondition("v1beta1.gone.example.com", "False");
        assertEquals("ServiceNotFound", condition.path("reason").asText());
        assertEquals("service/nothing-here in \"default\" is not present", condition.path("message").asText());
        Kubectl.Result r = kubectl().run("get", "--raw", "/apis/gone.example.com/v1beta1").assertFailed();
        assertTrue(r.stderr().contains("Error from server (ServiceUnavailable)"), r.stderr());
        kubectl().run("delete", "apiservice", "v1beta1.gone.example.com").assertOk();
    }

    @Test
    @DisplayName("an APIService whose server stopped answering turns FailedDiscoveryCheck, and back once it answers")
    void serverGone() throws Exception {
        try (TestExtensionServer other = new TestExtensionServer()) {
            kubectl().runWithInput(service("other", other.port()) + "---\n"
                    + apiService("v1.other.example.com", "other", other.port()), "apply", "-f", "-").assertOk();
            awaitCondition("v1.other.example.com", "True");
        }
        var condition = awaitCondition("v1.other.example.com", "False");
        assertEquals("FailedDiscoveryCheck", condition.path("reason").asText());
        assertTrue(condition.path("message").asText().startsWith("failing or missing response from https://127.0.0.1:"),
                condition.toString());
        Kubectl.Result r = kubectl().run("get", "--raw", "/apis/other.example.com/v1").assertFailed();
        assertTrue(r.stderr().contains("Error from server (ServiceUnavailable)"), r.stderr());
        kubectl().run("delete", "apiservice", "v1.other.example.com").assertOk();
        var gone = until(x -> !x.stdout().contains("other.example.com"), "get", "--raw", "/apis");
        assertTrue(gone.exitCode() == 0, gone.toString());
        List.of("service/other", "endpointslice/other-1").forEach(o -> kubectl().run("delete", o).assertOk());
    }
}
