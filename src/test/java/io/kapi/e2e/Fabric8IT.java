package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The fabric8 Kubernetes client (JDK HTTP transport), unchanged, against Kapi: typed CRUD, watch, informer. */
@DisplayName("fabric8 Kubernetes client")
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a hung request or watch fails one test, not the suite
final class Fabric8IT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    static final String NS = "fabric8";
    static KubernetesClient client;

    /**
     * fabric8 takes a PKCS#8 client key ({@code BEGIN PRIVATE KEY}) for RSA unless told otherwise; the
     * shared client is told the key's real algorithm so that the other tests run, and
     * {@link #kubeconfigAsIs()} shows whether the untouched kubeconfig works.
     */
    @BeforeAll
    static void connect() throws Exception {
        Config config = Config.fromKubeconfig(Files.readString(KAPI.kapi().kubeconfigPath()));
        config.setClientKeyAlgo(KAPI.kapi().kubeconfig().clientKeyAlgorithm());
        client = new KubernetesClientBuilder().withConfig(config).build();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).create();
    }

    @AfterAll
    static void disconnect() {
        if (client != null) {
            client.close();
        }
    }

    private static ConfigMap configMap(String name, String value) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
                .withData(Map.of("k", value)).build();
    }

    @Test
    @DisplayName("the admin kubeconfig works with fabric8 as it is (key format fabric8 can read)")
    void kubeconfigAsIs() throws Exception {
        Config config = Config.fromKubeconfig(Files.readString(KAPI.kapi().kubeconfigPath()));
        try (KubernetesClient plain = new KubernetesClientBuilder().withConfig(config).build()) {
            assertNotNull(plain.namespaces().withName("default").get());
        }
    }

    @Test
    @DisplayName("create, get, edit, list and delete a configmap")
    void crud() {
        ConfigMap created = client.configMaps().inNamespace(NS).resource(configMap("f1", "one")).create();
        assertNotNull(created.getMetadata().getUid());
        assertEquals("one", client.configMaps().inNamespace(NS).withName("f1").get().getData().get("k"));
        ConfigMap edited = client.configMaps().inNamespace(NS).withName("f1").edit(cm -> {
            cm.getData().put("k", "two");
            return cm;
        });
        assertEquals("two", edited.getData().get("k"));
        assertTrue(client.configMaps().inNamespace(NS).list().getItems().stream()
                .anyMatch(cm -> cm.getMetadata().getName().equals("f1")));
        assertEquals(1, client.configMaps().inNamespace(NS).withName("f1").delete().size());
        assertNull(client.configMaps().inNamespace(NS).withName("f1").get(), "get of a deleted object is null (404)");
    }

    @Test
    @DisplayName("create of an existing name throws with code 409 and reason AlreadyExists")
    void alreadyExists() {
        client.configMaps().inNamespace(NS).resource(configMap("f2", "a")).create();
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> client.configMaps().inNamespace(NS).resource(configMap("f2", "a")).create());
        assertEquals(409, e.getCode());
        assertEquals("AlreadyExists", e.getStatus().getReason());
    }

    @Test
    @DisplayName("a deployment round-trips with server defaults filled in")
    void deployment() {
        Deployment d = new DeploymentBuilder().withNewMetadata().withName("fweb").withNamespace(NS).endMetadata()
                .withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", "fweb").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "fweb").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("nginx:1.27").endContainer().endSpec()
                .endTemplate().endSpec().build();
        Deployment created = client.apps().deployments().inNamespace(NS).resource(d).create();
        assertEquals("RollingUpdate", created.getSpec().getStrategy().getType());
        assertEquals(1L, created.getMetadata().getGeneration());
        assertEquals(2, client.apps().deployments().inNamespace(NS).withName("fweb").get().getSpec().getReplicas());
    }

    @Test
    @DisplayName("server-side apply creates and then updates a configmap")
    void serverSideApply() {
        ConfigMap applied = client.configMaps().inNamespace(NS).resource(configMap("ssa", "v1"))
                .fieldManager("e2e").forceConflicts().serverSideApply();
        assertEquals("v1", applied.getData().get("k"));
        ConfigMap again = client.configMaps().inNamespace(NS).resource(configMap("ssa", "v2"))
                .fieldManager("e2e").forceConflicts().serverSideApply();
        assertEquals("v2", again.getData().get("k"));
        assertTrue(again.getMetadata().getManagedFields().stream().anyMatch(m -> "e2e".equals(m.getManager())
                && "Apply".equals(m.getOperation())), again.getMetadata().getManagedFields().toString());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS) // fabric8's watch() blocks until the server sends headers
    @DisplayName("a watch sees ADDED, MODIFIED and DELETED in order")
    void watch() throws Exception {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        try (Watch ignored = client.configMaps().inNamespace(NS).withName("watched").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, ConfigMap cm) {
                events.add(action + " " + cm.getData().get("k"));
            }

            @Override
            public void onClose(WatcherException cause) {
                events.add("CLOSED " + cause);
            }
        })) {
            client.configMaps().inNamespace(NS).resource(configMap("watched", "a")).create();
            client.configMaps().inNamespace(NS).withName("watched").edit(cm -> {
                cm.getData().put("k", "b");
                return cm;
            });
            client.configMaps().inNamespace(NS).withName("watched").delete();
            List<String> expected = List.of("ADDED a", "MODIFIED b", "DELETED b");
            for (String want : expected) {
                assertEquals(want, events.poll(10, TimeUnit.SECONDS), "events so far: " + events);
            }
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    @DisplayName("an informer lists existing objects, then receives adds through its watch")
    void informer() throws Exception {
        client.configMaps().inNamespace(NS).resource(configMap("before-informer", "x")).create();
        CountDownLatch sawExisting = new CountDownLatch(1);
        CountDownLatch sawNew = new CountDownLatch(1);
        SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(NS).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap cm) {
                switch (cm.getMetadata().getName()) {
                    case "before-informer" -> sawExisting.countDown();
                    case "after-informer" -> sawNew.countDown();
                    default -> { }
                }
            }

            @Override
            public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
            }

            @Override
            public void onDelete(ConfigMap cm, boolean deletedFinalStateUnknown) {
            }
        });
        try {
            assertTrue(sawExisting.await(10, TimeUnit.SECONDS), "initial list delivered");
            client.configMaps().inNamespace(NS).resource(configMap("after-informer", "y")).create();
            assertTrue(sawNew.await(10, TimeUnit.SECONDS), "watch delivered the add");
            assertTrue(informer.hasSynced());
        } finally {
            informer.close();
        }
    }

    /**
     * fabric8 tries a WebSocket first and retried a 503 ten times with back-off (about 19 s before every
     * watch). The first informer of a JVM also loads and links fabric8's and the JDK's WebSocket code
     * (about 0.6 s on an idle machine), so that one gets 5 s; the next must see its first live event
     * within a second of starting.
     */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    @DisplayName("an informer sees its first event within a second of starting (its watch goes over WebSocket at once)")
    void informerStartsInASecond() throws Exception {
        long cold = informerFirstLiveEventMillis("informer-cold");
        assertTrue(cold < 5000, "first informer of the client: first live event after " + cold + " ms");
        long warm = informerFirstLiveEventMillis("informer-warm");
        assertTrue(warm < 1000, "first live event " + warm + " ms after the informer started");
    }

    /** Starts an informer, creates {@code name}, and returns the time from the start to its onAdd. */
    private static long informerFirstLiveEventMillis(String name) throws Exception {
        CountDownLatch sawLive = new CountDownLatch(1);
        long start = System.nanoTime();
        SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(NS).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap cm) {
                if (cm.getMetadata().getName().equals(name)) {
                    sawLive.countDown();
                }
            }

            @Override
            public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
            }

            @Override
            public void onDelete(ConfigMap cm, boolean deletedFinalStateUnknown) {
            }
        });
        try {
            client.configMaps().inNamespace(NS).resource(configMap(name, "z")).create();
            assertTrue(sawLive.await(30, TimeUnit.SECONDS), "the informer's watch delivered the add of " + name);
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        } finally {
            informer.close();
        }
    }
}
