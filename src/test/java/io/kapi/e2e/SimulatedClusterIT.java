package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.KubernetesListBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.readiness.Readiness;
import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A whole cluster's behaviour in one {@code bin/kapi}: three simulated nodes, with which the scheduler and the
 * workload controllers run by default ({@code --simulated-nodes=3}, under Node and RBAC authorization), driven by the real
 * kubectl and fabric8's client as a user drives a cluster. The fabric8 cases are its own integration tests that
 * wait for readiness ({@code WaitUntilReadyIT}, {@code DeploymentIT#waitTest}, {@code ServiceIT#waitUntilReady},
 * {@code PodIT#listFromServer}), written again here.
 */
@DisplayName("simulated nodes, scheduler and controllers: a cluster in one process")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class SimulatedClusterIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--simulated-nodes=3", "--authorization-mode=Node,RBAC");

    private static final Await WAIT = Await.atMost(Duration.ofSeconds(60)).every(Duration.ofMillis(100));
    private static final String NS = "cluster";

    @BeforeAll
    static void namespace() {
        KAPI.kubectl().run("create", "namespace", NS).assertOk();
        WAIT.until("three Ready nodes", () -> kubectl("get", "nodes", "-o",
                "jsonpath={range .items[*]}{.status.conditions[?(@.type==\"Ready\")].status}{\"\\n\"}{end}")
                .assertOk().stdout().strip().equals("True\nTrue\nTrue"));
        // pods need the namespace's default ServiceAccount
        WAIT.until("the default ServiceAccount", () -> kubectl("get", "serviceaccount", "default").exitCode() == 0);
    }

    private static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().runIn(NS, args);
    }

    private static KubernetesClient fabric8() {
        return KAPI.fabric8();
    }

    @Test
    @DisplayName("under RBAC, the namespaces that exist at start get their default ServiceAccount and root CA at once")
    void startNamespacesServed() {
        // RBAC sees the controllers' bootstrap bindings through its informers: a first write refused before that
        // is retried, as kube's controllers retry (it used to be dropped, leaving default without its account)
        for (String ns : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
            WAIT.until("the default ServiceAccount of " + ns, () -> KAPI.kubectl().run("get", "serviceaccount",
                    "default", "-n", ns).exitCode() == 0);
            WAIT.until("kube-root-ca.crt in " + ns, () -> KAPI.kubectl().run("get", "configmap", "kube-root-ca.crt",
                    "-n", ns).exitCode() == 0);
        }
    }

    @Test
    @DisplayName("kubectl create deployment, rollout status: three Pods Running on the three nodes")
    void deploymentRollsOut() {
        kubectl("create", "deployment", "web", "--image=nginx", "--replicas=3").assertOk();
        kubectl("rollout", "status", "deployment/web", "--timeout=60s").assertOk();
        String wide = kubectl("get", "pods", "-l", "app=web", "-o", "wide").assertOk().stdout();
        String[] rows = wide.strip().split("\n");
        assertEquals(4, rows.length, wide);
        HashSet<String> nodes = new HashSet<>();
        for (int i = 1; i < rows.length; i++) {
            String[] cols = rows[i].trim().split("\\s+");
            assertEquals("1/1", cols[1], wide);
            assertEquals("Running", cols[2], wide);
            assertTrue(cols[6].startsWith("kapi-node-"), wide);
            nodes.add(cols[6]);
        }
        assertEquals(3, nodes.size(), "one Pod per node, as kube-scheduler's spreading places them:\n" + wide);
    }

    @Test
    @DisplayName("a StatefulSet, a DaemonSet and a Job run to completion")
    void workloadsComplete() {
        KAPI.kubectl().runWithInput("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: cluster}
                spec:
                  serviceName: db
                  replicas: 2
                  selector: {matchLabels: {app: db}}
                  template:
                    metadata: {labels: {app: db}}
                    spec: {containers: [{name: db, image: postgres}]}
                ---
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: agent, namespace: cluster}
                spec:
                  selector: {matchLabels: {app: agent}}
                  template:
                    metadata: {labels: {app: agent}}
                    spec: {containers: [{name: agent, image: busybox}]}
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: batch, namespace: cluster}
                spec:
                  completions: 2
                  parallelism: 2
                  template:
                    metadata: {annotations: {kapi.dev/simulate-run-for: 1s}}
                    spec:
                      restartPolicy: Never
                      containers: [{name: work, image: busybox}]
                """, "apply", "-f", "-").assertOk();
        kubectl("rollout", "status", "statefulset/db", "--timeout=60s").assertOk();
        kubectl("rollout", "status", "daemonset/agent", "--timeout=60s").assertOk();
        assertEquals("3", kubectl("get", "daemonset", "agent", "-o", "jsonpath={.status.numberReady}").assertOk()
                .stdout().strip());
        kubectl("wait", "--for=condition=complete", "job/batch", "--timeout=60s").assertOk();
        assertEquals("2", kubectl("get", "job", "batch", "-o", "jsonpath={.status.succeeded}").assertOk().stdout().strip());
    }

    @Test
    @DisplayName("a PodDisruptionBudget blocks an eviction that would break it")
    void budgetBlocksEviction() {
        kubectl("create", "deployment", "guarded", "--image=nginx", "--replicas=2").assertOk();
        kubectl("create", "poddisruptionbudget", "guarded", "--selector=app=guarded", "--min-available=2").assertOk();
        kubectl("rollout", "status", "deployment/guarded", "--timeout=60s").assertOk();
        WAIT.until("the budget counts two healthy Pods", () -> kubectl("get", "pdb", "guarded", "-o",
                "jsonpath={.status.currentHealthy}").assertOk().stdout().strip().equals("2"));
        String pod = kubectl("get", "pods", "-l", "app=guarded", "-o", "jsonpath={.items[0].metadata.name}").assertOk()
                .stdout().strip();
        assertFalse(fabric8().pods().inNamespace(NS).withName(pod).evict(), "the eviction is refused (429)");
        kubectl("get", "pod", pod).assertOk();
    }

    @Test
    @DisplayName("an unschedulable Pod: PodScheduled False with kube's message and a FailedScheduling event")
    void unschedulable() {
        KAPI.kubectl().runWithInput("""
                apiVersion: v1
                kind: Pod
                metadata: {name: nowhere, namespace: cluster}
                spec:
                  nodeSelector: {disk: none}
                  containers: [{name: c, image: nginx}]
                """, "apply", "-f", "-").assertOk();
        String expected = "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.";
        WAIT.until("the scheduler's verdict", () -> kubectl("get", "pod", "nowhere", "-o",
                "jsonpath={.status.conditions[?(@.type==\"PodScheduled\")].message}").assertOk().stdout()
                .startsWith(expected));
        assertEquals("False Unschedulable", kubectl("get", "pod", "nowhere", "-o",
                "jsonpath={.status.conditions[?(@.type==\"PodScheduled\")].status} "
                        + "{.status.conditions[?(@.type==\"PodScheduled\")].reason}").assertOk().stdout().strip());
        WAIT.until("the event", () -> kubectl("describe", "pod", "nowhere").assertOk().stdout()
                .contains("Warning  FailedScheduling"));
        assertTrue(kubectl("describe", "pod", "nowhere").stdout().contains(expected));
    }

    @Test
    @DisplayName("fabric8 WaitUntilReadyIT: Pods with init containers and a Secret, waited for as one list")
    void fabric8WaitUntilReady() throws Exception {
        KubernetesClient client = fabric8();
        Pod p1 = client.pods().inNamespace(NS).resource(waitPod("p1", "myapp-container", "init-myservice")).create();
        Pod p2 = client.pods().inNamespace(NS).resource(waitPod("p2", "myapp2-container", "init2-mypod")).create();
        Secret secret = client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata()
                .withName("my-secret").addToLabels("test", "WaitUntilReadyIT").endMetadata().withType("Opaque")
                .addToData("username", "YWRtaW4=").build()).create();
        client.resourceList(new KubernetesListBuilder().withItems(p1, p2, secret).build()).inNamespace(NS)
                .waitUntilReady(60, TimeUnit.SECONDS);
        assertEquals(1, client.pods().inNamespace(NS).withName("p1").withGracePeriod(0L).delete().size());
        assertEquals(1, client.pods().inNamespace(NS).withName("p2").withGracePeriod(0L).delete().size());
        var gone = client.pods().inNamespace(NS).withLabel("test", "WaitUntilReadyIT")
                .informOnCondition(Collection::isEmpty);
        try {
            gone.get(60, TimeUnit.SECONDS);
        } finally {
            gone.cancel(true);
        }
    }

    private static Pod waitPod(String name, String container, String init) {
        return new PodBuilder().withNewMetadata().withName(name).addToLabels("test", "WaitUntilReadyIT").endMetadata()
                .withNewSpec()
                .addNewContainer().withName(container).withImage("busybox")
                .withCommand("sh", "-c", "echo The app is running!; sleep 60").endContainer()
                .addNewInitContainer().withName(init).withImage("busybox")
                .withCommand("sh", "-c", "echo initializing...; sleep 1").endInitContainer()
                .endSpec().build();
    }

    @Test
    @DisplayName("fabric8 DeploymentIT#waitTest and PodIT#listFromServer: waitUntilReady, then Readiness agrees")
    void fabric8DeploymentAndPod() {
        KubernetesClient client = fabric8();
        client.apps().deployments().inNamespace(NS).resource(new DeploymentBuilder()
                .withNewMetadata().withName("deployment-wait").endMetadata()
                .withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", "wait").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "wait").endMetadata()
                .withNewSpec().addNewContainer().withName("nginx").withImage("nginx").endContainer().endSpec()
                .endTemplate().endSpec().build()).create();
        client.apps().deployments().inNamespace(NS).withName("deployment-wait").waitUntilReady(120, TimeUnit.SECONDS);
        Deployment ready = client.apps().deployments().inNamespace(NS).withName("deployment-wait").get();
        assertTrue(Readiness.isDeploymentReady(ready));

        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("pod-standard").endMetadata()
                .withNewSpec().addNewContainer().withName("nginx").withImage("nginx").endContainer().endSpec().build())
                .create();
        client.pods().inNamespace(NS).withName("pod-standard").waitUntilReady(60, TimeUnit.SECONDS);
        Pod pod = client.pods().inNamespace(NS).withName("pod-standard").get();
        List<HasMetadata> fromServer = client.resourceList(pod).get();
        assertEquals(1, fromServer.size());
        assertEquals("Pod", fromServer.getFirst().getKind());
        assertEquals(NS, fromServer.getFirst().getMetadata().getNamespace());
        assertTrue(Readiness.getInstance().isReady(pod));
    }

    @Test
    @DisplayName("fabric8 ServiceIT#waitUntilReady: a Service is ready once its Pod is an endpoint")
    void fabric8ServiceWaitUntilReady() {
        KubernetesClient client = fabric8();
        String name = "service-wait-until-ready";
        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name)
                .addToLabels("app", name).endMetadata().withNewSpec().addNewContainer().withName("nginx")
                .withImage("nginx").addNewPort().withContainerPort(80).endPort().endContainer().endSpec().build()).create();
        client.services().inNamespace(NS).resource(new ServiceBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withSelector(Map.of("app", name)).addNewPort().withPort(80)
                .withTargetPort(new IntOrString(80)).endPort().endSpec().build()).create();
        var service = client.services().inNamespace(NS).withName(name).waitUntilReady(10, TimeUnit.SECONDS);
        assertEquals(name, service.getMetadata().getName());
        assertEquals(1, client.pods().inNamespace(NS).withName(name).delete().size());
    }
}
