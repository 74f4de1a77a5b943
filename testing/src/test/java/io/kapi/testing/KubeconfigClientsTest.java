package io.kapi.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The server's kubeconfig (an EC admin key in SEC1 form) as a user hands it to each client: fabric8's
 * kubeconfig parser (which tells the key's kind from its PEM), the official client's, and kubectl.
 */
class KubeconfigClientsTest {

    private static KapiServer server;

    @BeforeAll
    static void start() {
        server = KapiServer.builder().start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    @DisplayName("fabric8 configured from the kubeconfig text alone authenticates as the admin")
    void fabric8FromKubeconfig() {
        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(server.kubeconfig())).build()) {
            assertTrue(client.namespaces().list().getItems().stream()
                    .anyMatch(n -> n.getMetadata().getName().equals("kube-system")));
        }
    }

    @Test
    @DisplayName("the official client configured from the kubeconfig authenticates as the admin")
    void officialClientFromKubeconfig() throws Exception {
        ApiClient client = JavaClients.apiClient(server);
        try {
            assertTrue(new CoreV1Api(client).listNamespace().execute().getItems().stream()
                    .anyMatch(n -> "default".equals(n.getMetadata().getName())));
        } finally {
            JavaClients.close(client);
        }
    }

    @Test
    @DisplayName("kubectl with the kubeconfig file is the admin")
    void kubectlWithKubeconfigFile() throws Exception {
        Process kubectl = new ProcessBuilder("kubectl", "--kubeconfig", server.kubeconfigFile().toString(),
                "auth", "whoami", "-o", "jsonpath={.status.userInfo.username}").redirectErrorStream(true).start();
        String out = new String(kubectl.getInputStream().readAllBytes());
        assertTrue(kubectl.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, kubectl.exitValue(), out);
        assertEquals("kubernetes-admin", out.strip());
    }
}
