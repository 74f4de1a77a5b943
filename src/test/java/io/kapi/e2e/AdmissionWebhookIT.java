package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.fixtures.Await;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Mutating and validating admission webhooks with kubectl, against a real HTTPS webhook server with a CA
 * of its own: patches on the stored object, denials in kube's words, namespace and object selectors,
 * match conditions, failure policy, timeouts, warnings. Configurations are picked up from a watch, so each
 * test retries its first request until the configuration is seen.
 */
@DisplayName("admission webhooks with kubectl")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class AdmissionWebhookIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    private static final Duration SEEN = Duration.ofSeconds(30);
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static TestWebhookServer webhooks;

    @BeforeAll
    static void startWebhooks() throws Exception {
        webhooks = new TestWebhookServer();
    }

    @AfterAll
    static void stopWebhooks() {
        if (webhooks != null) {
            webhooks.close();
        }
    }

    private static Kubectl kubectl() {
        return KAPI.kubectl();
    }

    /** A webhook configuration of one webhook for CREATE of configmaps labelled {@code webhook=<selector>}. */
    private static String configuration(String kind, String name, String url, String selector, String extra) {
        return "apiVersion: admissionregistration.k8s.io/v1\nkind: " + kind + "\nmetadata:\n  name: " + name + "\n"
                + "webhooks:\n- name: " + name + "\n  clientConfig:\n    url: " + url + "\n    caBundle: "
                + webhooks.caBundle() + "\n  rules:\n  - apiGroups: [\"\"]\n    apiVersions: [\"v1\"]\n"
                + "    operations: [\"CREATE\"]\n    resources: [\"configmaps\"]\n  objectSelector:\n    matchLabels:\n"
                + "      webhook: " + selector + "\n  sideEffects: None\n  admissionReviewVersions: [\"v1\"]\n" + extra;
    }

    private static String configMap(String name, String namespace, String selector) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  namespace: " + namespace
                + "\n  labels:\n    webhook: " + selector + "\ndata:\n  k: v\n";
    }

    /** Creates fresh configmaps until {@code done} holds for the result (the configuration is seen). */
    private static Kubectl.Result untilSeen(String prefix, String namespace, String selector,
                                            Function<Kubectl.Result, Boolean> done) {
        return Await.atMost(SEEN).every(Duration.ofMillis(200)).poll(() -> kubectl().runWithInput(
                configMap(prefix + NAMES.incrementAndGet(), namespace, selector), "create", "-f", "-"), done::apply);
    }

    @Test
    @DisplayName("a mutating webhook's JSONPatch shows on the stored object")
    void mutatingPatch() throws Exception {
        kubectl().runWithInput(configuration("MutatingWebhookConfiguration", "label.kapi.test", webhooks.url("/label"),
                "label", ""), "apply", "-f", "-").assertOk();
        Kubectl.Result r = untilSeen("m-", "default", "label", x -> x.exitCode() == 0
                && kubectl().run("get", "configmap", x.stdout().strip().replaceFirst("^configmap/(\\S+).*", "$1"),
                        "-o", "jsonpath={.metadata.labels.mutated}").stdout().equals("yes"));
        r.assertOk();
        String name = r.stdout().strip().replaceFirst("^configmap/(\\S+).*", "$1");
        assertEquals("yes", kubectl().run("get", "configmap", name, "-o", "jsonpath={.metadata.labels.mutated}")
                .assertOk().stdout(), r.toString());
        var review = webhooks.received("/label").getLast();
        assertEquals("admission.k8s.io/v1", review.path("apiVersion").asText());
        assertEquals("CREATE", review.path("request").path("operation").asText());
        assertEquals("configmaps", review.path("request").path("resource").path("resource").asText());
        assertFalse(review.path("request").path("userInfo").path("username").asText().isEmpty(), review.toString());
    }

    @Test
    @DisplayName("a validating webhook's denial reads admission webhook \"...\" denied the request, in the namespaces it selects")
    void validatingDenial() throws Exception {
        kubectl().run("create", "namespace", "guarded").assertOk();
        kubectl().run("label", "namespace", "guarded", "webhook=deny").assertOk();
        kubectl().runWithInput(configuration("ValidatingWebhookConfiguration", "deny.kapi.test", webhooks.url("/deny"),
                "deny", "  namespaceSelector:\n    matchLabels:\n      webhook: deny\n"), "apply", "-f", "-").assertOk();
        Kubectl.Result r = untilSeen("d-", "guarded", "deny", x -> x.exitCode() != 0);
        String name = "d-" + NAMES.get();
        assertEquals("Error from server: error when creating \"STDIN\": admission webhook \"deny.kapi.test\" "
                + "denied the request: objects named " + name + " are not welcome", r.stderr().strip(), r.toString());
        assertTrue(kubectl().run("get", "configmap", name, "-n", "guarded").exitCode() != 0, "nothing stored");
        kubectl().runWithInput(configMap("d-elsewhere", "default", "deny"), "create", "-f", "-").assertOk();
    }

    @Test
    @DisplayName("a webhook referenced by Service is called at its endpoint, trusted for <name>.<namespace>.svc")
    void service() throws Exception {
        kubectl().runWithInput("apiVersion: v1\nkind: Service\nmetadata:\n  name: webhook\nspec:\n  ports:\n"
                + "  - name: https\n    port: 443\n    targetPort: " + webhooks.port() + "\n---\napiVersion: v1\nkind: "
                + "Endpoints\nmetadata:\n  name: webhook\nsubsets:\n- addresses:\n  - ip: 127.0.0.1\n  ports:\n"
                + "  - name: https\n    port: " + webhooks.port() + "\n", "apply", "-f", "-").assertOk();
        String config = configuration("ValidatingWebhookConfiguration", "svc.kapi.test", "x", "svc", "")
                .replace("    url: x\n", "    service:\n      namespace: default\n      name: webhook\n"
                        + "      path: /deny\n");
        kubectl().runWithInput(config, "apply", "-f", "-").assertOk();
        Kubectl.Result r = untilSeen("svc-", "default", "svc", x -> x.exitCode() != 0);
        assertTrue(r.stderr().contains("admission webhook \"svc.kapi.test\" denied the request: objects named svc-"
                + NAMES.get() + " are not welcome"), r.toString());
    }

    @Test
    @DisplayName("matchConditions decide which requests the webhook sees")
    void matchConditions() throws Exception {
        kubectl().runWithInput(configuration("ValidatingWebhookConfiguration", "cond.kapi.test", webhooks.url("/deny"),
                "cond", "  matchConditions:\n  - name: bad-only\n    expression: \"object.metadata.name.startsWith('bad-')\"\n"),
                "apply", "-f", "-").assertOk();
        Kubectl.Result r = untilSeen("bad-", "default", "cond", x -> x.exitCode() != 0);
        assertTrue(r.stderr().contains("admission webhook \"cond.kapi.test\" denied the request"), r.toString());
        kubectl().runWithInput(configMap("good-1", "default", "cond"), "create", "-f", "-").assertOk();
    }

    @Test
    @DisplayName("an unreachable webhook fails closed with failurePolicy Fail and open with Ignore")
    void failurePolicy() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        String url = "https://127.0.0.1:" + closed + "/nothing";
        kubectl().runWithInput(configuration("ValidatingWebhookConfiguration", "closed.kapi.test", url, "closed",
                "  failurePolicy: Fail\n"), "apply", "-f", "-").assertOk();
        kubectl().runWithInput(configuration("ValidatingWebhookConfiguration", "open.kapi.test", url, "open",
                "  failurePolicy: Ignore\n"), "apply", "-f", "-").assertOk();
        Kubectl.Result r = untilSeen("fc-", "default", "closed", x -> x.exitCode() != 0);
        assertTrue(r.stderr().contains("Internal error occurred: failed calling webhook \"closed.kapi.test\": "
                + "failed to call webhook: Post \"" + url + "?timeout=10s\": dial tcp 127.0.0.1:" + closed
                + ": connect: connection refused"), r.toString());
        kubectl().runWithInput(configMap("fo-1", "default", "open"), "create", "-f", "-").assertOk();
    }

    @Test
    @DisplayName("a webhook slower than its timeoutSeconds fails the request with a deadline error")
    void timeout() throws Exception {
        kubectl().runWithInput(configuration("ValidatingWebhookConfiguration", "slow.kapi.test", webhooks.url("/slow"),
                "slow", "  timeoutSeconds: 1\n"), "apply", "-f", "-").assertOk();
        Instant start = Instant.now();
        Kubectl.Result r = untilSeen("s-", "default", "slow", x -> x.exitCode() != 0);
        assertTrue(r.stderr().contains("failed calling webhook \"slow.kapi.test\"")
                && r.stderr().contains("context deadline exceeded"), r.toString());
        assertFalse(webhooks.received("/slow").isEmpty());
        assertTrue(Duration.between(start, Instant.now()).compareTo(SEEN) < 0);
    }

    @Test
    @DisplayName("a mutating webhook on every resource whose backend hangs fails writes at its timeout, and can be deleted")
    void hangingWebhookOnEverything() throws Exception {
        String config = "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata:\n"
                + "  name: hang.kapi.test\nwebhooks:\n- name: hang.kapi.test\n  clientConfig:\n    url: "
                + webhooks.url("/trickle") + "\n    caBundle: " + webhooks.caBundle() + "\n  rules:\n"
                + "  - apiGroups: [\"*\"]\n    apiVersions: [\"*\"]\n    operations: [\"*\"]\n    resources: [\"*/*\"]\n"
                + "  namespaceSelector:\n    matchLabels:\n      kubernetes.io/metadata.name: default\n"
                + "  failurePolicy: Fail\n  timeoutSeconds: 2\n  sideEffects: None\n  admissionReviewVersions: [\"v1\"]\n";
        try {
            kubectl().runWithInput(config, "apply", "-f", "-").assertOk();
            Kubectl.Result r = untilSeen("h-", "default", "hang", x -> x.exitCode() != 0);
            assertTrue(r.stderr().contains("failed calling webhook \"hang.kapi.test\": failed to call webhook: unexpected "
                    + "error when reading response body. Please retry. Original error: context deadline exceeded"),
                    r.toString());
            kubectl().run("delete", "mutatingwebhookconfiguration", "hang.kapi.test").assertOk(); // never sent to it
        } finally {
            kubectl().run("delete", "mutatingwebhookconfiguration", "hang.kapi.test", "--ignore-not-found");
        }
    }

    @Test
    @DisplayName("a webhook's warnings reach kubectl")
    void warnings() throws Exception {
        kubectl().runWithInput(configuration("ValidatingWebhookConfiguration", "warn.kapi.test", webhooks.url("/warn"),
                "warn", ""), "apply", "-f", "-").assertOk();
        Kubectl.Result r = untilSeen("w-", "default", "warn", x -> x.stderr().contains("Warning:"));
        r.assertOk();
        assertEquals("Warning: the webhook looked at w-" + NAMES.get(), r.stderr().strip(), r.toString());
    }
}
