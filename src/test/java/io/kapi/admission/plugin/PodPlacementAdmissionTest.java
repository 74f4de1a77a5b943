package io.kapi.admission.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.assembly.ApiConfig;
import io.kapi.authz.Decision;
import io.kapi.harness.ApiHarness;
import io.kapi.machinery.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seeds' AlwaysPullImages and PodNodeSelector, enabled with {@code --enable-admission-plugins} and
 * configured by an {@code --admission-control-config-file} whose plugin configuration is in a file of its
 * own, as kube-apiserver reads them.
 */
class PodPlacementAdmissionTest {

    @TempDir
    Path dir;
    private ApiHarness api;

    @BeforeEach
    void setUp() throws Exception {
        Files.writeString(dir.resolve("node-selector.yaml"), """
                podNodeSelectorPluginConfig:
                  clusterDefaultNodeSelector: "zone=default"
                  whitelisted: "tier=web"
                """);
        Files.writeString(dir.resolve("admission.yaml"), """
                apiVersion: apiserver.config.k8s.io/v1
                kind: AdmissionConfiguration
                plugins:
                - name: PodNodeSelector
                  path: node-selector.yaml
                """);
        ApiConfig config = ApiConfig.builder().dataDir(dir.resolve("data"))
                .admission(new ApiConfig.Admission(List.of("AlwaysPullImages", "PodNodeSelector"), List.of(),
                        dir.resolve("admission.yaml")).bare()).build();
        api = new ApiHarness(config, attributes -> Decision.allow());
    }

    @AfterEach
    void tearDown() throws Exception {
        api.close();
    }

    private void namespace(String name, String nodeSelector) {
        ObjectNode ns = Json.object();
        ns.putObject("metadata").put("name", name);
        if (nodeSelector != null) {
            ns.with("metadata").putObject("annotations").put(PodNodeSelector.ANNOTATION, nodeSelector);
        }
        assertEquals(201, api.post("/api/v1/namespaces", ns.toString()).code());
    }

    private ApiHarness.Reply create(String namespace, String name, String nodeSelector) {
        ObjectNode pod = Json.object();
        pod.putObject("metadata").put("name", name);
        ObjectNode spec = pod.putObject("spec");
        spec.putArray("containers").addObject().put("name", "c").put("image", "nginx").put("imagePullPolicy", "IfNotPresent");
        spec.putArray("initContainers").addObject().put("name", "i").put("image", "busybox");
        if (nodeSelector != null) {
            String[] kv = nodeSelector.split("=");
            spec.putObject("nodeSelector").put(kv[0], kv[1]);
        }
        return api.post("/api/v1/namespaces/" + namespace + "/pods", pod.toString());
    }

    @Test
    @DisplayName("AlwaysPullImages: every container of a new pod pulls Always")
    void alwaysPull() {
        namespace("pulls", "");
        ApiHarness.Reply r = create("pulls", "p", null);
        assertEquals(201, r.code(), r.text());
        JsonNode spec = r.body().path("spec");
        assertEquals("Always", spec.path("containers").get(0).path("imagePullPolicy").asText());
        assertEquals("Always", spec.path("initContainers").get(0).path("imagePullPolicy").asText());
    }

    @Test
    @DisplayName("PodNodeSelector: the namespace's node selector is merged into the pod's")
    void namespaceSelector() {
        namespace("prod", "env=prod");
        ApiHarness.Reply r = create("prod", "p", "disk=ssd");
        assertEquals(201, r.code(), r.text());
        assertEquals("{\"disk\":\"ssd\",\"env\":\"prod\"}", r.body().path("spec").path("nodeSelector").toString());
    }

    @Test
    @DisplayName("PodNodeSelector: a pod selector contradicting the namespace's is Forbidden")
    void conflict() {
        namespace("prod2", "env=prod");
        ApiHarness.Reply r = create("prod2", "p", "env=dev");
        assertEquals(403, r.code(), r.text());
        assertEquals("pods \"p\" is forbidden: pod node label selector conflicts with its namespace node label selector",
                r.body().path("message").asText());
    }

    @Test
    @DisplayName("PodNodeSelector: the cluster default applies to a namespace without the annotation")
    void clusterDefault() {
        namespace("plain", null);
        ApiHarness.Reply r = create("plain", "p", null);
        assertEquals(201, r.code(), r.text());
        assertEquals("default", r.body().path("spec").path("nodeSelector").path("zone").asText());
    }

    @Test
    @DisplayName("PodNodeSelector: a label outside the namespace's whitelist is Forbidden")
    void whitelist() {
        namespace("whitelisted", "");
        assertEquals(201, create("whitelisted", "ok", "tier=web").code());
        ApiHarness.Reply r = create("whitelisted", "p", "tier=db");
        assertEquals(403, r.code(), r.text());
        assertEquals("pods \"p\" is forbidden: pod node label selector labels conflict with its namespace whitelist",
                r.body().path("message").asText());
    }
}
