package io.kapi.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.assembly.ApiConfig;
import io.kapi.harness.ApiHarness;
import io.kapi.machinery.features.FeatureGates;
import io.kapi.machinery.resource.ApiEnablement;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Admission configured through the API cannot lock the cluster: webhooks are never called for webhook
 * configurations, admission policies or their bindings, and policies never run for policies or bindings,
 * so a configuration that refuses everything can always be removed (kube's
 * {@code IsExemptAdmissionConfigurationResource} and the policy plugins' excluded resources).
 */
class ConfigurationExemptionTest {

    private static final String REG = "/apis/admissionregistration.k8s.io/v1";
    private static final String REG_BETA = "/apis/admissionregistration.k8s.io/v1beta1";
    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
    private static final String EVERYTHING = "{\"apiGroups\":[\"*\"],\"apiVersions\":[\"*\"],\"operations\":[\"*\"],"
            + "\"resources\":[\"*/*\"]}";

    private ApiHarness api;

    @BeforeEach
    void start() {
        api = new ApiHarness(ApiConfig.builder().dataDir(Path.of("target/unused")).features(new ApiConfig.Features(
                FeatureGates.parse(List.of("MutatingAdmissionPolicy=true")),
                ApiEnablement.parse(List.of("admissionregistration.k8s.io/v1beta1=true")))).build());
    }

    @AfterEach
    void stop() throws Exception {
        api.close();
    }

    /** A port nothing listens on: a webhook there fails at once (connection refused). */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String webhookConfiguration(String kind, String name, int port) {
        return "{\"apiVersion\":\"admissionregistration.k8s.io/v1\",\"kind\":\"" + kind + "\",\"metadata\":{\"name\":\""
                + name + "\"},\"webhooks\":[{\"name\":\"" + name + ".kapi.test\",\"clientConfig\":{\"url\":"
                + "\"https://127.0.0.1:" + port + "/hook\"},\"rules\":[" + EVERYTHING + "],\"failurePolicy\":\"Fail\","
                + "\"sideEffects\":\"None\",\"admissionReviewVersions\":[\"v1\"]}]}";
    }

    private static String configMap(String name) {
        return "{\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"a\":\"b\"}}";
    }

    private static String validatingPolicy(String name, String expression) {
        return "{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"failurePolicy\":\"Fail\",\"matchConstraints\":"
                + "{\"resourceRules\":[" + EVERYTHING.replace("*/*", "*") + "]},\"validations\":[{\"expression\":\""
                + expression + "\"}]}}";
    }

    private static String binding(String apiVersion, String kind, String name, String policy, String actions) {
        return "{\"apiVersion\":\"admissionregistration.k8s.io/" + apiVersion + "\",\"kind\":\"" + kind + "\","
                + "\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"policyName\":\"" + policy + "\"" + actions + "}}";
    }

    private static String mutatingPolicy(String name) {
        return "{\"apiVersion\":\"admissionregistration.k8s.io/v1beta1\",\"kind\":\"MutatingAdmissionPolicy\","
                + "\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"reinvocationPolicy\":\"Never\","
                + "\"failurePolicy\":\"Fail\",\"matchConstraints\":{\"resourceRules\":[{\"apiGroups\":[\"*\"],"
                + "\"apiVersions\":[\"*\"],\"operations\":[\"CREATE\"],\"resources\":[\"*\"]}]},\"mutations\":[{"
                + "\"patchType\":\"ApplyConfiguration\",\"applyConfiguration\":{\"expression\":"
                + "\"Object{metadata: Object.metadata{labels: {'mutated': 'yes'}}}\"}}]}}";
    }

    /** Repeats {@code call} until its reply satisfies {@code done} (the plugins see a new configuration soon). */
    private static ApiHarness.Reply until(Supplier<ApiHarness.Reply> call, Predicate<ApiHarness.Reply> done)
            throws InterruptedException {
        Instant end = Instant.now().plus(Duration.ofSeconds(20));
        while (true) {
            ApiHarness.Reply r = call.get();
            if (done.test(r) || Instant.now().isAfter(end)) {
                return r;
            }
            Thread.sleep(50);
        }
    }

    private void assertCode(int code, ApiHarness.Reply r) {
        assertEquals(code, r.code(), r.text());
    }

    @Test
    @DisplayName("webhooks that fail closed on every resource refuse other writes, never those of admission configuration")
    void webhooksSkipAdmissionConfiguration() throws Exception {
        int port = closedPort();
        assertCode(201, api.post(REG + "/mutatingwebhookconfigurations",
                webhookConfiguration("MutatingWebhookConfiguration", "lock", port)));
        assertCode(201, api.post(REG + "/validatingwebhookconfigurations",
                webhookConfiguration("ValidatingWebhookConfiguration", "lock", port)));
        int[] n = {0};
        ApiHarness.Reply refused = until(() -> api.post(CONFIGMAPS, configMap("cm-" + n[0]++)), r -> r.code() == 500);
        assertCode(500, refused);
        assertEquals("Internal error occurred: failed calling webhook \"lock.kapi.test\": failed to call webhook: Post "
                + "\"https://127.0.0.1:" + port + "/hook?timeout=10s\": dial tcp 127.0.0.1:" + port
                + ": connect: connection refused", refused.body().path("message").asText(), refused.text());

        assertCode(201, api.post(REG + "/validatingadmissionpolicies", validatingPolicy("allow", "true")));
        assertCode(201, api.post(REG + "/validatingadmissionpolicybindings", binding("v1",
                "ValidatingAdmissionPolicyBinding", "allow", "allow", ",\"validationActions\":[\"Deny\"]")));
        assertCode(201, api.post(REG_BETA + "/mutatingadmissionpolicies", mutatingPolicy("label")));
        assertCode(201, api.post(REG_BETA + "/mutatingadmissionpolicybindings",
                binding("v1beta1", "MutatingAdmissionPolicyBinding", "label", "label", "")));
        assertCode(200, api.patch(REG + "/mutatingwebhookconfigurations/lock", "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"seen\":\"yes\"}}}"));
        for (String path : List.of(REG + "/validatingadmissionpolicybindings/allow",
                REG + "/validatingadmissionpolicies/allow", REG_BETA + "/mutatingadmissionpolicybindings/label",
                REG_BETA + "/mutatingadmissionpolicies/label", REG + "/validatingwebhookconfigurations/lock",
                REG + "/mutatingwebhookconfigurations/lock")) {
            assertCode(200, api.delete(path));
        }
        assertCode(201, until(() -> api.post(CONFIGMAPS, configMap("cm-" + n[0]++)), r -> r.code() == 201));
    }

    @Test
    @DisplayName("a policy that denies everything leaves policies and bindings free, and still checks webhook configurations")
    void validatingPoliciesSkipPolicies() throws Exception {
        assertCode(201, api.post(REG + "/validatingadmissionpolicies", validatingPolicy("deny-all", "false")));
        assertCode(201, api.post(REG + "/validatingadmissionpolicybindings", binding("v1",
                "ValidatingAdmissionPolicyBinding", "deny-all", "deny-all", ",\"validationActions\":[\"Deny\"]")));
        int[] n = {0};
        ApiHarness.Reply refused = until(() -> api.post(CONFIGMAPS, configMap("cm-" + n[0]++)), r -> r.code() == 422);
        assertCode(422, refused);
        assertTrue(refused.body().path("message").asText().contains("ValidatingAdmissionPolicy 'deny-all' with binding "
                + "'deny-all' denied request"), refused.text());
        assertCode(422, api.post(REG + "/validatingwebhookconfigurations",
                webhookConfiguration("ValidatingWebhookConfiguration", "checked", closedPort())));

        assertCode(201, api.post(REG + "/validatingadmissionpolicies", validatingPolicy("other", "true")));
        assertCode(200, api.patch(REG + "/validatingadmissionpolicies/deny-all", "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"seen\":\"yes\"}}}"));
        assertCode(200, api.delete(REG + "/validatingadmissionpolicies/other"));
        assertCode(200, api.delete(REG + "/validatingadmissionpolicybindings/deny-all"));
        assertCode(200, api.delete(REG + "/validatingadmissionpolicies/deny-all"));
        assertCode(201, until(() -> api.post(CONFIGMAPS, configMap("cm-" + n[0]++)), r -> r.code() == 201));
    }

    @Test
    @DisplayName("a mutating policy on every resource changes other objects, never policies or bindings")
    void mutatingPoliciesSkipPolicies() throws Exception {
        assertCode(201, api.post(REG_BETA + "/mutatingadmissionpolicies", mutatingPolicy("label")));
        assertCode(201, api.post(REG_BETA + "/mutatingadmissionpolicybindings",
                binding("v1beta1", "MutatingAdmissionPolicyBinding", "label", "label", "")));
        int[] n = {0};
        ApiHarness.Reply labelled = until(() -> api.post(CONFIGMAPS, configMap("cm-" + n[0]++)),
                r -> r.body().at("/metadata/labels/mutated").asText().equals("yes"));
        assertEquals("yes", labelled.body().at("/metadata/labels/mutated").asText(), labelled.text());

        ApiHarness.Reply policy = api.post(REG + "/validatingadmissionpolicies", validatingPolicy("plain", "true"));
        assertCode(201, policy);
        assertTrue(policy.body().at("/metadata/labels").isMissingNode(), policy.text());
        ApiHarness.Reply binding = api.post(REG_BETA + "/mutatingadmissionpolicybindings",
                binding("v1beta1", "MutatingAdmissionPolicyBinding", "plain", "label", ""));
        assertCode(201, binding);
        assertTrue(binding.body().at("/metadata/labels").isMissingNode(), binding.text());
        ApiHarness.Reply webhooks = api.post(REG + "/validatingwebhookconfigurations",
                webhookConfiguration("ValidatingWebhookConfiguration", "labelled", closedPort()));
        assertCode(201, webhooks);
        assertEquals("yes", webhooks.body().at("/metadata/labels/mutated").asText(), webhooks.text());
    }
}
