package io.kapi.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kapi.fixtures.Await;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrdInstallTest {

    private static final String GADGET_JSON = """
            {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
             "metadata": {"name": "sprockets.parts.example.com"},
             "spec": {"group": "parts.example.com", "scope": "Namespaced",
                      "names": {"plural": "sprockets", "singular": "sprocket", "kind": "Sprocket"},
                      "versions": [{"name": "v1alpha1", "served": true, "storage": true,
                                    "schema": {"openAPIV3Schema": {"type": "object",
                                               "properties": {"teeth": {"type": "integer"}}}}}]}}
            """;

    private static GenericKubernetesResource widget(String name, Object size) {
        return new GenericKubernetesResourceBuilder().withApiVersion("example.com/v1").withKind("Widget")
                .withNewMetadata().withName(name).endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("size", size))).build();
    }

    @Test
    @DisplayName("CRDs from a class-path YAML stream and a JSON file are served when start() returns: "
            + "schema validation, defaults, scope")
    void installsAndServes(@TempDir Path dir) throws Exception {
        Path json = Files.writeString(dir.resolve("sprocket.json"), GADGET_JSON);
        try (KapiServer kapi = KapiServer.builder().crds("classpath:crds/widgets.yaml", "file:" + json).start();
             KubernetesClient client = Fabric8Clients.client(kapi, "default")) {
            var widgets = client.genericKubernetesResources("example.com/v1", "Widget").inNamespace("default");
            GenericKubernetesResource created = widgets.resource(widget("w1", 3)).create();
            @SuppressWarnings("unchecked")
            Map<String, Object> spec = (Map<String, Object>) created.getAdditionalProperties().get("spec");
            assertEquals(3, ((Number) spec.get("size")).intValue());
            assertEquals("blue", spec.get("color"), "the schema's default is applied");
            KubernetesClientException invalid = assertThrows(KubernetesClientException.class,
                    () -> widgets.resource(widget("w2", 0)).create());
            assertEquals(422, invalid.getCode());
            assertTrue(invalid.getMessage().contains("spec.size"), invalid.getMessage());
            assertEquals(List.of("w1"), widgets.list().getItems().stream().map(w -> w.getMetadata().getName()).toList());
            // custom resources are in a snapshot like any object
            KapiSnapshot snapshot = kapi.snapshot();
            widgets.resource(widget("w3", 5)).create();
            widgets.withName("w1").delete();
            Await.atMost(Duration.ofSeconds(30)).until("w1 deleted", () -> widgets.withName("w1").get() == null);
            kapi.restore(snapshot);
            assertEquals(List.of("w1"), widgets.list().getItems().stream().map(w -> w.getMetadata().getName()).toList());

            var gadget = new GenericKubernetesResourceBuilder().withApiVersion("example.com/v1").withKind("Gadget")
                    .withNewMetadata().withName("g1").endMetadata()
                    .withAdditionalProperties(Map.of("anything", Map.of("goes", true))).build();
            assertEquals(null, client.genericKubernetesResources("example.com/v1", "Gadget").resource(gadget).create()
                    .getMetadata().getNamespace(), "Gadget is cluster-scoped");
            var sprockets = client.genericKubernetesResources("parts.example.com/v1alpha1", "Sprocket").inNamespace("default");
            sprockets.resource(new GenericKubernetesResourceBuilder().withApiVersion("parts.example.com/v1alpha1")
                    .withKind("Sprocket").withNewMetadata().withName("s1").endMetadata()
                    .withAdditionalProperties(Map.of("teeth", 12)).build()).create();
            assertEquals(1, sprockets.list().getItems().size());
            // kubectl finds the kind by its short name through discovery
            Process kubectl = new ProcessBuilder("kubectl", "--kubeconfig", kapi.kubeconfigFile().toString(),
                    "get", "wd", "-n", "default", "-o", "name").redirectErrorStream(true).start();
            String out = new String(kubectl.getInputStream().readAllBytes());
            assertTrue(kubectl.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, kubectl.exitValue(), out);
            assertEquals("widget.example.com/w1", out.strip());
            assertTrue(client.apiextensions().v1().customResourceDefinitions().withName("widgets.example.com").get()
                    .getStatus().getConditions().stream()
                    .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True")));
        }
    }

    @Test
    @DisplayName("a CRD location that cannot be read fails start() before a server starts")
    void unreadableLocation() {
        IllegalArgumentException resource = assertThrows(IllegalArgumentException.class,
                () -> KapiServer.builder().crds("classpath:crds/nothing-here.yaml").start());
        assertTrue(resource.getMessage().contains("no class-path resource crds/nothing-here.yaml"), resource.getMessage());
        IllegalArgumentException file = assertThrows(IllegalArgumentException.class,
                () -> KapiServer.builder().crds("/nonexistent/widget.yaml").start());
        assertTrue(file.getMessage().contains("no file /nonexistent/widget.yaml"), file.getMessage());
    }

    @Test
    @DisplayName("a CRD the server refuses fails start() with kube-apiserver's message, and the server is stopped")
    void refusedCrd(@TempDir Path dir) throws Exception {
        // metadata.name must be <plural>.<group>
        Path bad = Files.writeString(dir.resolve("bad.json"), GADGET_JSON.replace("sprockets.parts.example.com", "wrong"));
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        // a first server makes what a JVM keeps for all of them (the virtual threads' scheduler threads)
        KapiServer.builder().start().close();
        Cleanup.Before before = Cleanup.before();
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> KapiServer.builder().port(port).crds(bad.toString()).start());
        assertTrue(refused.getMessage().startsWith("cannot install the CRD of " + bad), refused.getMessage());
        assertTrue(refused.getMessage().contains("metadata.name: Invalid value: \"wrong\""), refused.getMessage());
        before.assertNothingLeft("https://127.0.0.1:" + port);
    }

    @Test
    @DisplayName("a YAML stream splits at --- lines as kubectl splits it; blank and comment-only documents are left out")
    void documents() {
        assertEquals(List.of("a: 1\n", "b: 2\n  --- not a separator\n"),
                CrdInstaller.documents("---\na: 1\n--- \n# only a comment\n---\nb: 2\n  --- not a separator\n---\n"));
        assertEquals(List.of("{\"kind\": \"X\"}\n"), CrdInstaller.documents("{\"kind\": \"X\"}"));
    }
}
