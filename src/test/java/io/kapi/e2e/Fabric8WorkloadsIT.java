package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * fabric8's own integration tests that need kube-controller-manager's controllers, written again here against a
 * Kapi with {@code --controllers=*}: {@code DeleteIT}'s and {@code ResourceIT}'s orphan deletions (a Deployment
 * deleted with or without its ReplicaSets, recreated to adopt the orphan), {@code DeploymentIT#scale}
 * (status.replicas following the scale), {@code EndpointsIT} (a Service's Endpoints from its Deployment's ready
 * Pods; the test marks them Ready as a kubelet would, Kapi has none).
 */
@DisplayName("fabric8's workload integration tests")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class Fabric8WorkloadsIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--controllers=*", "--authorization-mode=Node,RBAC");

    static KubernetesClient client;

    @BeforeAll
    static void connect() throws Exception {
        Config config = Config.fromKubeconfig(Files.readString(KAPI.kapi().kubeconfigPath()));
        config.setClientKeyAlgo(KAPI.kapi().kubeconfig().clientKeyAlgorithm());
        client = new KubernetesClientBuilder().withConfig(config).build();
        for (String ns : List.of("f8-delete", "f8-resource", "f8-deployment", "f8-endpoints")) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                    .create();
        }
    }

    @AfterAll
    static void disconnect() {
        if (client != null) {
            client.close();
        }
    }

    /** ResourceIT's {@code initDeployment}: one replica, selected and labelled {@code run: <name>}. */
    private static Deployment deployment(String namespace, String name, int replicas) {
        return new DeploymentBuilder()
                .withMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace)
                        .withLabels(Map.of("test", name)).build())
                .withSpec(new DeploymentSpecBuilder()
                        .withReplicas(replicas)
                        .withNewSelector().withMatchLabels(Map.of("run", name)).endSelector()
                        .withTemplate(new PodTemplateSpecBuilder()
                                .withNewMetadata().withLabels(Map.of("run", name, "test", name)).endMetadata()
                                .withNewSpec()
                                .withTerminationGracePeriodSeconds(1L)
                                .addToContainers(new ContainerBuilder().withImage("busybox")
                                        .withCommand("sh", "-c", "sleep 60").withName(name)
                                        .addNewPort().withContainerPort(80).withName("http").endPort().build())
                                .endSpec()
                                .build())
                        .build())
                .build();
    }

    private static List<ReplicaSet> replicaSets(String namespace, String label, String value,
            java.util.function.Predicate<List<ReplicaSet>> condition) throws Exception {
        return client.apps().replicaSets().inNamespace(namespace).withLabel(label, value)
                .informOnCondition(condition).get(30, TimeUnit.SECONDS);
    }

    @Test
    @DisplayName("DeleteIT: deleting a Deployment (by name, and as a resource) with propagation Orphan leaves its ReplicaSet")
    void deleteItOrphan() throws Exception {
        String ns = "f8-delete";
        for (String name : List.of("deleteit-existent-orphan", "deleteit-resource-orphan")) {
            client.resource(deployment(ns, name, 1)).create();
            replicaSets(ns, "test", name, l -> l.size() == 1);
        }
        boolean deleted = !client.apps().deployments().inNamespace(ns).withName("deleteit-existent-orphan")
                .withPropagationPolicy(DeletionPropagation.ORPHAN).delete().isEmpty();
        List<ReplicaSet> left = client.apps().replicaSets().inNamespace(ns).withLabel("test", "deleteit-existent-orphan")
                .list().getItems();
        assertTrue(deleted);
        assertEquals(1, left.size());
        assertTrue(!client.resource(left.getFirst()).inNamespace(ns).delete().isEmpty());

        Deployment deploy = client.apps().deployments().inNamespace(ns).withName("deleteit-resource-orphan").get();
        deleted = !client.resource(deploy).inNamespace(ns).withPropagationPolicy(DeletionPropagation.ORPHAN).delete()
                .isEmpty();
        left = client.apps().replicaSets().inNamespace(ns).withLabel("test", "deleteit-resource-orphan").list().getItems();
        assertTrue(deleted);
        assertEquals(1, left.size());
        assertTrue(!client.resource(left.getFirst()).inNamespace(ns).delete().isEmpty());
    }

    @Test
    @DisplayName("ResourceIT: background deletion takes the ReplicaSet; a Deployment recreated gets a new one")
    void resourceItWithOrphanDeletion() throws Exception {
        String ns = "f8-resource";
        String name = "delete-existing-with-orphan-deletion";
        Resource<Deployment> resource = client.resource(deployment(ns, name, 1));
        resource.create();
        String uid = replicaSets(ns, "run", name, l -> l.size() == 1).getFirst().getMetadata().getUid();
        resource.withGracePeriod(0L).delete();
        resource.waitUntilCondition(Objects::isNull, 30, TimeUnit.SECONDS);
        replicaSets(ns, "run", name, List::isEmpty);
        resource.create();
        List<ReplicaSet> again = replicaSets(ns, "run", name, l -> l.size() == 1);
        assertNotEquals(uid, again.getFirst().getMetadata().getUid());
        assertEquals(1, resource.withGracePeriod(0L).delete().size());
        replicaSets(ns, "run", name, List::isEmpty);
    }

    @Test
    @DisplayName("ResourceIT: orphan deletion keeps the ReplicaSet, and the Deployment recreated adopts it")
    void resourceItWithoutOrphanDeletion() throws Exception {
        String ns = "f8-resource";
        String name = "delete-existing-without-orphan-deletion";
        Resource<Deployment> resource = client.resource(deployment(ns, name, 1));
        resource.create();
        String uid = replicaSets(ns, "run", name, l -> l.size() == 1).getFirst().getMetadata().getUid();
        resource.withPropagationPolicy(DeletionPropagation.ORPHAN).withGracePeriod(0L).delete();
        resource.waitUntilCondition(Objects::isNull, 30, TimeUnit.SECONDS);
        resource.create();
        List<ReplicaSet> kept = replicaSets(ns, "run", name, l -> l.size() == 1);
        assertEquals(uid, kept.getFirst().getMetadata().getUid());
        assertEquals(1, resource.withPropagationPolicy(DeletionPropagation.FOREGROUND).withGracePeriod(0L).delete()
                .size());
        replicaSets(ns, "run", name, List::isEmpty);
    }

    @Test
    @DisplayName("ResourceIT: Background deletes the children, Orphan leaves them alive")
    void resourceItDeletions() throws Exception {
        String ns = "f8-resource";
        Deployment background = deployment(ns, "delete-with-orphan-deletion", 1);
        client.resource(background).create();
        replicaSets(ns, "run", "delete-with-orphan-deletion", l -> l.size() == 1);
        assertEquals(1, client.resource(background).withPropagationPolicy(DeletionPropagation.BACKGROUND).delete().size());
        replicaSets(ns, "run", "delete-with-orphan-deletion", List::isEmpty);

        Deployment orphan = deployment(ns, "delete-without-orphan-deletion", 1);
        client.resource(orphan).create();
        replicaSets(ns, "run", "delete-without-orphan-deletion", l -> l.size() == 1);
        assertEquals(1, client.resource(orphan).withPropagationPolicy(DeletionPropagation.ORPHAN).delete().size());
        client.apps().deployments().inNamespace(ns).withLabel("run", "delete-without-orphan-deletion")
                .informOnCondition(List::isEmpty).get(60, TimeUnit.SECONDS);
        replicaSets(ns, "run", "delete-without-orphan-deletion", l -> l.size() == 1);
        client.apps().replicaSets().inNamespace(ns).withLabel("run", "delete-without-orphan-deletion")
                .withGracePeriod(0L).delete();
    }

    private static Deployment scaled(String ns, String name, int replicas) {
        client.apps().deployments().inNamespace(ns).withName(name).scale(replicas);
        return client.apps().deployments().inNamespace(ns).withName(name).waitUntilCondition(d -> d.getStatus() != null
                && Optional.ofNullable(d.getStatus().getReplicas()).orElse(0) == replicas, 30, TimeUnit.SECONDS);
    }

    @Test
    @DisplayName("DeploymentIT#scale: status.replicas follows scale to 5, 1 and 0")
    void deploymentItScale() {
        String ns = "f8-deployment";
        client.resource(deployment(ns, "deployment-standard", 1)).create();
        assertEquals(5, scaled(ns, "deployment-standard", 5).getStatus().getReplicas());
        assertEquals(1, scaled(ns, "deployment-standard", 1).getStatus().getReplicas());
        assertEquals(0, Optional.ofNullable(scaled(ns, "deployment-standard", 0).getStatus().getReplicas()).orElse(0));
        assertEquals(0, client.apps().deployments().inNamespace(ns).withName("deployment-standard").scale()
                .getStatus().getReplicas());
    }

    @Test
    @DisplayName("EndpointsIT: a Service without ready Pods has no subsets; one with a ready Deployment one subset")
    void endpointsIt() throws Exception {
        String ns = "f8-endpoints";
        for (String name : List.of("endpoints-with-subsets", "endpoints-with-no-subsets")) {
            client.resource(new ServiceBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                    .withNewSpec().addToSelector("run", name).addNewPort().withName("http").withProtocol("TCP")
                    .withPort(1337).endPort().endSpec().build()).create();
        }
        Deployment d = deployment(ns, "endpoints-with-subsets", 1);
        d.getSpec().getTemplate().getSpec().getContainers().getFirst().getPorts().getFirst().setContainerPort(1337);
        client.resource(d).create();
        Pod pod = client.pods().inNamespace(ns).withLabel("run", "endpoints-with-subsets")
                .informOnCondition(l -> l.size() == 1).get(30, TimeUnit.SECONDS).getFirst();
        // the kubelet Kapi does not have: Running, Ready, an IP
        client.pods().inNamespace(ns).withName(pod.getMetadata().getName()).editStatus(p -> {
            p.getStatus().setPhase("Running");
            p.getStatus().setPodIP("10.244.1.7");
            p.getStatus().setPodIPs(List.of(new io.fabric8.kubernetes.api.model.PodIP("10.244.1.7")));
            p.getStatus().setConditions(List.of(new io.fabric8.kubernetes.api.model.PodConditionBuilder()
                    .withType("Ready").withStatus("True").withLastTransitionTime("2026-01-01T00:00:00Z").build()));
            return p;
        });
        client.apps().deployments().inNamespace(ns).withName("endpoints-with-subsets").waitUntilReady(30, TimeUnit.SECONDS);
        Endpoints with = client.endpoints().inNamespace(ns).withName("endpoints-with-subsets")
                .waitUntilCondition(e -> e != null && e.getSubsets() != null && e.getSubsets().size() == 1, 30,
                        TimeUnit.SECONDS);
        assertEquals(1, with.getSubsets().getFirst().getPorts().size());
        var port = with.getSubsets().getFirst().getPorts().getFirst();
        assertEquals("http/TCP/1337", port.getName() + "/" + port.getProtocol() + "/" + port.getPort());

        Endpoints without = client.endpoints().inNamespace(ns).withName("endpoints-with-no-subsets")
                .waitUntilCondition(Objects::nonNull, 30, TimeUnit.SECONDS);
        assertEquals("endpoints-with-no-subsets", without.getMetadata().getName());
        assertTrue(without.getSubsets() == null || without.getSubsets().isEmpty(), without.toString());
        assertEquals(List.of("endpoints-with-no-subsets", "endpoints-with-subsets"), client.endpoints().inNamespace(ns)
                .list().getItems().stream().map(e -> e.getMetadata().getName()).sorted().toList());
    }
}
