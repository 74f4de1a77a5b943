package io.kapi.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.readiness.Readiness;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code @KapiTest(simulatedNodes = 2)}: Ready nodes whose simulated kubelets run the Pods bound to them. */
@KapiTest(simulatedNodes = 2)
class SimulatedNodesTest {

    KubernetesClient client;

    @Test
    @DisplayName("two Ready nodes; a Pod bound to one becomes Ready, which fabric8's waitUntilReady sees")
    void podBecomesReady() {
        List<String> nodes = client.nodes().list().getItems().stream().map(n -> n.getMetadata().getName()).toList();
        assertEquals(List.of("kapi-node-0", "kapi-node-1"), nodes);
        assertTrue(client.nodes().list().getItems().stream().allMatch(Readiness::isNodeReady));
        Pod pod = new PodBuilder().withNewMetadata().withName("web").endMetadata()
                .withNewSpec().withNodeName("kapi-node-1").addNewContainer().withName("web").withImage("nginx")
                .endContainer().endSpec().build();
        client.pods().resource(pod).create();
        Pod ready = client.pods().withName("web").waitUntilReady(20, TimeUnit.SECONDS);
        assertEquals("Running", ready.getStatus().getPhase());
        assertTrue(ready.getStatus().getPodIP().startsWith("10.244.1."), ready.getStatus().getPodIP());
    }
}
