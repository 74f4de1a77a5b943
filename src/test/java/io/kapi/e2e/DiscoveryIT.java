package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.machinery.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What kubectl discovers: namespaces, group-versions, the resource table, explain. */
@DisplayName("discovery through kubectl")
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a hung request or watch fails one test, not the suite
final class DiscoveryIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    /** /api and /apis of a default kube-apiserver 1.32 (shared/reference) plus resource.k8s.io/v1, GA in 1.34. */
    static final Set<String> DEFAULT_GROUP_VERSIONS = Set.of(
            "admissionregistration.k8s.io/v1", "apiextensions.k8s.io/v1", "apiregistration.k8s.io/v1", "apps/v1",
            "authentication.k8s.io/v1", "authorization.k8s.io/v1", "autoscaling/v1", "autoscaling/v2", "batch/v1",
            "certificates.k8s.io/v1", "coordination.k8s.io/v1", "discovery.k8s.io/v1", "events.k8s.io/v1",
            "flowcontrol.apiserver.k8s.io/v1", "networking.k8s.io/v1", "node.k8s.io/v1", "policy/v1",
            "rbac.authorization.k8s.io/v1", "resource.k8s.io/v1", "scheduling.k8s.io/v1", "storage.k8s.io/v1", "v1");

    @Test
    @DisplayName("get ns lists the four system namespaces, all Active")
    void systemNamespaces() {
        Kubectl.Result r = KAPI.kubectl().run("get", "ns").assertOk();
        List<String> lines = r.stdout().strip().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+STATUS\\s+AGE"), "header: " + r);
        Map<String, String> status = new LinkedHashMap<>();
        lines.stream().skip(1).map(l -> l.split("\\s+")).forEach(f -> status.put(f[0], f[1]));
        for (String ns : List.of("default", "kube-node-lease", "kube-public", "kube-system")) {
            assertEquals("Active", status.get(ns), ns + " in " + r);
        }
    }

    @Test
    @DisplayName("api-versions lists every group-version a default 1.34 server serves")
    void apiVersions() {
        Kubectl.Result r = KAPI.kubectl().run("api-versions").assertOk();
        Set<String> served = new TreeSet<>(r.stdout().strip().lines().toList());
        Set<String> missing = new TreeSet<>(DEFAULT_GROUP_VERSIONS);
        missing.removeAll(served);
        assertTrue(missing.isEmpty(), "missing group-versions " + missing + " in " + served);
        assertEquals(served.stream().sorted().toList(), r.stdout().strip().lines().toList(), "sorted, like kubectl prints");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kubectl", "/usr/lib/google-cloud-sdk/bin/kubectl.1.33"})
    @DisplayName("api-resources -o wide has every default resource with its short names, scope, kind, verbs and categories")
    void apiResources(String binary) throws IOException {
        Map<String, Row> expected = parseApiResources(
                Manifests.read("reference/api-resources-v1.32.13.txt"));
        Kubectl.Result r = KAPI.kubectl(Path.of(binary)).run("api-resources", "-o", "wide").assertOk();
        Map<String, Row> actual = parseApiResources(r.stdout());
        List<String> mismatches = new ArrayList<>();
        expected.forEach((key, want) -> {
            Row got = actual.get(key);
            if (!want.equals(got)) {
                mismatches.add("expected " + want + "\n       got " + got);
            }
        });
        assertTrue(mismatches.isEmpty(), mismatches.size() + " of " + expected.size() + " resources differ:\n"
                + String.join("\n", mismatches));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1.27", "1.28", "1.29", "1.30", "1.31", "1.32", "1.33"})
    @DisplayName("everyday commands work with kubectl 1.27 to 1.33: get ns, create -f, get -o json, apply, delete")
    void everydayCommands(String version) throws IOException {
        Kubectl k = KAPI.kubectl(Path.of("/usr/lib/google-cloud-sdk/bin/kubectl." + version));
        String name = "v" + version.replace(".", "-");
        assertTrue(k.run("get", "ns").assertOk().stdout().contains("kube-system"));
        String manifest = Manifests.configMap(name, "k", "one");
        assertEquals("configmap/" + name + " created", k.runWithInput(manifest, "create", "-f", "-").assertOk().stdout().strip());
        assertEquals("one", Json.MAPPER.readTree(k.run("get", "cm", name, "-o", "json").assertOk().stdout())
                .path("data").path("k").asText());
        assertEquals("configmap/" + name + " configured",
                k.runWithInput(manifest.replace("one", "two"), "apply", "-f", "-").assertOk().stdout().strip());
        assertEquals("configmap \"" + name + "\" deleted", k.run("delete", "cm", name).assertOk().stdout().strip());
    }

    @Test
    @DisplayName("get apiservices lists v1., v1.apps, ... as Local and Available, as a real cluster")
    void apiServices() {
        Kubectl.Result r = KAPI.kubectl().run("get", "apiservices").assertOk();
        java.util.List<String> lines = r.stdout().lines().toList();
        assertTrue(lines.getFirst().matches("NAME\\s+SERVICE\\s+AVAILABLE\\s+AGE"), r.stdout());
        for (String name : java.util.List.of("v1.", "v1.apps", "v2.autoscaling", "v1.rbac.authorization.k8s.io",
                "v1.flowcontrol.apiserver.k8s.io")) {
            assertTrue(lines.stream().anyMatch(l -> l.matches(java.util.regex.Pattern.quote(name) + "\\s+Local\\s+True\\s+.*")),
                    name + " in\n" + r.stdout());
        }
    }

    @Test
    @DisplayName("explain deployment.spec.replicas prints the field's type and description from OpenAPI")
    void explain() {
        Kubectl.Result r = KAPI.kubectl().run("explain", "deployment.spec.replicas").assertOk();
        assertTrue(r.stdout().matches("(?s).*GROUP:\\s+apps\\s*\\nKIND:\\s+Deployment\\s*\\nVERSION:\\s+v1\\s*\\n.*"), r.toString());
        assertTrue(r.stdout().contains("FIELD: replicas <integer>"), r.toString());
        assertTrue(r.stdout().contains("Number of desired pods."), r.toString());
    }

    @Test
    @DisplayName("explain with --recursive walks the schema of a kind")
    void explainRecursive() {
        Kubectl.Result r = KAPI.kubectl().run("explain", "configmap", "--recursive").assertOk();
        assertTrue(r.stdout().contains("KIND:       ConfigMap"), r.toString());
        for (String field : List.of("apiVersion <string>", "binaryData <map[string]string>", "data <map[string]string>",
                "immutable <boolean>", "metadata <ObjectMeta>")) {
            String[] nameType = field.split(" ");
            assertTrue(Pattern.compile("(?m)^  " + nameType[0] + "\\s+" + Pattern.quote(nameType[1]) + "$")
                    .matcher(r.stdout()).find(), field + " in " + r);
        }
    }

    /** One row of {@code kubectl api-resources -o wide}, keyed by {@code name apiVersion}. */
    record Row(String shortNames, String namespaced, String kind, String verbs, String categories) {
    }

    /** Parses the fixed-width table: each cell starts at its header's column. */
    static Map<String, Row> parseApiResources(String table) {
        List<String> lines = table.lines().filter(l -> !l.isBlank()).toList();
        String header = lines.get(0);
        String[] names = {"NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND", "VERBS", "CATEGORIES"};
        int[] starts = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            starts[i] = header.indexOf(names[i]);
            if (starts[i] < 0) {
                throw new AssertionError("no column " + names[i] + " in header: " + header);
            }
        }
        Map<String, Row> rows = new LinkedHashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cell = new String[names.length];
            for (int i = 0; i < names.length; i++) {
                int from = Math.min(starts[i], line.length());
                int to = i + 1 < names.length ? Math.min(starts[i + 1], line.length()) : line.length();
                cell[i] = line.substring(from, to).strip();
            }
            rows.put(cell[0] + " " + cell[2], new Row(cell[1], cell[3], cell[4], cell[5], cell[6]));
        }
        return rows;
    }
}
