package io.kapi.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The README's example: a Deployment created, seen through an informer, and changed by server-side apply. */
@KapiTest
class QuickStartTest {

    KubernetesClient client;

    @Test
    void deploymentThroughInformerAndApply() throws Exception {
        Deployment web = new DeploymentBuilder().withNewMetadata().withName("web").endMetadata()
                .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", "web").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
                .withNewSpec().addNewContainer().withName("web").withImage("nginx").endContainer().endSpec()
                .endTemplate().endSpec().build();
        client.apps().deployments().resource(web).create();
        try (SharedIndexInformer<Deployment> informer = client.apps().deployments().inform()) {
            informer.stopped(); // informer started and synced by inform()
            assertEquals("web", informer.getIndexer().list().getFirst().getMetadata().getName());
            web.getSpec().setReplicas(3);
            web.getMetadata().setManagedFields(null);
            client.apps().deployments().resource(web).fieldManager("quickstart").forceConflicts().serverSideApply();
            client.apps().deployments().withName("web").waitUntilCondition(d -> d.getSpec().getReplicas() == 3, 30, TimeUnit.SECONDS);
            Await.atMost(Duration.ofSeconds(30)).until("the informer sees 3 replicas",
                    () -> informer.getIndexer().getByKey("default/web").getSpec().getReplicas() == 3);
        }
    }
}
