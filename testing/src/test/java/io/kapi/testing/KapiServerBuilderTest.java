package io.kapi.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kapi.fixtures.Await;
import io.kapi.machinery.Json;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** KapiServer.builder() and its options, each on a server of its own. */
@DisplayName("KapiServer.builder()")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KapiServerBuilderTest {

    private static final String SELF_REVIEW = """
            {"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}""";

    @Test
    @DisplayName("start returns a ready server on 127.0.0.1 with a kubeconfig (string and file) and its CA; close removes all")
    void startAndClose() throws Exception {
        KapiServer kapi = KapiServer.builder().start();
        try (Https admin = Https.admin(kapi)) {
            assertTrue(kapi.url().startsWith("https://127.0.0.1:"), kapi.url());
            HttpResponse<String> ready = admin.get("/readyz?verbose");
            assertEquals(200, ready.statusCode(), ready.body());
            assertFalse(ready.body().contains("[-]"), ready.body());
            assertEquals(kapi.kubeconfig(), Files.readString(kapi.kubeconfigFile()));
            assertTrue(kapi.kubeconfig().contains("server: " + kapi.url()));
            assertTrue(kapi.kubeconfigFile().startsWith(kapi.directory()));
            assertEquals(kapi.caCertificate().getSubjectX500Principal(), kapi.caCertificate().getIssuerX500Principal());
            assertTrue(kapi.caCertificatePem().startsWith("-----BEGIN CERTIFICATE-----"));
        } finally {
            kapi.close();
        }
        Cleanup.assertStopped(kapi.url(), kapi.directory());
        kapi.close(); // a second close is fine
    }

    @Test
    @DisplayName("authentication on (default): no certificate, 401; off: served as the admin user")
    void authentication() throws Exception {
        try (KapiServer kapi = KapiServer.builder().start(); Https anonymous = Https.anonymous(kapi)) {
            assertEquals(401, anonymous.get("/api/v1/namespaces").statusCode());
            assertEquals(200, anonymous.get("/readyz").statusCode(), "health stays public");
        }
        try (KapiServer kapi = KapiServer.builder().authentication(false).start(); Https anonymous = Https.anonymous(kapi)) {
            assertEquals(200, anonymous.get("/api/v1/namespaces").statusCode());
            HttpResponse<String> review = anonymous.post("/apis/authentication.k8s.io/v1/selfsubjectreviews", SELF_REVIEW);
            JsonNode user = Json.MAPPER.readTree(review.body()).path("status").path("userInfo");
            assertEquals("kubernetes-admin", user.path("username").asText(), review.body());
            assertTrue(user.path("groups").toString().contains("system:masters"), review.body());
        }
    }

    @Test
    @DisplayName("authorization modes are passed through by name: AlwaysDeny forbids (system:masters excepted, as in "
            + "kube-apiserver), an unknown name is refused")
    void authorizationModes() throws Exception {
        try (KapiServer kapi = KapiServer.builder().authorizationModes("AlwaysDeny").start(); Https admin = Https.admin(kapi)) {
            HttpResponse<String> denied = admin.getAs("jane", "/api/v1/namespaces");
            assertEquals(403, denied.statusCode(), denied.body());
            assertEquals("Forbidden", Json.MAPPER.readTree(denied.body()).path("reason").asText());
            assertEquals(200, admin.get("/api/v1/namespaces").statusCode(), "system:masters is allowed before every mode");
            try (Https anonymous = Https.anonymous(kapi)) {
                HttpResponse<String> forbidden = anonymous.get("/api/v1/namespaces");
                assertEquals(403, forbidden.statusCode(), "anonymous auth is on unless the mode is AlwaysAllow, as in "
                        + "kube-apiserver: the anonymous user is authenticated, then denied: " + forbidden.body());
                assertTrue(forbidden.body().contains("User \\\"system:anonymous\\\" cannot list resource "
                        + "\\\"namespaces\\\""), forbidden.body());
            }
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KapiServer.builder().authorizationModes("RBAC", "Nope").start());
        assertEquals("authorization-mode \"Nope\" is not a valid mode", e.getMessage());
    }

    @Test
    @DisplayName("RBAC and Node as in kube-apiserver: another user (impersonated by the admin) is forbidden until a "
            + "RoleBinding grants it")
    void rbac() {
        try (KapiServer kapi = KapiServer.builder().authorizationModes("Node", "RBAC").start();
             KubernetesClient admin = Fabric8Clients.client(kapi);
             KubernetesClient jane = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
                     new io.fabric8.kubernetes.client.ConfigBuilder(Fabric8Clients.config(kapi, "default"))
                             .withImpersonateUsername("jane").build()).build()) {
            KubernetesClientException forbidden = assertThrows(KubernetesClientException.class,
                    () -> jane.configMaps().list());
            assertEquals(403, forbidden.getCode());
            assertTrue(forbidden.getMessage().contains("configmaps is forbidden: User \"jane\" cannot list resource "
                    + "\"configmaps\" in API group \"\" in the namespace \"default\""), forbidden.getMessage());
            admin.rbac().roles().resource(new io.fabric8.kubernetes.api.model.rbac.RoleBuilder()
                    .withNewMetadata().withName("reader").endMetadata()
                    .addNewRule().withApiGroups("").withResources("configmaps").withVerbs("list").endRule().build()).create();
            admin.rbac().roleBindings().resource(new io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder()
                    .withNewMetadata().withName("jane-reads").endMetadata()
                    .withNewRoleRef("rbac.authorization.k8s.io", "Role", "reader")
                    .addNewSubject().withApiGroup("rbac.authorization.k8s.io").withKind("User").withName("jane").endSubject()
                    .build()).create();
            admin.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("visible").endMetadata().build())
                    .create();
            // the authorizer sees the binding through its informers, a moment after the write (as kube's does)
            Await.atMost(Duration.ofSeconds(30)).until("jane listing configmaps once bound", () -> {
                try {
                    return jane.configMaps().list().getItems().stream()
                            .anyMatch(c -> c.getMetadata().getName().equals("visible"));
                } catch (KubernetesClientException e) {
                    return false;
                }
            });
            assertThrows(KubernetesClientException.class, () -> jane.configMaps().inNamespace("kube-system").list());
        }
    }

    @Test
    @DisplayName("admission plugins by kube's names: without NamespaceLifecycle a namespace need not exist")
    void admissionPlugins() {
        var orphan = new ConfigMapBuilder().withNewMetadata().withName("c").withNamespace("nowhere").endMetadata().build();
        try (KapiServer kapi = KapiServer.builder().start(); KubernetesClient client = Fabric8Clients.client(kapi)) {
            KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                    () -> client.configMaps().resource(orphan).create());
            assertEquals(404, refused.getCode());
            assertTrue(refused.getMessage().contains("namespaces \"nowhere\" not found"), refused.getMessage());
        }
        try (KapiServer kapi = KapiServer.builder().disableAdmissionPlugins("NamespaceLifecycle").start();
             KubernetesClient client = Fabric8Clients.client(kapi)) {
            assertEquals("nowhere", client.configMaps().resource(orphan).create().getMetadata().getNamespace());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KapiServer.builder().enableAdmissionPlugins("Nope").start());
        assertEquals("enable-admission-plugins plugin \"Nope\" is unknown", e.getMessage());
    }

    @Test
    @DisplayName("standalone controllers on: namespaces get their default service account and finish deleting")
    void standaloneControllers() {
        try (KapiServer kapi = KapiServer.builder().start(); KubernetesClient client = Fabric8Clients.client(kapi)) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build()).create();
            client.serviceAccounts().inNamespace("team").withName("default").waitUntilCondition(sa -> sa != null, 60, TimeUnit.SECONDS);
            client.namespaces().withName("team").delete();
            client.namespaces().withName("team").waitUntilCondition(ns -> ns == null, 60, TimeUnit.SECONDS);
        }
    }

    @Test
    @DisplayName("controllers(\"*\") adds the workload controllers: a Deployment gets its ReplicaSet and Pods; the default has none")
    void workloadControllers() {
        var deployment = new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder().withNewMetadata().withName("web")
                .endMetadata().withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", "web").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata().withNewSpec()
                .addNewContainer().withName("c").withImage("nginx").endContainer().endSpec().endTemplate().endSpec().build();
        try (KapiServer kapi = KapiServer.builder().controllers("*").start();
             KubernetesClient client = Fabric8Clients.client(kapi)) {
            client.apps().deployments().inNamespace("default").resource(deployment).create();
            Await.atMost(Duration.ofSeconds(60)).every(Duration.ofMillis(100)).until("2 pods",
                    () -> client.pods().inNamespace("default").withLabel("app", "web").list().getItems().size() == 2);
            assertEquals(1, client.apps().replicaSets().inNamespace("default").list().getItems().size());
        }
        try (KapiServer kapi = KapiServer.builder().start(); KubernetesClient client = Fabric8Clients.client(kapi)) {
            client.apps().deployments().inNamespace("default").resource(deployment).create();
            assertTrue(client.apps().replicaSets().inNamespace("default").list().getItems().isEmpty());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KapiServer.builder().controllers("replicasets").start());
        assertEquals("controllers: \"replicasets\" is not in the list of known controllers", e.getMessage());
    }

    @Test
    @DisplayName("scheduler(true) binds a Pod to a Ready Node the test creates; without it the Pod stays Pending")
    void scheduler() throws InterruptedException {
        var node = new io.fabric8.kubernetes.api.model.NodeBuilder().withNewMetadata().withName("worker").endMetadata()
                .build();
        var pod = new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withName("web").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("nginx").endContainer().endSpec().build();
        try (KapiServer kapi = KapiServer.builder().scheduler(true).start();
             KubernetesClient client = Fabric8Clients.client(kapi)) {
            client.nodes().resource(node).create();
            client.nodes().withName("worker").editStatus(n -> new io.fabric8.kubernetes.api.model.NodeBuilder(n)
                    .editOrNewStatus().addToAllocatable("cpu", new io.fabric8.kubernetes.api.model.Quantity("2"))
                    .addToAllocatable("memory", new io.fabric8.kubernetes.api.model.Quantity("4Gi"))
                    .addToAllocatable("pods", new io.fabric8.kubernetes.api.model.Quantity("110")).endStatus().build());
            client.nodes().withName("worker").edit(n -> new io.fabric8.kubernetes.api.model.NodeBuilder(n)
                    .editSpec().withTaints().endSpec().build()); // the not-ready taint a node controller takes off
            client.pods().inNamespace("default").resource(pod).create();
            Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(50)).until("bound", () -> "worker".equals(
                    client.pods().inNamespace("default").withName("web").get().getSpec().getNodeName()));
        }
        try (KapiServer kapi = KapiServer.builder().start(); KubernetesClient client = Fabric8Clients.client(kapi)) {
            client.nodes().resource(node).create();
            client.pods().inNamespace("default").resource(pod).create();
            Thread.sleep(1000);
            assertEquals(null, client.pods().inNamespace("default").withName("web").get().getSpec().getNodeName());
        }
    }

    @Test
    @DisplayName("standalone controllers off: a bare API server, nothing acts on namespaces")
    void bareApiServer() throws InterruptedException {
        try (KapiServer kapi = KapiServer.builder().standaloneControllers(false).start();
             KubernetesClient client = Fabric8Clients.client(kapi)) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build()).create();
            client.namespaces().withName("team").delete();
            long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            while (System.nanoTime() < deadline) {
                assertTrue(client.namespaces().withName("team").get().getMetadata().getDeletionTimestamp() != null,
                        "without the namespace controller a deleted namespace stays Terminating");
                Thread.sleep(100);
            }
            assertTrue(client.serviceAccounts().inNamespace("team").list().getItems().isEmpty());
        }
    }

    @Test
    @DisplayName("embedded storage works in the server's directory; snapshots need the memory backend")
    void embedded() {
        KapiServer kapi = KapiServer.builder().storage(StorageBackend.EMBEDDED).start();
        try (KubernetesClient client = Fabric8Clients.client(kapi)) {
            client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("kept").endMetadata().build()).create();
            assertTrue(Files.isDirectory(kapi.directory().resolve("store")));
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, kapi::snapshot);
            assertTrue(e.getMessage().contains("memory storage backend"), e.getMessage());
        } finally {
            kapi.close();
        }
        Cleanup.assertStopped(kapi.url(), kapi.directory());
    }

    @Test
    @DisplayName("a fixed port is used as given, and a second server cannot take it")
    void port() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        try (KapiServer kapi = KapiServer.builder().port(port).start()) {
            assertEquals(port, kapi.port());
            IllegalStateException taken = assertThrows(IllegalStateException.class,
                    () -> KapiServer.builder().port(port).start());
            assertTrue(taken.getMessage().contains("cannot listen"), taken.getMessage());
        }
    }
}
