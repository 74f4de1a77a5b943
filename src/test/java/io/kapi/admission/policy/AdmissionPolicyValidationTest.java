package io.kapi.admission.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Admission policies and bindings are validated on write: required fields, CEL that compiles. */
class AdmissionPolicyValidationTest {

    private static final String POLICIES = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies";
    private static final String BINDINGS = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings";

    @InMemoryApi
    private static ApiHarness api;

    private static String policy(String name, String expression) {
        return "{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"matchConstraints\":{\"resourceRules\":[{"
                + "\"apiGroups\":[\"apps\"],\"apiVersions\":[\"v1\"],\"operations\":[\"CREATE\"],\"resources\":"
                + "[\"deployments\"]}]},\"validations\":[{\"expression\":\"" + expression + "\"}]}}";
    }

    @Test
    @DisplayName("an expression that does not compile is Invalid: compilation failed")
    void compileError() {
        ApiHarness.Reply r = api.post(POLICIES, policy("bad", "object.spec.replicas <="));
        assertEquals(422, r.code(), r.text());
        String message = r.body().path("message").asText();
        assertTrue(message.startsWith("ValidatingAdmissionPolicy.admissionregistration.k8s.io \"bad\" is invalid: "
                + "spec.validations[0].expression: Invalid value: \"object.spec.replicas <=\": compilation failed: "),
                message);
        assertEquals(201, api.post(POLICIES, policy("good", "object.spec.replicas <= 5")).code());
    }

    @Test
    @DisplayName("a policy needs matchConstraints and validations; a binding its policy and an action")
    void required() {
        ApiHarness.Reply r = api.post(POLICIES, "{\"metadata\":{\"name\":\"empty\"},\"spec\":{}}");
        assertEquals(422, r.code(), r.text());
        assertEquals("ValidatingAdmissionPolicy.admissionregistration.k8s.io \"empty\" is invalid: "
                + "[spec.matchConstraints: Required value, spec.validations: Required value: validations or "
                + "auditAnnotations must contain at least one item]", r.body().path("message").asText());
        ApiHarness.Reply b = api.post(BINDINGS, "{\"metadata\":{\"name\":\"b\"},\"spec\":{}}");
        assertEquals(422, b.code(), b.text());
        assertEquals("ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io \"b\" is invalid: "
                + "[spec.policyName: Required value, spec.validationActions: Required value: at least one validation "
                + "action is required]", b.body().path("message").asText());
    }
}
