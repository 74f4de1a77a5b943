package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
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
 * MutatingAdmissionPolicy (admissionregistration.k8s.io/v1beta1, beta in 1.34) with kubectl, on a server
 * started as kube-apiserver needs it: {@code --runtime-config=admissionregistration.k8s.io/v1beta1=true
 * --feature-gates=MutatingAdmissionPolicy=true}. Each test works in a namespace its binding selects; policies
 * come from a watch, so the first write is retried until the policy is seen.
 */
@DisplayName("MutatingAdmissionPolicy with kubectl")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class MutatingAdmissionPolicyIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--runtime-config=admissionregistration.k8s.io/v1beta1=true",
            "--feature-gates=MutatingAdmissionPolicy=true");

    private static final Duration SEEN = Duration.ofSeconds(30);
    private static final AtomicInteger NAMES = new AtomicInteger();

    private static Kubectl kubectl() {
        return KAPI.kubectl();
    }

    private static void namespace(String name) {
        kubectl().run("create", "namespace", name).assertOk();
        kubectl().run("label", "namespace", name, "map=" + name).assertOk();
    }

    /** A policy on creates of {@code group/resources} with the given mutations (YAML, indented by 2). */
    private static String policy(String name, String group, String resources, String failurePolicy, String body) {
        return "apiVersion: admissionregistration.k8s.io/v1beta1\nkind: MutatingAdmissionPolicy\nmetadata:\n  name: " + name
                + "\nspec:\n  failurePolicy: " + failurePolicy + "\n  reinvocationPolicy: Never\n  matchConstraints:\n"
                + "    resourceRules:\n    - apiGroups: [\"" + group + "\"]\n      apiVersions: [\"v1\"]\n"
                + "      operations: [\"CREATE\"]\n      resources: [\"" + resources + "\"]\n" + body;
    }

    private static String binding(String policy, String namespace) {
        return "apiVersion: admissionregistration.k8s.io/v1beta1\nkind: MutatingAdmissionPolicyBinding\nmetadata:\n  name: "
                + policy + "-binding\nspec:\n  policyName: " + policy + "\n  matchResources:\n    namespaceSelector:\n"
                + "      matchLabels:\n        map: " + namespace + "\n";
    }

    /** Runs {@code create} (given a fresh name) until {@code done} holds for its result, or the time is up. */
    private static Kubectl.Result untilSeen(Function<String, Kubectl.Result> create, Function<Kubectl.Result, Boolean> done) {
        return Await.atMost(SEEN).every(Duration.ofMillis(200)).poll(() -> create.apply("obj-" + NAMES.incrementAndGet()),
                done::apply);
    }

    @Test
    @DisplayName("ApplyConfiguration: kubectl create deployment stores a label, a default and every container's imagePullPolicy")
    void applyConfiguration() throws Exception {
        namespace("map-apply");
        kubectl().runWithInput(policy("deployment-defaults", "apps", "deployments", "Fail",
                "  variables:\n  - name: ready\n    expression: \"object.spec.?minReadySeconds.orValue(0) == 0 ? 7 : "
                        + "object.spec.minReadySeconds\"\n"
                        + "  mutations:\n  - patchType: ApplyConfiguration\n    applyConfiguration:\n      expression: >\n"
                        + "        Object{metadata: Object.metadata{labels: {\"team\": \"platform\"}},\n"
                        + "        spec: Object.spec{minReadySeconds: variables.ready,\n"
                        + "        template: Object.spec.template{spec: Object.spec.template.spec{\n"
                        + "        containers: object.spec.template.spec.containers.map(c,\n"
                        + "        Object.spec.template.spec.containers{name: c.name, imagePullPolicy: \"Always\"})}}}}\n"),
                "apply", "-f", "-").assertOk();
        kubectl().runWithInput(binding("deployment-defaults", "map-apply"), "apply", "-f", "-").assertOk();
        Kubectl.Result created = untilSeen(name -> kubectl().run("create", "deployment", name, "--image=nginx:1.27",
                "-n", "map-apply", "-o", "json"), r -> r.exitCode() == 0 && r.json().at("/metadata/labels/team").isTextual());
        created.assertOk();
        JsonNode stored = kubectl().run("get", "deployment", created.json().at("/metadata/name").asText(), "-n",
                "map-apply", "-o", "json").assertOk().json();
        assertEquals("platform", stored.at("/metadata/labels/team").asText(), stored.toString());
        assertEquals(7, stored.at("/spec/minReadySeconds").asInt(), stored.toString());
        JsonNode container = stored.at("/spec/template/spec/containers/0");
        assertEquals("Always", container.path("imagePullPolicy").asText(), stored.toString());
        assertEquals("nginx:1.27", container.path("image").asText());
        assertEquals("nginx", container.path("name").asText());
        assertTrue(stored.at("/metadata/labels/app").isTextual(), "kubectl's own labels are kept: " + stored);
        kubectl().run("create", "deployment", "elsewhere", "--image=nginx:1.27").assertOk();
        assertTrue(kubectl().run("get", "deployment", "elsewhere", "-o", "json").assertOk().json()
                .at("/metadata/labels/team").isMissingNode(), "the binding selects map-apply only");
    }

    @Test
    @DisplayName("JSONPatch: kubectl create configmap stores the label the patch added (jsonpatch.escapeKey)")
    void jsonPatch() throws Exception {
        namespace("map-patch");
        kubectl().runWithInput(policy("configmap-label", "", "configmaps", "Fail",
                "  mutations:\n  - patchType: JSONPatch\n    jsonPatch:\n      expression: >\n"
                        + "        has(object.metadata.labels) ?\n"
                        + "        [JSONPatch{op: \"add\", path: \"/metadata/labels/\" + jsonpatch.escapeKey(\"example.com/patched\"), value: \"yes\"}] :\n"
                        + "        [JSONPatch{op: \"add\", path: \"/metadata/labels\", value: {\"example.com/patched\": \"yes\"}}]\n"),
                "apply", "-f", "-").assertOk();
        kubectl().runWithInput(binding("configmap-label", "map-patch"), "apply", "-f", "-").assertOk();
        Kubectl.Result r = untilSeen(name -> kubectl().run("create", "configmap", name, "--from-literal=a=b", "-n",
                "map-patch", "-o", "json"), x -> x.exitCode() == 0 && x.json().at("/metadata/labels").isObject());
        r.assertOk();
        String name = r.json().at("/metadata/name").asText();
        assertEquals("yes", kubectl().run("get", "configmap", name, "-n", "map-patch", "-o",
                "jsonpath={.metadata.labels.example\\.com/patched}").assertOk().stdout());
    }

    @Test
    @DisplayName("a mutation that fails under failurePolicy Fail refuses the create with kube's wording")
    void failing() throws Exception {
        namespace("map-fail");
        kubectl().runWithInput(policy("broken", "", "configmaps", "Fail",
                "  mutations:\n  - patchType: ApplyConfiguration\n    applyConfiguration:\n"
                        + "      expression: \"Object{data: {'copy': object.data.missing}}\"\n"),
                "apply", "-f", "-").assertOk();
        kubectl().runWithInput(binding("broken", "map-fail"), "apply", "-f", "-").assertOk();
        Kubectl.Result r = untilSeen(name -> kubectl().run("create", "configmap", name, "--from-literal=a=b", "-n",
                "map-fail"), x -> x.exitCode() != 0);
        assertEquals("error: failed to create configmap: policy 'broken' with binding 'broken-binding' denied "
                + "request: expression 'Object{data: {'copy': object.data.missing}}' resulted in error: no such key: "
                + "missing", r.stderr().strip(), r.toString());
    }

    @Test
    @DisplayName("the API is listed by kubectl api-resources and get; a policy that does not compile is Invalid")
    void served() {
        String resources = kubectl().run("api-resources", "--api-group=admissionregistration.k8s.io", "-o", "name")
                .assertOk().stdout();
        assertTrue(resources.contains("mutatingadmissionpolicies.admissionregistration.k8s.io"), resources);
        assertTrue(resources.contains("mutatingadmissionpolicybindings.admissionregistration.k8s.io"), resources);
        kubectl().run("get", "mutatingadmissionpolicies").assertOk();
        Kubectl.Result bad = kubectl().runWithInput(policy("bad", "", "configmaps", "Fail",
                "  mutations:\n  - patchType: ApplyConfiguration\n    applyConfiguration:\n      expression: \"Object{\"\n"),
                "apply", "-f", "-");
        bad.assertFailed();
        assertTrue(bad.stderr().startsWith("The MutatingAdmissionPolicy \"bad\" is invalid: spec.mutations[0]"
                + ".applyConfiguration.expression: Invalid value: \"Object{\": compilation failed: ERROR: <input>:1:8:"),
                bad.toString());
    }
}
