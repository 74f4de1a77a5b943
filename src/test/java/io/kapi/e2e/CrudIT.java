package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** create / get / describe / replace / delete of everyday kinds with kubectl 1.32, one manifest each. */
@DisplayName("kubectl CRUD of everyday kinds")
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a hung request or watch fails one test, not the suite
final class CrudIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    /**
     * One kind under test.
     *
     * @param file manifest under e2e/
     * @param type what kubectl calls it on the command line and prints before the slash
     * @param resource the group-qualified plural kube-apiserver names in errors
     * @param jsonPath a jsonpath whose value the server must give back...
     * @param expected ...and that value (often a server-side default)
     * @param describe a regex the output of describe must contain
     */
    record Case(String file, String type, String resource, String name, boolean namespaced,
                String jsonPath, String expected, String describe) {
    }

    static final List<Case> CASES = List.of(
            new Case("configmap.yaml", "configmap", "configmaps", "cm1", true,
                    "{.data.greeting}", "hello", "(?s)Labels:\\s+app=e2e.*greeting:\\s*\\n-+\\s*\\nhello"),
            new Case("secret.yaml", "secret", "secrets", "secret1", true,
                    "{.data.username}", "YWRtaW4=", "(?s)Type:\\s+Opaque(?=.*password:\\s+7 bytes)(?=.*username:\\s+5 bytes)"),
            new Case("service.yaml", "service", "services", "svc1", true,
                    "{.spec.type}/{.spec.ports[0].protocol}/{.spec.sessionAffinity}", "ClusterIP/TCP/None",
                    "(?s)Type:\\s+ClusterIP.*Port:\\s+http\\s+80/TCP.*TargetPort:\\s+8080/TCP"),
            new Case("deployment.yaml", "deployment.apps", "deployments.apps", "web", true,
                    "{.spec.strategy.type}/{.spec.revisionHistoryLimit}/{.spec.template.spec.restartPolicy}",
                    "RollingUpdate/10/Always", "(?s)Replicas:\\s+2 desired.*Image:\\s+nginx:1.27"),
            new Case("job.yaml", "job.batch", "jobs.batch", "job1", true,
                    "{.spec.completions}/{.spec.parallelism}/{.spec.backoffLimit}", "1/1/2",
                    "(?s)Parallelism:\\s+1.*Image:\\s+busybox:1.36"),
            new Case("cronjob.yaml", "cronjob.batch", "cronjobs.batch", "cj1", true,
                    "{.spec.concurrencyPolicy}/{.spec.suspend}/{.spec.successfulJobsHistoryLimit}", "Allow/false/3",
                    "Schedule:\\s+\\*/5 \\* \\* \\* \\*"),
            new Case("serviceaccount.yaml", "serviceaccount", "serviceaccounts", "sa1", true,
                    "{.kind}", "ServiceAccount", "Name:\\s+sa1"),
            new Case("role.yaml", "role.rbac.authorization.k8s.io", "roles.rbac.authorization.k8s.io", "reader", true,
                    "{.rules[0].verbs}", "[\"get\",\"list\",\"watch\"]", "configmaps\\s+\\[\\]\\s+\\[\\]\\s+\\[get list watch\\]"),
            new Case("rolebinding.yaml", "rolebinding.rbac.authorization.k8s.io",
                    "rolebindings.rbac.authorization.k8s.io", "read-binding", true,
                    "{.roleRef.name}", "reader", "ServiceAccount\\s+sa1\\s+default"),
            new Case("clusterrole.yaml", "clusterrole.rbac.authorization.k8s.io",
                    "clusterroles.rbac.authorization.k8s.io", "e2e-node-reader", false,
                    "{.rules[0].resources[0]}", "nodes", "nodes\\s+\\[\\]\\s+\\[\\]\\s+\\[get list\\]"),
            new Case("lease.yaml", "lease.coordination.k8s.io", "leases.coordination.k8s.io", "lease1", true,
                    "{.spec.holderIdentity}", "e2e-holder", "Holder Identity:\\s+e2e-holder"),
            new Case("pdb.yaml", "poddisruptionbudget.policy", "poddisruptionbudgets.policy", "pdb1", true,
                    "{.spec.minAvailable}", "1", "Min available:\\s+1"));

    @TestFactory
    @DisplayName("each kind goes through create, get (table, yaml, json, jsonpath), describe, replace, delete")
    Stream<DynamicNode> crud() {
        return CASES.stream().map(c -> dynamicContainer(c.type(), Stream.of(
                dynamicTest("create -f prints '" + c.type() + "/" + c.name() + " created'", () -> create(c)),
                dynamicTest("get prints a table row starting with the name", () -> getTable(c)),
                dynamicTest("get -o yaml and -o json return the object with server-set metadata", () -> getYamlJson(c)),
                dynamicTest("get -o jsonpath reads fields, including server defaults", () -> getJsonPath(c)),
                dynamicTest("describe shows the object", () -> describe(c)),
                dynamicTest("replace stores the change and bumps resourceVersion", () -> replace(c)),
                dynamicTest("delete removes it; get then says NotFound", () -> delete(c)))));
    }

    private static Kubectl kubectl() {
        return KAPI.kubectl();
    }

    private static void create(Case c) {
        Kubectl.Result r = kubectl().runWithInput(Manifests.read(c.file()), "create", "-f", "-").assertOk();
        assertEquals(c.type() + "/" + c.name() + " created", r.stdout().strip(), r.toString());
    }

    private static void getTable(Case c) {
        Kubectl.Result r = kubectl().run("get", c.type(), c.name()).assertOk();
        List<String> lines = r.stdout().strip().lines().toList();
        assertEquals(2, lines.size(), "header and one row expected: " + r);
        assertTrue(lines.get(0).startsWith("NAME"), "header starts with NAME: " + r);
        assertTrue(lines.get(1).startsWith(c.name() + " "), "row starts with the name: " + r);
    }

    private static void getYamlJson(Case c) throws IOException {
        JsonNode yaml = Json.yaml().readTree(kubectl().run("get", c.type(), c.name(), "-o", "yaml").assertOk().stdout());
        JsonNode json = Json.MAPPER.readTree(kubectl().run("get", c.type(), c.name(), "-o", "json").assertOk().stdout());
        for (JsonNode o : List.of(yaml, json)) {
            JsonNode meta = o.path("metadata");
            assertEquals(c.name(), meta.path("name").asText(), o.toString());
            assertEquals(c.namespaced() ? "default" : "", meta.path("namespace").asText(""), o.toString());
            assertTrue(meta.path("uid").asText().matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
                    "uid is a UUID: " + meta);
            assertTrue(meta.path("resourceVersion").asText().matches("[0-9]+"), "resourceVersion: " + meta);
            assertTrue(meta.path("creationTimestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"),
                    "creationTimestamp in RFC 3339 seconds: " + meta);
            assertTrue(o.path("apiVersion").isTextual() && o.path("kind").isTextual(), "apiVersion and kind: " + o);
        }
        assertEquals(json, yaml, "yaml and json show the same object");
    }

    private static void getJsonPath(Case c) {
        Kubectl.Result r = kubectl().run("get", c.type(), c.name(), "-o", "jsonpath=" + c.jsonPath()).assertOk();
        assertEquals(c.expected(), r.stdout(), r.toString());
    }

    private static void describe(Case c) {
        Kubectl.Result r = kubectl().run("describe", c.type(), c.name()).assertOk();
        assertTrue(Pattern.compile("(?m)^Name:\\s+" + Pattern.quote(c.name()) + "$").matcher(r.stdout()).find(),
                "Name line: " + r);
        if (c.namespaced() && !c.type().startsWith("role")) { // kubectl's Role and RoleBinding describers omit it
            assertTrue(Pattern.compile("(?m)^Namespace:\\s+default$").matcher(r.stdout()).find(), "Namespace line: " + r);
        }
        assertTrue(Pattern.compile(c.describe()).matcher(r.stdout()).find(), "describe shows /" + c.describe() + "/: " + r);
    }

    private static void replace(Case c) throws IOException {
        ObjectNode before = (ObjectNode) Json.MAPPER.readTree(
                kubectl().run("get", c.type(), c.name(), "-o", "json").assertOk().stdout());
        ObjectNode changed = before.deepCopy();
        changed.withObjectProperty("metadata").withObjectProperty("labels").put("replaced", "yes");
        Kubectl.Result r = kubectl().runWithInput(changed.toString(), "replace", "-f", "-").assertOk();
        assertEquals(c.type() + "/" + c.name() + " replaced", r.stdout().strip(), r.toString());
        Kubectl.Result after = kubectl().run("get", c.type(), c.name(), "-o",
                "jsonpath={.metadata.labels.replaced} {.metadata.resourceVersion}").assertOk();
        String[] parts = after.stdout().split(" ");
        assertEquals("yes", parts[0], after.toString());
        long oldRv = Long.parseLong(before.path("metadata").path("resourceVersion").asText());
        assertTrue(Long.parseLong(parts[1]) > oldRv, "resourceVersion grows: " + oldRv + " -> " + parts[1]);
    }

    private static void delete(Case c) {
        Kubectl.Result r = kubectl().run("delete", c.type(), c.name()).assertOk();
        assertEquals(c.type() + " \"" + c.name() + "\" deleted", r.stdout().strip(), r.toString());
        Kubectl.Result gone = kubectl().run("get", c.type(), c.name()).assertFailed();
        assertEquals("Error from server (NotFound): " + c.resource() + " \"" + c.name() + "\" not found",
                gone.stderr().strip(), gone.toString());
    }

    @org.junit.jupiter.api.Test
    @DisplayName("a patch changing a service's clusterIP is refused: spec.clusterIPs[0] may not change once set")
    void clusterIpImmutable() throws IOException {
        kubectl().run("create", "service", "clusterip", "fixed-ip", "--tcp=80:80").assertOk();
        String ip = kubectl().run("get", "svc", "fixed-ip", "-o", "jsonpath={.spec.clusterIP}").assertOk().stdout();
        String other = ip.endsWith(".77") ? ip.replaceAll("\\.77$", ".78") : ip.replaceAll("\\.\\d+$", ".77");
        Kubectl.Result r = kubectl().run("patch", "svc", "fixed-ip", "-p",
                "{\"spec\":{\"clusterIP\":\"" + other + "\"}}").assertFailed();
        assertEquals("The Service \"fixed-ip\" is invalid: spec.clusterIPs[0]: Invalid value: []string{\"" + other
                + "\"}: may not change once set", r.stderr().strip(), r.toString());
        assertEquals(ip, kubectl().run("get", "svc", "fixed-ip", "-o", "jsonpath={.spec.clusterIP}").assertOk().stdout());
        kubectl().run("delete", "svc", "fixed-ip").assertOk();
    }

    @org.junit.jupiter.api.Test
    @DisplayName("a Job without a selector gets kube's generated selector and job-name / controller-uid labels")
    void jobSelectorGenerated() throws IOException {
        kubectl().run("create", "job", "gen-sel", "--image=busybox:1.36").assertOk();
        JsonNode job = Json.MAPPER.readTree(kubectl().run("get", "job", "gen-sel", "-o", "json").assertOk().stdout());
        String uid = job.path("metadata").path("uid").asText();
        assertEquals(Json.MAPPER.createObjectNode().set("matchLabels",
                Json.MAPPER.createObjectNode().put("batch.kubernetes.io/controller-uid", uid)),
                job.path("spec").path("selector"));
        JsonNode labels = job.path("spec").path("template").path("metadata").path("labels");
        assertEquals(uid, labels.path("controller-uid").asText(), labels.toString());
        assertEquals(uid, labels.path("batch.kubernetes.io/controller-uid").asText(), labels.toString());
        assertEquals("gen-sel", labels.path("job-name").asText(), labels.toString());
        assertEquals("gen-sel", labels.path("batch.kubernetes.io/job-name").asText(), labels.toString());
        kubectl().run("delete", "job", "gen-sel").assertOk();
    }
}
