package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.fixtures.Await;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /metrics} read with kubectl and scraped by a real Prometheus (Debian's package, installed by
 * {@code bin/test}): kube's series with their labels, who may read them, and the kubernetes-mixin's
 * recording rules evaluated over them.
 */
@DisplayName("metrics")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class MetricsIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--authorization-mode=Node,RBAC");

    private final Identities as = new Identities(KAPI);

    @Test
    @DisplayName("kubectl get --raw /metrics counts requests by verb, resource and code, under kube's family names")
    void requestCounts() {
        Kubectl kubectl = KAPI.kubectl();
        kubectl.run("create", "configmap", "metrics-a", "--from-literal=k=v").assertOk();
        kubectl.run("get", "configmap", "metrics-a").assertOk();
        kubectl.run("get", "configmaps").assertOk();
        kubectl.run("get", "configmap", "no-such-configmap").assertFailed();
        try (ApiClient client = KAPI.client()) {
            assertEquals(200, client.get("/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1").status());
        }
        String text = kubectl.run("get", "--raw", "/metrics").assertOk().stdout();
        assertTrue(text.contains("# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for"
                + " each verb, dry run value, group, version, resource, scope, component, and HTTP response code."), text);
        assertTrue(text.contains("# TYPE apiserver_request_total counter"), "type line");
        assertTrue(series(text, "apiserver_request_total", "code=\"201\"", "resource=\"configmaps\"", "scope=\"resource\"",
                "verb=\"POST\"", "version=\"v1\"", "group=\"\"", "component=\"apiserver\"", "dry_run=\"\""), "a create");
        assertTrue(series(text, "apiserver_request_total", "code=\"200\"", "resource=\"configmaps\"", "verb=\"GET\""),
                "a get");
        assertTrue(series(text, "apiserver_request_total", "code=\"200\"", "resource=\"configmaps\"",
                "scope=\"namespace\"", "verb=\"LIST\""), "a list");
        assertTrue(series(text, "apiserver_request_total", "code=\"404\"", "resource=\"configmaps\"", "verb=\"GET\""),
                "a missing object");
        for (String le : List.of("0.05", "1", "5", "30", "60", "+Inf")) {
            assertTrue(series(text, "apiserver_request_sli_duration_seconds_bucket", "le=\"" + le + "\"", "verb=\"POST\""),
                    "the SLI histogram's bound " + le + " written as Go writes it (the mixin selects le=\"1\")");
        }
        assertTrue(series(text, "apiserver_response_sizes_bucket", "le=\"1e+06\""), "a large bound in Go's form");
        for (String family : List.of("apiserver_request_duration_seconds", "apiserver_response_sizes",
                "apiserver_current_inflight_requests", "apiserver_current_inqueue_requests", "apiserver_selfrequest_total",
                "apiserver_tls_handshake_errors_total", "etcd_request_duration_seconds", "etcd_requests_total",
                "apiserver_resource_objects", "apiserver_storage_objects", "apiserver_storage_size_bytes",
                "authentication_attempts", "authentication_duration_seconds", "process_cpu_seconds_total",
                "process_resident_memory_bytes", "process_open_fds", "process_start_time_seconds",
                "jvm_memory_used_bytes", "jvm_threads_current", "kubernetes_build_info", "kubernetes_feature_enabled")) {
            assertTrue(text.contains("# TYPE " + family + " "), family + " in /metrics");
        }
        assertTrue(series(text, "etcd_requests_total", "operation=\"create\"", "group=\"\"", "resource=\"configmaps\""),
                "the store's writes");
        assertTrue(series(text, "kubernetes_build_info", "major=\"1\"", "minor=\"34\""), "build info");
        assertTrue(series(text, "apiserver_watch_events_total", "group=\"\"", "resource=\"configmaps\"",
                "version=\"v1\""), "a watch's events");
        assertTrue(series(text, "apiserver_longrunning_requests", "verb=\"WATCH\"", "resource=\"configmaps\""),
                "the watch as long-running");
        assertTrue(series(text, "apiserver_request_total", "verb=\"WATCH\"", "resource=\"configmaps\"", "code=\"200\""),
                "the watch counted when it ended");
        assertTrue(series(text, "apiserver_admission_controller_admission_duration_seconds_count",
                "name=\"NamespaceLifecycle\"", "operation=\"CREATE\"", "rejected=\"false\"", "type=\"validate\""),
                "an admission plugin's latency");
        assertTrue(series(text, "apiserver_admission_step_admission_duration_seconds_count", "operation=\"CREATE\"",
                "type=\"admit\""), "an admission step's latency");
        assertTrue(series(text, "apiserver_watch_cache_events_dispatched_total", "resource=\"configmaps\""),
                "the watch cache's events");
        assertTrue(series(text, "apiserver_watch_cache_initializations_total", "resource=\"configmaps\""),
                "the watch cache's start");
    }

    @Test
    @DisplayName("webhook calls, policy checks, deprecated APIs and failed TLS handshakes are counted as kube counts them")
    void admissionAndEdges() throws Exception {
        Kubectl kubectl = KAPI.kubectl();
        kubectl.runWithInput("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: metrics-webhooks}
                webhooks:
                - name: closed.metrics.kapi.test
                  clientConfig: {url: "https://127.0.0.1:1/validate"}
                  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
                  objectSelector: {matchLabels: {metrics-webhook: closed}}
                  failurePolicy: Fail
                  timeoutSeconds: 1
                  sideEffects: None
                  admissionReviewVersions: [v1]
                - name: open.metrics.kapi.test
                  clientConfig: {url: "https://127.0.0.1:1/validate"}
                  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
                  objectSelector: {matchLabels: {metrics-webhook: open}}
                  failurePolicy: Ignore
                  timeoutSeconds: 1
                  sideEffects: None
                  admissionReviewVersions: [v1]
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: metrics-policy}
                spec:
                  failurePolicy: Fail
                  matchConstraints:
                    resourceRules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
                    objectSelector: {matchLabels: {metrics-policy: check}}
                  validations:
                  - expression: "!has(object.data) || !('bad' in object.data)"
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: metrics-policy-binding}
                spec:
                  policyName: metrics-policy
                  validationActions: [Deny]
                """, "apply", "-f", "-").assertOk();
        Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(300)).until("the webhooks and policy in force", () ->
                kubectl.runWithInput(configMap("closed", "metrics-webhook: closed", "ok"), "create", "-f", "-").exitCode() != 0
                        && kubectl.runWithInput(configMap("denied", "metrics-policy: check", "bad"), "create", "-f", "-")
                        .exitCode() != 0);
        kubectl.runWithInput(configMap("open", "metrics-webhook: open", "ok"), "create", "-f", "-").assertOk();
        kubectl.runWithInput(configMap("allowed", "metrics-policy: check", "ok"), "create", "-f", "-").assertOk();
        kubectl.run("get", "endpoints").assertOk();
        try (java.net.Socket plain = new java.net.Socket(InetAddress.getLoopbackAddress(), KAPI.kapi().port())) {
            plain.setSoTimeout(10_000);
            plain.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            plain.getInputStream().readAllBytes(); // the server ends the connection: no TLS was spoken
        }

        String text = kubectl.run("get", "--raw", "/metrics").assertOk().stdout();
        assertTrue(series(text, "apiserver_admission_webhook_rejection_count", "name=\"closed.metrics.kapi.test\"",
                "type=\"validating\"", "operation=\"CREATE\"", "error_type=\"calling_webhook_error\"",
                "rejection_code=\"0\""), "a fail-closed webhook that could not be called");
        assertTrue(series(text, "apiserver_admission_webhook_request_total", "name=\"closed.metrics.kapi.test\"",
                "code=\"0\"", "rejected=\"true\""), "its request");
        assertTrue(series(text, "apiserver_admission_webhook_admission_duration_seconds_count",
                "name=\"closed.metrics.kapi.test\"", "type=\"validating\"", "rejected=\"true\""), "its latency");
        assertTrue(series(text, "apiserver_admission_webhook_fail_open_count", "name=\"open.metrics.kapi.test\"",
                "type=\"validating\""), "a fail-open webhook's failed call");
        assertTrue(series(text, "apiserver_admission_webhook_request_total", "name=\"open.metrics.kapi.test\"",
                "rejected=\"false\""), "which rejected nothing");
        assertTrue(series(text, "apiserver_validating_admission_policy_check_total", "policy=\"metrics-policy\"",
                "policy_binding=\"metrics-policy-binding\"", "enforcement_action=\"deny\"", "error_type=\"no_error\""),
                "a policy's denial");
        assertTrue(series(text, "apiserver_validating_admission_policy_check_total", "policy=\"metrics-policy\"",
                "enforcement_action=\"allow\""), "a policy's admission");
        assertTrue(series(text, "apiserver_validating_admission_policy_check_duration_seconds_count",
                "policy=\"metrics-policy\""), "a policy's latency");
        assertTrue(series(text, "apiserver_requested_deprecated_apis", "group=\"\"", "version=\"v1\"",
                "resource=\"endpoints\"", "removed_release=\"\""), "v1 Endpoints, deprecated in 1.33");
        assertTrue(text.lines().anyMatch(l -> l.startsWith("apiserver_tls_handshake_errors_total ")
                && Double.parseDouble(l.substring(l.indexOf(' ') + 1)) >= 1), "a connection that spoke no TLS");
    }

    private static String configMap(String prefix, String label, String key) {
        return "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"generateName\": \"metrics-" + prefix
                + "-\", \"labels\": {" + label.replaceAll("([^:]+): (.+)", "\"$1\": \"$2\"") + "}}, \"data\": {\""
                + key + "\": \"v\"}}";
    }

    @Test
    @DisplayName("a request for a resource nobody serves makes no series of its own")
    void boundedLabels() {
        KAPI.kubectl().run("get", "--raw", "/api/v1/namespaces/default/nonsense" + System.nanoTime()).assertFailed();
        KAPI.kubectl().run("get", "--raw", "/apis/made.up/v1/things").assertFailed();
        String text = KAPI.kubectl().run("get", "--raw", "/metrics").assertOk().stdout();
        assertFalse(text.contains("nonsense"), "an unserved resource's name in a label");
        assertFalse(text.contains("made.up"), "an unserved group in a label");
    }

    @Test
    @DisplayName("a ServiceAccount bound to system:monitoring may scrape; one without gets 403; a bad token 401")
    void whoMayScrape() {
        Kubectl kubectl = KAPI.kubectl();
        kubectl.run("create", "serviceaccount", "scraper").assertOk();
        kubectl.run("create", "serviceaccount", "stranger").assertOk();
        kubectl.run("create", "clusterrolebinding", "scraper-monitoring", "--clusterrole=system:monitoring",
                "--serviceaccount=default:scraper").assertOk();
        String scraper = kubectl.run("create", "token", "scraper").assertOk().stdout().strip();
        String stranger = kubectl.run("create", "token", "stranger").assertOk().stdout().strip();
        Kubectl.Result allowed = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(200))
                .poll(() -> as.token(scraper).run("get", "--raw", "/metrics"), r -> r.exitCode() == 0);
        assertTrue(allowed.stdout().contains("apiserver_request_total"), allowed.toString());
        Kubectl.Result slis = as.token(scraper).run("get", "--raw", "/metrics/slis").assertOk();
        assertTrue(slis.stdout().contains("# TYPE kubernetes_healthcheck gauge"), slis.toString());
        Kubectl.Result denied = as.token(stranger).run("get", "--raw", "/metrics").assertFailed();
        assertTrue(denied.stderr().contains("Forbidden"), denied.toString());
        String text = KAPI.kubectl().run("get", "--raw", "/metrics").assertOk().stdout();
        assertTrue(series(text, "apiserver_authorization_decisions_total", "type=\"RBAC\"", "name=\"rbac\"",
                "decision=\"allowed\""), "RBAC's allows");
        Kubectl.Result refused = as.token("not-a-token").run("get", "--raw", "/metrics").assertFailed();
        assertTrue(refused.stderr().contains("Unauthorized"), refused.toString());
    }

    @Test
    @DisplayName("promtool accepts the exposition; OpenMetrics is served when asked for")
    void exposition() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "Debian's prometheus package (bin/test installs it)");
        String text = KAPI.kubectl().run("get", "--raw", "/metrics").assertOk().stdout();
        Process promtool = new ProcessBuilder("/usr/bin/promtool", "check", "metrics").redirectErrorStream(true).start();
        promtool.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        promtool.getOutputStream().close();
        String out = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(promtool.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, promtool.exitValue(), out);
        try (ApiClient client = KAPI.client()) {
            ApiClient.Response open = client.send("GET", "/metrics", null, null,
                    "application/openmetrics-text; version=1.0.0");
            assertEquals(200, open.status());
            assertTrue(open.body().strip().endsWith("# EOF"), "OpenMetrics ends with # EOF");
            assertTrue(open.body().contains("# TYPE apiserver_request counter"), "OpenMetrics names a counter's family");
            assertFalse(client.get("/metrics").body().contains("# EOF"), "the text format by default");
        }
    }

    @Test
    @DisplayName("Debian's Prometheus scrapes Kapi with a client certificate and evaluates the mixin's burn rates")
    void prometheus() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/prometheus")), "Debian's prometheus package (bin/test installs it)");
        Path dir = Files.createTempDirectory(KAPI.kapi().dataDir(), "prometheus-");
        Kubeconfig admin = KAPI.kapi().kubeconfig();
        Files.writeString(dir.resolve("ca.crt"), admin.caPem());
        Files.writeString(dir.resolve("client.crt"), admin.clientCertPem().orElseThrow());
        Files.writeString(dir.resolve("client.key"), admin.clientKeyPem().orElseThrow());
        try (InputStream rules = MetricsIT.class.getResourceAsStream("/e2e/prometheus/kube-apiserver-rules.yml")) {
            Files.write(dir.resolve("rules.yml"), rules.readAllBytes());
        }
        Files.writeString(dir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 3s
                  scrape_timeout: 3s
                  evaluation_interval: 1s
                rule_files: [rules.yml]
                scrape_configs:
                - job_name: apiserver
                  scheme: https
                  tls_config:
                    ca_file: %1$s/ca.crt
                    cert_file: %1$s/client.crt
                    key_file: %1$s/client.key
                  static_configs:
                  - targets: ['127.0.0.1:%2$d']
                """.formatted(dir, KAPI.kapi().port()));
        int port = freePort();
        Process prometheus = new ProcessBuilder("/usr/bin/prometheus", "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        HttpClient http = HttpClient.newHttpClient();
        try {
            Kubectl kubectl = KAPI.kubectl();
            // a write the server answers 500 (a webhook it cannot reach, failurePolicy Fail): the burn rate's
            // error term needs a 5xx series, on kube-apiserver as here
            kubectl.runWithInput("""
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingWebhookConfiguration
                    metadata: {name: unreachable}
                    webhooks:
                    - name: unreachable.kapi.test
                      clientConfig: {url: "https://127.0.0.1:1/validate"}
                      rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
                      objectSelector: {matchLabels: {burn: fail}}
                      failurePolicy: Fail
                      timeoutSeconds: 1
                      sideEffects: None
                      admissionReviewVersions: [v1]
                    """, "apply", "-f", "-").assertOk();
            Await.atMost(Duration.ofSeconds(90)).every(Duration.ofMillis(500)).until("the write burn rate", () -> {
                kubectl.run("create", "configmap", "burn-" + System.nanoTime(), "--from-literal=a=b").assertOk();
                kubectl.runWithInput("{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"generateName\": "
                        + "\"failing-\", \"labels\": {\"burn\": \"fail\"}}}", "create", "-f", "-").assertFailed();
                kubectl.run("get", "configmaps").assertOk();
                return !results(http, port, "apiserver_request:burnrate1h{verb=\"write\"} > 0").isEmpty()
                        && !results(http, port, "code_resource:apiserver_request_total:rate5m{verb=\"read\"}").isEmpty();
            });
            for (JsonNode r : results(http, port, "apiserver_request:burnrate1h")) {
                double value = Double.parseDouble(r.path("value").path(1).asText());
                boolean write = r.path("metric").path("verb").asText().equals("write");
                // PromQL's subtractions leave rounding residue: a burn rate of 0 may read -6.8e-16
                double epsilon = 1e-9;
                assertTrue(value >= -epsilon && value <= 1 + epsilon && (!write || value > epsilon),
                        "a burn rate is a ratio, the write one above 0 (500s were answered): " + r + "; scrapes: "
                                + results(http, port, "up{job=\"apiserver\"}") + ", "
                                + results(http, port, "scrape_duration_seconds{job=\"apiserver\"}"));
            }
            assertFalse(results(http, port, "apiserver_request:burnrate5m{verb=\"write\"}").isEmpty(), "5m burn rate");
            assertFalse(results(http, port, "apiserver_request_total{job=\"apiserver\",code=\"500\",verb=\"POST\"}")
                    .isEmpty(), "the 500s");
            List<JsonNode> creates = results(http, port,
                    "apiserver_request_total{job=\"apiserver\",verb=\"POST\",resource=\"configmaps\",code=\"201\"}");
            assertEquals(1, creates.size(), creates.toString());
            assertEquals("v1", creates.getFirst().path("metric").path("version").asText());
            assertFalse(results(http, port, "up{job=\"apiserver\"} == 1").isEmpty(), "the target is up");
        } finally {
            prometheus.destroy();
            if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly();
            }
        }
    }

    /** Whether {@code text} has a sample of {@code family} with every one of {@code labels}. */
    private static boolean series(String text, String family, String... labels) {
        for (String line : text.split("\n")) {
            if (line.startsWith(family + "{") && List.of(labels).stream().allMatch(line::contains)) {
                return true;
            }
        }
        return false;
    }

    /** The instant vector {@code query} evaluates to in Prometheus now. */
    private static List<JsonNode> results(HttpClient http, int port, String query) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            return List.of();
        }
        List<JsonNode> out = new ArrayList<>();
        Json.MAPPER.readTree(response.body()).path("data").path("result").forEach(out::add);
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
