package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kapi.fixtures.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kube-apiserver's audit with kubectl against a real server: a policy using every rule field and level,
 * the log backend (blocking, rotated at 1 MB) and a webhook backend over HTTPS (batches of 5, never sent
 * by time, so what is left is flushed by SIGTERM), and a second server whose blocking-strict log cannot
 * be written.
 */
@DisplayName("audit with kubectl")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AuditIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DIR = tempDir();
    private static final TestWebhookServer WEBHOOK = webhookServer();
    private static final String POLICY = """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            omitStages: ["Panic"]
            rules:
            - level: None
              users: ["system:kube-proxy"]
            - level: None
              userGroups: ["system:nodes"]
              verbs: ["get", "list", "watch"]
            - level: Metadata
              resources:
              - group: ""
                resources: ["secrets"]
            - level: RequestResponse
              namespaces: ["audited", "mutated"]
              resources:
              - group: ""
                resources: ["configmaps"]
            - level: Request
              verbs: ["create"]
              resources:
              - group: "apps"
                resources: ["deployments", "deployments/*"]
              omitStages: ["RequestReceived"]
            - level: Metadata
              resources:
              - group: ""
                resources: ["configmaps"]
                resourceNames: ["named"]
              omitManagedFields: true
            - level: Metadata
              nonResourceURLs: ["/version", "/healthz*"]
            - level: None
              nonResourceURLs: ["*"]
            - level: Metadata
            """;

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--storage-backend=memory", "--authorization-mode=RBAC",
            "--audit-policy-file=" + write("policy.yaml", POLICY),
            "--audit-log-path=" + DIR.resolve("logs/audit.log"), "--audit-log-maxsize=1", "--audit-log-maxbackup=5",
            "--audit-webhook-config-file=" + write("webhook.kubeconfig", webhookKubeconfig()),
            "--audit-webhook-batch-max-size=5", "--audit-webhook-batch-max-wait=1h");

    @AfterAll
    static void cleanUp() {
        WEBHOOK.close();
        KapiProcess.deleteTree(DIR);
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("audit-it-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static TestWebhookServer webhookServer() {
        try {
            TestWebhookServer server = new TestWebhookServer();
            server.answer("/audit", list -> JSON.createObjectNode());
            return server;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String webhookKubeconfig() {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: audit
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                users:
                - name: kapi
                  user: {}
                contexts:
                - name: audit
                  context: {cluster: audit, user: kapi}
                current-context: audit
                """.formatted(WEBHOOK.url("/audit"), WEBHOOK.caBundle());
    }

    private static Path write(String name, String text) {
        try {
            return Files.writeString(DIR.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every event of the log and its rotated backups. */
    private static List<JsonNode> events() {
        List<JsonNode> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(DIR.resolve("logs"))) {
            for (Path f : files.sorted().toList()) {
                for (String line : Files.readAllLines(f)) {
                    out.add(JSON.readTree(line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static List<JsonNode> events(Predicate<JsonNode> which) {
        return events().stream().filter(which).toList();
    }

    private static List<String> stages(List<JsonNode> events) {
        return events.stream().map(e -> e.path("stage").asText()).toList();
    }

    private static Predicate<JsonNode> object(String verb, String namespace, String resource) {
        return e -> e.path("verb").asText().equals(verb) && e.path("objectRef").path("namespace").asText().equals(namespace)
                && e.path("objectRef").path("resource").asText().equals(resource);
    }

    @Test
    @Order(1)
    @DisplayName("a create at RequestResponse logs both objects, with the uid and resourceVersion kube fills")
    void requestResponse() {
        Kubectl kubectl = KAPI.kubectl();
        kubectl.run("create", "namespace", "audited").assertOk();
        kubectl.run("create", "configmap", "c1", "-n", "audited", "--from-literal=k=v").assertOk();
        // kubectl's create; the root CA publisher's kube-root-ca.crt in the new namespace is audited too, as on kube
        List<JsonNode> events = events(object("create", "audited", "configmaps")
                .and(e -> !e.path("user").path("username").asText().startsWith("system:serviceaccount:")));
        assertEquals(List.of("RequestReceived", "ResponseComplete"), stages(events), events.toString());
        JsonNode done = events.getLast();
        assertEquals("RequestResponse", done.path("level").asText());
        assertEquals("c1", done.path("objectRef").path("name").asText());
        assertEquals("v", done.path("requestObject").path("data").path("k").asText());
        assertEquals(201, done.path("responseStatus").path("code").asInt());
        assertFalse(done.path("responseObject").path("metadata").path("uid").asText().isEmpty(), done.toString());
        assertTrue(done.path("userAgent").asText().startsWith("kubectl"), done.toString());
        assertEquals("127.0.0.1", done.path("sourceIPs").path(0).asText());
        assertEquals("allow", done.path("annotations").path("authorization.k8s.io/decision").asText());
        assertTrue(done.path("stageTimestamp").asText().matches(".*\\.\\d{6}Z"), done.toString());
        assertEquals(done.path("auditID").asText(), events.getFirst().path("auditID").asText());
    }

    @Test
    @Order(2)
    @DisplayName("kubectl get secrets at Metadata logs no secret data; a deployment at Request keeps only the request")
    void metadataAndRequest() {
        Kubectl kubectl = KAPI.kubectl();
        kubectl.run("create", "secret", "generic", "s1", "-n", "default", "--from-literal=password=hunter2").assertOk();
        kubectl.run("get", "secrets", "-n", "default", "-o", "yaml").assertOk();
        List<JsonNode> secrets = events(e -> e.path("objectRef").path("resource").asText().equals("secrets"));
        assertTrue(secrets.size() >= 4, secrets.toString());
        assertTrue(secrets.stream().allMatch(e -> e.path("level").asText().equals("Metadata")));
        String all = secrets.toString();
        assertFalse(all.contains("hunter2") || all.contains("aHVudGVyMg"), all);
        kubectl.run("create", "deployment", "web", "-n", "default", "--image=nginx").assertOk();
        List<JsonNode> deployments = events(object("create", "default", "deployments"));
        assertEquals(List.of("ResponseComplete"), stages(deployments), deployments.toString());
        assertEquals("web", deployments.getFirst().path("requestObject").path("metadata").path("name").asText());
        assertFalse(deployments.getFirst().has("responseObject"));
        kubectl.run("get", "--raw", "/version").assertOk();
        kubectl.run("get", "--raw", "/readyz").assertOk();
        assertEquals(2, events(e -> e.path("requestURI").asText().equals("/version")).size());
        assertEquals(0, events(e -> e.path("requestURI").asText().equals("/readyz")).size());
    }

    @Test
    @Order(3)
    @DisplayName("a watch logs RequestReceived, ResponseStarted when it starts streaming and ResponseComplete when it ends")
    void watch() {
        KAPI.kubectl().run("get", "--raw", "/api/v1/namespaces/watched/configmaps?watch=1&timeoutSeconds=1").assertOk();
        List<JsonNode> events = events(object("watch", "watched", "configmaps"));
        assertEquals(List.of("RequestReceived", "ResponseStarted", "ResponseComplete"), stages(events), events.toString());
        assertEquals(200, events.get(1).path("responseStatus").path("code").asInt());
    }

    @Test
    @Order(3)
    @DisplayName("the in-process controllers' requests are audited, as kube audits kube-controller-manager's")
    void inProcessControllers() {
        KAPI.kubectl().run("create", "namespace", "loopback-audit").assertOk();
        Predicate<JsonNode> created = object("create", "loopback-audit", "serviceaccounts")
                .and(e -> e.path("stage").asText().equals("ResponseComplete"));
        Await.atMost(Duration.ofSeconds(20)).every(Duration.ofMillis(200)).until("the default ServiceAccount's create",
                () -> !events(created).isEmpty());
        JsonNode event = events(created).getFirst();
        assertEquals("default", event.path("objectRef").path("name").asText(), event.toString());
        assertEquals("system:serviceaccount:kube-system:service-account-controller",
                event.path("user").path("username").asText(), event.toString());
        assertEquals(201, event.path("responseStatus").path("code").asInt(), event.toString());
    }

    @Test
    @Order(4)
    @DisplayName("an impersonated request RBAC denies logs both users, the 403 and the authorizer's decision")
    void impersonatedAndDenied() {
        KAPI.kubectl().run("get", "pods", "-n", "denied", "--as=bob", "--as-group=team").assertFailed();
        List<JsonNode> events = events(object("list", "denied", "pods"));
        JsonNode done = events.getLast();
        assertEquals("ResponseComplete", done.path("stage").asText(), events.toString());
        assertEquals("bob", done.path("impersonatedUser").path("username").asText());
        assertEquals("[\"team\",\"system:authenticated\"]", done.path("impersonatedUser").path("groups").toString());
        assertFalse(done.path("user").path("username").asText().equals("bob"));
        assertEquals(403, done.path("responseStatus").path("code").asInt());
        assertEquals("Forbidden", done.path("responseStatus").path("reason").asText());
        assertEquals("forbid", done.path("annotations").path("authorization.k8s.io/decision").asText());
        assertTrue(done.path("annotations").has("authorization.k8s.io/reason"), done.toString());
    }

    @Test
    @Order(5)
    @DisplayName("a mutating webhook's mutation and patch are annotated on the create")
    void mutatingWebhook() {
        Kubectl kubectl = KAPI.kubectl();
        kubectl.run("create", "namespace", "mutated").assertOk();
        kubectl.runWithInput("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingWebhookConfiguration
                metadata: {name: label.kapi.test}
                webhooks:
                - name: label.kapi.test
                  clientConfig: {url: "%s", caBundle: %s}
                  rules: [{apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"]}]
                  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: mutated}}
                  sideEffects: None
                  admissionReviewVersions: ["v1"]
                """.formatted(WEBHOOK.url("/label"), WEBHOOK.caBundle()), "apply", "-f", "-").assertOk();
        int[] n = {0};
        Await.atMost(Duration.ofSeconds(20)).every(Duration.ofMillis(200)).until("the webhook is called", () ->
                kubectl.run("create", "configmap", "m" + ++n[0], "-n", "mutated", "-o", "jsonpath={.metadata.labels.mutated}")
                        .stdout().equals("yes"));
        JsonNode done = events(object("create", "mutated", "configmaps")).getLast();
        JsonNode annotations = done.path("annotations");
        assertEquals("{\"configuration\":\"label.kapi.test\",\"webhook\":\"label.kapi.test\",\"mutated\":true}",
                annotations.path("mutation.webhook.admission.k8s.io/round_0_index_0").asText(), done.toString());
        assertTrue(annotations.path("patch.webhook.admission.k8s.io/round_0_index_0").asText().contains("\"patchType\":\"JSONPatch\""),
                done.toString());
    }

    @Test
    @Order(6)
    @DisplayName("past --audit-log-maxsize the log is rotated beside itself, 0600")
    void rotation() throws IOException {
        Path big = write("big.txt", "x".repeat(700 * 1024));
        Kubectl kubectl = KAPI.kubectl();
        kubectl.run("create", "configmap", "big1", "-n", "audited", "--from-file=big=" + big).assertOk();
        kubectl.run("create", "configmap", "big2", "-n", "audited", "--from-file=big=" + big).assertOk();
        try (Stream<Path> files = Files.list(DIR.resolve("logs"))) {
            List<Path> all = files.toList();
            Set<String> names = all.stream().map(p -> p.getFileName().toString()).collect(Collectors.toSet());
            assertTrue(names.stream().anyMatch(f -> f.matches("audit-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d\\.\\d{3}\\.log")),
                    names.toString());
            for (Path p : all) {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)), p.toString());
            }
        }
        assertEquals(2, events(e -> e.path("objectRef").path("name").asText().startsWith("big")
                && e.path("stage").asText().equals("ResponseComplete")).size());
    }

    @Test
    @Order(7)
    @DisplayName("/metrics counts events, requests by level and the webhook's sends, under kube's names")
    void metrics() {
        String text = KAPI.kubectl().run("get", "--raw", "/metrics").assertOk().stdout();
        java.util.regex.Matcher events = java.util.regex.Pattern.compile("(?m)^apiserver_audit_event_total (\\S+)$")
                .matcher(text);
        assertTrue(events.find(), text);
        assertTrue(Double.parseDouble(events.group(1)) >= events(e -> true).size(), events.group(1));
        assertTrue(text.contains("# HELP apiserver_audit_level_total [ALPHA] Counter of policy levels for audit events (1 per request)."),
                text);
        assertTrue(text.contains("apiserver_audit_level_total{level=\"RequestResponse\"}"), text);
        assertTrue(text.contains("apiserver_audit_level_total{level=\"None\"}"), text);
        assertTrue(text.contains("# TYPE apiserver_audit_requests_rejected_total counter"), text);
        // apiserver_audit_error_total{plugin} has no series until an error, as on kube-apiserver
    }

    @Test
    @Order(8)
    @DisplayName("the webhook gets every event in EventLists of at most 5; SIGTERM flushes what was buffered")
    void webhookBatchesFlushedOnSigterm() {
        assertEquals(0, KAPI.kapi().terminate(Duration.ofSeconds(30)));
        List<JsonNode> batches = WEBHOOK.received("/audit");
        assertFalse(batches.isEmpty());
        Set<String> received = new java.util.HashSet<>();
        for (JsonNode list : batches) {
            assertEquals("EventList", list.path("kind").asText());
            assertEquals("audit.k8s.io/v1", list.path("apiVersion").asText());
            assertTrue(list.path("items").size() <= 5, list.toString());
            list.path("items").forEach(e -> received.add(e.path("auditID").asText() + "/" + e.path("stage").asText()));
        }
        Set<String> logged = events().stream().map(e -> e.path("auditID").asText() + "/" + e.path("stage").asText())
                .collect(Collectors.toSet());
        assertEquals(logged, received);
    }

    @Test
    @Order(9)
    @DisplayName("blocking-strict refuses requests whose RequestReceived cannot be written (500), kube's words")
    void blockingStrict() {
        Path policy = write("strict.yaml", """
                apiVersion: audit.k8s.io/v1
                kind: Policy
                rules:
                - level: None
                  users: ["system:apiserver"]
                - level: None
                  userGroups: ["system:serviceaccounts"]
                - level: Metadata
                  resources: [{group: "", resources: ["configmaps"]}]
                """);
        try (KapiProcess strict = new KapiProcess("audit-strict", List.of("--storage-backend=memory",
                "--audit-policy-file=" + policy, "--audit-log-path=/dev/full", "--audit-log-mode=blocking-strict")).start()) {
            Kubectl kubectl = new Kubectl(Kubectl.DEFAULT, strict.kubeconfigPath(), DIR.resolve("strict-cache"));
            Kubectl.Result r = kubectl.run("get", "configmaps", "-n", "default").assertFailed();
            assertTrue(r.stderr().contains("failed to store audit event"), r.toString());
            kubectl.run("get", "namespaces").assertOk();
            String metrics = kubectl.run("get", "--raw", "/metrics").assertOk().stdout();
            assertTrue(metrics.matches("(?s).*\napiserver_audit_requests_rejected_total [1-9].*"), metrics);
            assertTrue(metrics.matches("(?s).*\napiserver_audit_error_total\\{plugin=\"log\"} [1-9].*"), metrics);
        }
    }
}
