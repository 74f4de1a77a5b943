package io.kapi.testing.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kapi.fixtures.Await;
import io.kapi.testing.KapiTest;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The sample operator in a whole simulated cluster: with three simulated nodes the test server runs the scheduler
 * and the workload controllers, so the Deployment the operator applies gets its ReplicaSet and Pods, which are
 * scheduled, run and become Ready, and the operator's test can wait for what a real cluster reports: the
 * Deployment Available.
 */
@KapiTest(simulatedNodes = 3)
@DisplayName("sample operator on a simulated cluster")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class WebAppOperatorClusterTest {

    KubernetesClient client;

    @Test
    @DisplayName("an app's Deployment becomes Available: its Pods scheduled on the simulated nodes and Ready")
    void deploymentAvailable() throws InterruptedException {
        try (WebAppOperator operator = new WebAppOperator(client).start()) {
            client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("shop")
                    .addToLabels(WebAppOperator.APP_LABEL, "true").endMetadata()
                    .withData(Map.of("image", "nginx:1.27", "replicas", "3")).build()).create();
            Await.atMost(Duration.ofSeconds(60)).every(Duration.ofMillis(50)).until("the Deployment Available", () -> {
                Deployment d = client.apps().deployments().withName("shop").get();
                return d != null && d.getStatus() != null && d.getStatus().getConditions() != null
                        && d.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Available")
                        && c.getStatus().equals("True"));
            });
            Deployment d = client.apps().deployments().withName("shop").get();
            assertEquals(3, d.getStatus().getAvailableReplicas());
            assertEquals(3, client.pods().withLabel("app", "shop").list().getItems().stream()
                    .filter(p -> p.getSpec().getNodeName() != null && p.getSpec().getNodeName().startsWith("kapi-node-")
                            && p.getStatus().getPhase().equals("Running"))
                    .count());
        }
    }
}
