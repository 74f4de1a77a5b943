package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ValidatingAdmissionPolicy and its bindings with kubectl: CEL validations with messages and
 * messageExpression, parameters from a ConfigMap, and the Deny, Warn and Audit actions, in kube's words.
 * Each test works in a namespace of its own that its binding selects; policies are picked up from a
 * watch, so the first request is retried until the policy is seen.
 */
@DisplayName("ValidatingAdmissionPolicy with kubectl")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class AdmissionPolicyIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    private static final Duration SEEN = Duration.ofSeconds(30);
    private static final AtomicInteger NAMES = new AtomicInteger();

    private static Kubectl kubectl() {
        return KAPI.kubectl();
    }

    private static void namespace(String name) {
        kubectl().run("create", "namespace", name).assertOk();
        kubectl().run("label", "namespace", name, "vap=" + name).assertOk();
    }

    /** A policy on deployments with one validation ({@code extra} adds to its spec, indented by 2). */
    private static String policy(String name, String validation, String extra) {
        return "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: " + name
                + "\nspec:\n  failurePolicy: Fail\n  matchConstraints:\n    resourceRules:\n    - apiGroups: [\"apps\"]\n"
                + "      apiVersions: [\"v1\"]\n      operations: [\"CREATE\", \"UPDATE\"]\n"
                + "      resources: [\"deployments\"]\n  validations:\n" + validation + extra;
    }

    /** A binding selecting the namespace labelled {@code vap=<namespace>}. */
    private static String binding(String name, String policy, String namespace, String actions, String extra) {
        return "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: "
                + name + "\nspec:\n  policyName: " + policy + "\n  validationActions: [" + actions + "]\n"
                + "  matchResources:\n    namespaceSelector:\n      matchLabels:\n        vap: " + namespace + "\n" + extra;
    }

    /** {@code kubectl create deployment} with fresh names until {@code done} holds (the policy is seen). */
    private static Kubectl.Result untilSeen(String namespace, int replicas, Function<Kubectl.Result, Boolean> done) {
        return Await.atMost(SEEN).every(Duration.ofMillis(200)).poll(() -> kubectl().run("create", "deployment",
                "web-" + NAMES.incrementAndGet(), "--image=nginx", "--replicas=" + replicas, "-n", namespace), done::apply);
    }

    /** The policy's status once the controller has checked generation {@code generation} (or the last read). */
    private static com.fasterxml.jackson.databind.JsonNode statusOf(String policy, long generation) {
        return Await.atMost(SEEN).every(Duration.ofMillis(200)).poll(() -> kubectl().run("get", "validatingadmissionpolicy",
                policy, "-o", "json").assertOk().json().path("status"), s -> s.path("observedGeneration").asLong() >= generation);
    }

    @Test
    @DisplayName("object.spec.replicas <= 5 refuses kubectl create deployment --replicas=9 with kube's wording")
    void denies() throws Exception {
        namespace("vap-deny");
        kubectl().runWithInput(policy("replicas-limit", "  - expression: \"object.spec.replicas <= 5\"\n", ""),
                "apply", "-f", "-").assertOk();
        kubectl().runWithInput(binding("replicas-limit-binding", "replicas-limit", "vap-deny", "Deny", ""),
                "apply", "-f", "-").assertOk();
        Kubectl.Result r = untilSeen("vap-deny", 9, x -> x.exitCode() != 0);
        assertEquals("error: failed to create deployment: deployments.apps \"web-" + NAMES.get() + "\" is forbidden: "
                + "ValidatingAdmissionPolicy 'replicas-limit' with binding 'replicas-limit-binding' denied request: "
                + "failed expression: object.spec.replicas <= 5", r.stderr().strip(), r.toString());
        kubectl().run("create", "deployment", "small", "--image=nginx", "--replicas=3", "-n", "vap-deny").assertOk();
        Kubectl.Result patched = kubectl().run("patch", "deployment", "small", "-n", "vap-deny", "--type=merge",
                "-p", "{\"spec\":{\"replicas\":7}}").assertFailed();
        // kubectl words an Invalid status with a cause that names no field so, for kube-apiserver too
        assertEquals("The deployments \"small\" is invalid: : deployments.apps \"small\" is forbidden: ValidatingAdmissionPolicy "
                + "'replicas-limit' with binding 'replicas-limit-binding' denied request: failed expression: "
                + "object.spec.replicas <= 5", patched.stderr().strip(), patched.toString());
        kubectl().run("create", "deployment", "elsewhere", "--image=nginx", "--replicas=9").assertOk();
    }

    @Test
    @DisplayName("paramKind ConfigMap and messageExpression: the limit and the message come from the parameters")
    void params() throws Exception {
        namespace("vap-params");
        kubectl().run("create", "configmap", "limits", "--from-literal=maxReplicas=2", "-n", "vap-params").assertOk();
        kubectl().runWithInput(policy("replicas-param",
                "  - expression: \"object.spec.replicas <= int(params.data.maxReplicas)\"\n"
                        + "    messageExpression: \"'replicas must be at most ' + params.data.maxReplicas\"\n"
                        + "    reason: Forbidden\n",
                "  paramKind:\n    apiVersion: v1\n    kind: ConfigMap\n"), "apply", "-f", "-").assertOk();
        kubectl().runWithInput(binding("replicas-param-binding", "replicas-param", "vap-params", "Deny",
                "  paramRef:\n    name: limits\n    parameterNotFoundAction: Deny\n"), "apply", "-f", "-").assertOk();
        Kubectl.Result r = untilSeen("vap-params", 3, x -> x.exitCode() != 0);
        assertEquals("error: failed to create deployment: deployments.apps \"web-" + NAMES.get() + "\" is forbidden: "
                + "ValidatingAdmissionPolicy 'replicas-param' with binding 'replicas-param-binding' denied request: "
                + "replicas must be at most 2", r.stderr().strip(), r.toString());
        kubectl().run("create", "deployment", "two", "--image=nginx", "--replicas=2", "-n", "vap-params").assertOk();
        kubectl().run("delete", "configmap", "limits", "-n", "vap-params").assertOk();
        Kubectl.Result missing = untilSeen("vap-params", 1, x -> x.exitCode() != 0);
        assertTrue(missing.stderr().contains("denied request: failed to configure binding: no params found for "
                + "policy binding with `Deny` parameterNotFoundAction"), missing.toString());
    }

    @Test
    @DisplayName("validationActions Warn and Audit admit the request with kube's warning")
    void warns() throws Exception {
        namespace("vap-warn");
        kubectl().runWithInput(policy("replicas-warn", "  - expression: \"object.spec.replicas <= 1\"\n"
                + "    message: at most one replica is advised\n", ""), "apply", "-f", "-").assertOk();
        kubectl().runWithInput(binding("replicas-warn-binding", "replicas-warn", "vap-warn", "Warn, Audit", ""),
                "apply", "-f", "-").assertOk();
        Kubectl.Result r = untilSeen("vap-warn", 4, x -> x.stderr().contains("Warning:"));
        r.assertOk();
        assertEquals("Warning: Validation failed for ValidatingAdmissionPolicy 'replicas-warn' with binding "
                + "'replicas-warn-binding': at most one replica is advised", r.stderr().strip(), r.toString());
        assertEquals("4", kubectl().run("get", "deployment", "web-" + NAMES.get(), "-n", "vap-warn", "-o",
                "jsonpath={.spec.replicas}").assertOk().stdout());
    }

    @Test
    @DisplayName("type checking: status.observedGeneration and typeChecking, with a warning for an expression the kind's schema refutes")
    void typeChecking() throws Exception {
        kubectl().runWithInput(policy("typed", "  - expression: \"object.spec.replicas <= 5\"\n"
                + "  - expression: \"object.spec.replicass <= 5\"\n", ""), "apply", "-f", "-").assertOk();
        com.fasterxml.jackson.databind.JsonNode status = statusOf("typed", 1);
        assertEquals(1, status.path("observedGeneration").asLong(), status.toString());
        com.fasterxml.jackson.databind.JsonNode warnings = status.path("typeChecking").path("expressionWarnings");
        assertEquals(1, warnings.size(), status.toString());
        assertEquals("spec.validations[1].expression", warnings.get(0).path("fieldRef").asText());
        assertTrue(warnings.get(0).path("warning").asText().startsWith(
                "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicass'"), status.toString());

        kubectl().runWithInput(policy("typed", "  - expression: \"object.spec.replicas <= 5\"\n", ""),
                "apply", "-f", "-").assertOk();
        status = statusOf("typed", 2);
        assertEquals(2, status.path("observedGeneration").asLong(), status.toString());
        assertEquals("{}", status.path("typeChecking").toString(), "no warnings once the expression checks");
    }
}
