package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.certs.TestCsrs;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** kubectl's output formats, short names, get all, and optimistic concurrency on replace. */
@DisplayName("kubectl output and concurrency")
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a hung request or watch fails one test, not the suite
final class KubectlOutputIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    static final String NS = "e2e-out";

    @BeforeAll
    static void objects() {
        Kubectl k = KAPI.kubectl();
        k.runWithInput(Manifests.namespace(NS), "create", "-f", "-").assertOk();
        for (String file : List.of("configmap.yaml", "deployment.yaml", "service.yaml", "cronjob.yaml", "job.yaml",
                "serviceaccount.yaml", "pdb.yaml")) {
            k.runWithInput(Manifests.read(file), "create", "-n", NS, "-f", "-").assertOk();
        }
    }

    private static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().run(args);
    }

    @Test
    @DisplayName("imperative create namespace and create configmap (typed client, protobuf bodies) work")
    void imperativeCreate() {
        assertEquals("namespace/e2e-imperative created",
                kubectl("create", "namespace", "e2e-imperative").assertOk().stdout().strip());
        assertEquals("configmap/imp created", kubectl("create", "configmap", "imp", "-n", "e2e-imperative",
                "--from-literal=a=b", "--from-literal=c=d").assertOk().stdout().strip());
        assertEquals("b d", kubectl("get", "cm", "imp", "-n", "e2e-imperative", "-o", "jsonpath={.data.a} {.data.c}")
                .assertOk().stdout());
    }

    @Test
    @DisplayName("get all lists services, deployments, jobs and cronjobs of the namespace by group-qualified name")
    void getAll() {
        Kubectl.Result r = kubectl("get", "all", "-n", NS).assertOk();
        for (String ref : List.of("service/svc1", "deployment.apps/web", "job.batch/job1", "cronjob.batch/cj1")) {
            assertTrue(r.stdout().lines().anyMatch(l -> l.startsWith(ref + " ")), ref + " in " + r);
        }
        assertTrue(!r.stdout().contains("configmap/"), "configmaps are not in category all: " + r);
    }

    @ParameterizedTest(name = "get {0}")
    @CsvSource({"cm, cm1", "deploy, web", "svc, svc1", "sa, sa1", "pdb, pdb1", "cj, cj1"})
    @DisplayName("short names resolve to their resources")
    void shortNames(String shortName, String name) {
        Kubectl.Result r = kubectl("get", shortName, "-n", NS).assertOk();
        assertTrue(r.stdout().lines().skip(1).anyMatch(l -> l.startsWith(name + " ")), r.toString());
    }

    @Test
    @DisplayName("get cm prints the server's table: NAME, DATA, AGE")
    void configMapTable() {
        Kubectl.Result r = kubectl("get", "cm", "cm1", "-n", NS).assertOk();
        List<String> lines = r.stdout().strip().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+DATA\\s+AGE"), r.toString());
        assertTrue(lines.get(1).matches("cm1\\s+2\\s+[0-9smhd]+"), r.toString());
    }

    @Test
    @DisplayName("get cs probes the scheduler, controller manager and storage, with kube's deprecation warning")
    void componentStatuses() {
        Kubectl.Result r = kubectl("get", "cs").assertOk();
        assertEquals("Warning: v1 ComponentStatus is deprecated in v1.19+", r.stderr().strip(), r.toString());
        List<String> lines = r.stdout().strip().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+STATUS\\s+MESSAGE\\s+ERROR"), r.toString());
        assertTrue(lines.stream().anyMatch(l -> l.matches("scheduler\\s+Unhealthy\\s+Get \"https://127.0.0.1:10259/healthz\": "
                + "dial tcp 127.0.0.1:10259: connect: connection refused\\s*")), r.toString());
        assertTrue(lines.stream().anyMatch(l -> l.matches("etcd-0\\s+Healthy\\s+ok\\s*")), r.toString());
        assertTrue(kubectl("get", "cs", "nothing").assertFailed().stderr()
                .contains("Error from server (NotFound): componentstatuses \"nothing\" not found"));
    }

    @Test
    @DisplayName("requests for Endpoints carry kube 1.33's deprecation warning")
    void endpointsDeprecated() {
        Kubectl.Result r = kubectl("get", "endpoints", "kubernetes", "-n", "default").assertOk();
        assertEquals("Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice",
                r.stderr().strip(), r.toString());
    }

    @Test
    @DisplayName("get deploy -o wide adds CONTAINERS, IMAGES and SELECTOR columns")
    void wide() {
        Kubectl.Result r = kubectl("get", "deploy", "web", "-n", NS, "-o", "wide").assertOk();
        List<String> lines = r.stdout().strip().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+AGE\\s+CONTAINERS\\s+IMAGES\\s+SELECTOR"),
                r.toString());
        assertTrue(lines.get(1).matches("web\\s+0/2\\s+0\\s+0\\s+[0-9smhd]+\\s+nginx\\s+nginx:1.27\\s+app=web"), r.toString());
    }

    @Test
    @DisplayName("get svc prints the allocated cluster IP and ports")
    void serviceTable() {
        Kubectl.Result r = kubectl("get", "svc", "svc1", "-n", NS).assertOk();
        List<String> lines = r.stdout().strip().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+TYPE\\s+CLUSTER-IP\\s+EXTERNAL-IP\\s+PORT\\(S\\)\\s+AGE"), r.toString());
        assertTrue(lines.get(1).matches("svc1\\s+ClusterIP\\s+\\d+\\.\\d+\\.\\d+\\.\\d+\\s+<none>\\s+80/TCP\\s+[0-9smhd]+"),
                r.toString());
    }

    @Test
    @DisplayName("get -o name and -o jsonpath over a list")
    void nameAndJsonPathOverList() {
        Kubectl.Result names = kubectl("get", "cm", "-n", NS, "-o", "name").assertOk();
        assertTrue(names.stdout().lines().toList().contains("configmap/cm1"), names.toString());
        Kubectl.Result paths = kubectl("get", "cm", "-n", NS, "-o", "jsonpath={.items[*].metadata.name}").assertOk();
        assertTrue(List.of(paths.stdout().split(" ")).contains("cm1"), paths.toString());
    }

    @Test
    @DisplayName("get -l selects by label, -o json gives a v1 List")
    void labelSelector() throws IOException {
        Kubectl.Result r = kubectl("get", "cm,svc", "-n", NS, "-l", "app=e2e", "-o", "json").assertOk();
        JsonNode list = Json.MAPPER.readTree(r.stdout());
        assertEquals("List", list.path("kind").asText(), r.toString());
        assertTrue(list.path("items").findValuesAsText("name").contains("cm1"), r.toString());
        for (JsonNode item : list.path("items")) {
            assertEquals("ConfigMap", item.path("kind").asText(), "only configmaps carry app=e2e: " + item);
            assertEquals("e2e", item.path("metadata").path("labels").path("app").asText(), item.toString());
        }
    }

    @Test
    @DisplayName("replace with a stale resourceVersion fails with Conflict")
    void staleReplace() throws IOException {
        KAPI.kubectl().runWithInput(Manifests.configMap("racy", "k", "v1"), "create", "-n", NS, "-f", "-").assertOk();
        ObjectNode stale = (ObjectNode) Json.MAPPER.readTree(
                kubectl("get", "cm", "racy", "-n", NS, "-o", "json").assertOk().stdout());
        ObjectNode first = stale.deepCopy();
        first.withObjectProperty("data").put("k", "v2");
        KAPI.kubectl().runWithInput(first.toString(), "replace", "-f", "-").assertOk();
        ObjectNode second = stale.deepCopy();
        second.withObjectProperty("data").put("k", "v3");
        Kubectl.Result r = KAPI.kubectl().runWithInput(second.toString(), "replace", "-f", "-").assertFailed();
        assertEquals("Error from server (Conflict): error when replacing \"STDIN\": Operation cannot be fulfilled on "
                + "configmaps \"racy\": the object has been modified; please apply your changes to the latest version "
                + "and try again", r.stderr().strip(), r.toString());
        assertEquals("v2", kubectl("get", "cm", "racy", "-n", NS, "-o", "jsonpath={.data.k}").assertOk().stdout());
    }

    @Test
    @DisplayName("apply creates, then configures, then leaves unchanged")
    void apply() {
        String manifest = Manifests.read("configmap.yaml").replace("name: cm1", "name: applied");
        Kubectl k = KAPI.kubectl();
        assertEquals("configmap/applied created", k.runWithInput(manifest, "apply", "-n", NS, "-f", "-").assertOk()
                .stdout().strip());
        assertEquals("configmap/applied unchanged", k.runWithInput(manifest, "apply", "-n", NS, "-f", "-").assertOk()
                .stdout().strip());
        assertEquals("configmap/applied configured", k.runWithInput(manifest.replace("blue", "green"), "apply", "-n", NS,
                "-f", "-").assertOk().stdout().strip());
        assertEquals("green", kubectl("get", "cm", "applied", "-n", NS, "-o", "jsonpath={.data.color}").assertOk().stdout());
    }

    @Test
    @DisplayName("label and annotate patch the object in place")
    void labelAndAnnotate() {
        assertEquals("configmap/cm1 labeled", kubectl("label", "cm", "cm1", "-n", NS, "tier=gold").assertOk().stdout().strip());
        assertEquals("configmap/cm1 annotated",
                kubectl("annotate", "cm", "cm1", "-n", NS, "note=hi").assertOk().stdout().strip());
        assertEquals("gold hi", kubectl("get", "cm", "cm1", "-n", NS, "-o",
                "jsonpath={.metadata.labels.tier} {.metadata.annotations.note}").assertOk().stdout());
    }

    @Test
    @DisplayName("patch with strategic-merge, merge and json types")
    void patchTypes() {
        Kubectl k = KAPI.kubectl();
        k.runWithInput(Manifests.configMap("patched", "a", "1"), "create", "-n", NS, "-f", "-").assertOk();
        assertEquals("configmap/patched patched", k.run("patch", "cm", "patched", "-n", NS,
                "-p", "{\"data\":{\"b\":\"2\"}}").assertOk().stdout().strip());
        assertEquals("configmap/patched patched", k.run("patch", "cm", "patched", "-n", NS, "--type=merge",
                "-p", "{\"data\":{\"c\":\"3\"}}").assertOk().stdout().strip());
        assertEquals("configmap/patched patched", k.run("patch", "cm", "patched", "-n", NS, "--type=json",
                "-p", "[{\"op\":\"remove\",\"path\":\"/data/a\"}]").assertOk().stdout().strip());
        assertEquals("{\"b\":\"2\",\"c\":\"3\"}",
                k.run("get", "cm", "patched", "-n", NS, "-o", "jsonpath={.data}").assertOk().stdout());
    }

    @Test
    @DisplayName("apply --server-side creates and then updates, owned by kubectl")
    void serverSideApply() {
        Kubectl k = KAPI.kubectl();
        String manifest = Manifests.configMap("ssa", "k", "one");
        assertEquals("configmap/ssa serverside-applied",
                k.runWithInput(manifest, "apply", "--server-side", "-n", NS, "-f", "-").assertOk().stdout().strip());
        assertEquals("configmap/ssa serverside-applied", k.runWithInput(manifest.replace("one", "two"),
                "apply", "--server-side", "-n", NS, "-f", "-").assertOk().stdout().strip());
        assertEquals("two kubectl Apply", k.run("get", "cm", "ssa", "-n", NS, "--show-managed-fields", "-o",
                "jsonpath={.data.k} {.metadata.managedFields[0].manager} {.metadata.managedFields[0].operation}")
                .assertOk().stdout());
    }

    @Test
    @DisplayName("scale changes a deployment's replicas through the scale subresource")
    void scale() {
        KAPI.kubectl().runWithInput(Manifests.read("deployment.yaml").replace("name: web", "name: scaled"),
                "create", "-n", NS, "-f", "-").assertOk();
        assertEquals("deployment.apps/scaled scaled",
                kubectl("scale", "deploy", "scaled", "-n", NS, "--replicas=3").assertOk().stdout().strip());
        assertEquals("3", kubectl("get", "deploy", "scaled", "-n", NS, "-o", "jsonpath={.spec.replicas}").assertOk().stdout());
    }

    @Test
    @DisplayName("auth whoami and auth can-i answer for the admin")
    void auth() {
        Kubectl.Result who = kubectl("auth", "whoami").assertOk();
        assertTrue(who.stdout().matches("(?s)ATTRIBUTE\\s+VALUE\\s+Username\\s+kubernetes-admin\\s+Groups\\s+\\[.*system:masters.*"),
                who.toString());
        assertEquals("yes", kubectl("auth", "can-i", "create", "configmaps", "-n", NS).assertOk().stdout().strip());
    }

    @Test
    @DisplayName("delete namespace removes it and everything in it")
    void deleteNamespace() {
        Kubectl k = KAPI.kubectl();
        k.runWithInput(Manifests.namespace("doomed"), "create", "-f", "-").assertOk();
        k.runWithInput(Manifests.configMap("inside", "a", "b"), "create", "-n", "doomed", "-f", "-").assertOk();
        assertEquals("namespace \"doomed\" deleted",
                k.run("delete", "namespace", "doomed", "--timeout=30s").assertOk().stdout().strip());
        Kubectl.Result gone = k.run("get", "namespace", "doomed").assertFailed();
        assertEquals("Error from server (NotFound): namespaces \"doomed\" not found", gone.stderr().strip(), gone.toString());
        // kubectl itself, after a 404 on the object, checks the namespace and reports that it is gone
        Kubectl.Result cm = k.run("get", "cm", "inside", "-n", "doomed").assertFailed();
        assertEquals("Error from server (NotFound): namespaces \"doomed\" not found", cm.stderr().strip(), cm.toString());
        Kubectl.Result raw = k.run("get", "--raw", "/api/v1/namespaces/doomed/configmaps/inside").assertFailed();
        assertTrue(raw.stderr().contains("configmaps \"inside\" not found"), raw.toString());
    }

    @Test
    @DisplayName("a CSR: its requester is who created it, kubectl certificate approve approves it, a request that is "
            + "no CSR is refused with kube's message")
    void certificateSigningRequest() {
        Kubectl k = KAPI.kubectl();
        String manifest = """
                apiVersion: certificates.k8s.io/v1
                kind: CertificateSigningRequest
                metadata: {name: %s}
                spec: {request: %s, signerName: example.com/signer, usages: [client auth], username: someone-else}
                """;
        k.runWithInput(manifest.formatted("jane", TestCsrs.request("CN=jane")), "create", "-f", "-")
                .assertOk();
        String me = k.run("auth", "whoami", "-o", "jsonpath={.status.userInfo.username}").assertOk().stdout();
        assertEquals(me, k.run("get", "csr", "jane", "-o", "jsonpath={.spec.username}").assertOk().stdout());
        assertEquals("certificatesigningrequest.certificates.k8s.io/jane approved",
                k.run("certificate", "approve", "jane").assertOk().stdout().strip());
        List<String> table = k.run("get", "csr", "jane").assertOk().stdout().strip().lines().toList();
        assertTrue(table.get(1).matches("jane\\s+\\S+\\s+example.com/signer\\s+" + Pattern.quote(me)
                + "\\s+<none>\\s+Approved"), table.toString());

        Kubectl.Result refused = k.runWithInput(manifest.formatted("bad", "aGk="), "create", "-f", "-").assertFailed();
        assertEquals("The CertificateSigningRequest \"bad\" is invalid: spec.request: Invalid value: []byte{0x68, 0x69}: "
                + "PEM block type must be CERTIFICATE REQUEST", refused.stderr().strip(), refused.toString());
    }
}
