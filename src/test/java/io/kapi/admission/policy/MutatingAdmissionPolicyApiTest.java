package io.kapi.admission.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.fixtures.Await;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * MutatingAdmissionPolicies through the whole API in memory: served (discovery, OpenAPI) only when
 * --runtime-config enables admissionregistration.k8s.io/v1beta1, validated on write, and applied to
 * creates when the feature gate is on.
 */
class MutatingAdmissionPolicyApiTest {

    private static final String V1BETA1 = "/apis/admissionregistration.k8s.io/v1beta1";

    @InMemoryApi(featureGates = "MutatingAdmissionPolicy=true", runtimeConfig = "admissionregistration.k8s.io/v1beta1=true")
    private static ApiHarness on;

    @InMemoryApi
    private static ApiHarness off;

    private static String policy(String name, String mutations) {
        return "{\"apiVersion\":\"admissionregistration.k8s.io/v1beta1\",\"kind\":\"MutatingAdmissionPolicy\","
                + "\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"reinvocationPolicy\":\"Never\","
                + "\"matchConstraints\":{\"resourceRules\":[{\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],"
                + "\"operations\":[\"CREATE\"],\"resources\":[\"configmaps\"]}]},\"mutations\":" + mutations + "}}";
    }

    @Test
    @DisplayName("the v1beta1 group-version and its resources are served only when enabled")
    void served() {
        ApiHarness.Reply discovery = on.get(V1BETA1);
        assertEquals(200, discovery.code(), discovery.text());
        assertTrue(discovery.text().contains("\"mutatingadmissionpolicies\""), discovery.text());
        assertTrue(discovery.text().contains("\"mutatingadmissionpolicybindings\""), discovery.text());
        assertTrue(on.get("/apis/admissionregistration.k8s.io").text().contains("v1beta1"));
        assertEquals(200, on.get("/openapi/v3/apis/admissionregistration.k8s.io/v1beta1").code());
        assertEquals(404, off.get(V1BETA1).code());
        assertEquals(404, off.get(V1BETA1 + "/mutatingadmissionpolicies").code());
        assertFalse(off.get("/apis/admissionregistration.k8s.io").text().contains("v1beta1"));
        assertEquals(404, on.get("/apis/admissionregistration.k8s.io/v1alpha1").code());
    }

    @Test
    @DisplayName("a policy without mutations, with an unknown patch type or an expression that does not compile is Invalid")
    void validation() {
        ApiHarness.Reply empty = on.post(V1BETA1 + "/mutatingadmissionpolicies",
                "{\"metadata\":{\"name\":\"empty\"},\"spec\":{}}");
        assertEquals(422, empty.code(), empty.text());
        assertEquals("MutatingAdmissionPolicy.admissionregistration.k8s.io \"empty\" is invalid: "
                + "[spec.matchConstraints: Required value, spec.mutations: Required value: mutations must contain at "
                + "least one item, spec.reinvocationPolicy: Required value]", empty.body().path("message").asText());
        ApiHarness.Reply type = on.post(V1BETA1 + "/mutatingadmissionpolicies",
                policy("type", "[{\"patchType\":\"Merge\"}]"));
        assertEquals(422, type.code(), type.text());
        assertTrue(type.body().path("message").asText().endsWith("spec.mutations[0].patchType: Unsupported value: "
                + "\"Merge\": supported values: \"ApplyConfiguration\", \"JSONPatch\""), type.text());
        ApiHarness.Reply bad = on.post(V1BETA1 + "/mutatingadmissionpolicies", policy("bad",
                "[{\"patchType\":\"ApplyConfiguration\",\"applyConfiguration\":{\"expression\":\"Object{\"}}]"));
        assertEquals(422, bad.code(), bad.text());
        assertTrue(bad.body().path("message").asText().contains("spec.mutations[0].applyConfiguration.expression: "
                + "Invalid value: \"Object{\": compilation failed: "), bad.text());
        ApiHarness.Reply wrongType = on.post(V1BETA1 + "/mutatingadmissionpolicies", policy("wrong",
                "[{\"patchType\":\"JSONPatch\",\"jsonPatch\":{\"expression\":\"Object{}\"}}]"));
        assertEquals(422, wrongType.code(), wrongType.text());
        assertTrue(wrongType.body().path("message").asText().contains("must evaluate to list(JSONPatch)"),
                wrongType.text());
        ApiHarness.Reply binding = on.post(V1BETA1 + "/mutatingadmissionpolicybindings",
                "{\"metadata\":{\"name\":\"b\"},\"spec\":{}}");
        assertEquals(422, binding.code(), binding.text());
        assertEquals("MutatingAdmissionPolicyBinding.admissionregistration.k8s.io \"b\" is invalid: "
                + "spec.policyName: Required value", binding.body().path("message").asText());
    }

    @Test
    @DisplayName("a created policy and binding mutate a created configmap; the stored policy has its defaults")
    void mutates() throws Exception {
        ApiHarness.Reply p = on.post(V1BETA1 + "/mutatingadmissionpolicies", policy("label",
                "[{\"patchType\":\"ApplyConfiguration\",\"applyConfiguration\":{\"expression\":"
                        + "\"Object{metadata: Object.metadata{labels: {'mutated': 'yes'}}}\"}}]"));
        assertEquals(201, p.code(), p.text());
        assertEquals("Fail", p.body().at("/spec/failurePolicy").asText());
        assertEquals("Equivalent", p.body().at("/spec/matchConstraints/matchPolicy").asText());
        assertEquals(201, on.post(V1BETA1 + "/mutatingadmissionpolicybindings",
                "{\"metadata\":{\"name\":\"label-binding\"},\"spec\":{\"policyName\":\"label\"}}").code());
        AtomicInteger names = new AtomicInteger();
        String label = Await.atMost(Duration.ofSeconds(10)).every(Duration.ofMillis(100)).poll(() -> {
            ApiHarness.Reply cm = on.post("/api/v1/namespaces/default/configmaps",
                    "{\"metadata\":{\"name\":\"cm-" + names.getAndIncrement() + "\"},\"data\":{\"a\":\"b\"}}");
            assertEquals(201, cm.code(), cm.text());
            return cm.body().at("/metadata/labels/mutated").asText();
        }, mutated -> !mutated.isEmpty());
        assertEquals("yes", label);
    }
}
