package io.kapi.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** fabric8's client against an in-process server: what operators and their tests use, each test in its own namespace. */
@KapiTest(namespacePerTest = true)
@DisplayName("fabric8 operations against KapiServer")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class Fabric8OperationsTest {

    private static final Await WAIT = Await.atMost(Duration.ofSeconds(30));

    KubernetesClient client;
    @KapiNamespace
    String namespace;

    static ConfigMap configMap(String name, Map<String, String> labels, String value) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .addToData("v", value).build();
    }

    static Deployment deployment(String name, String image) {
        return new DeploymentBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage(image).endContainer()
                .addNewContainer().withName("sidecar").withImage("busybox").endContainer().endSpec()
                .endTemplate().endSpec().build();
    }

    private static Set<String> names(List<? extends HasMetadata> items) {
        Set<String> names = new TreeSet<>();
        items.forEach(i -> names.add(i.getMetadata().getName()));
        names.remove("kube-root-ca.crt");
        return names;
    }

    @Test
    @DisplayName("CRUD: create, get, update, replace with a stale version (409), delete")
    void crud() {
        ConfigMap created = client.configMaps().resource(configMap("a", Map.of(), "1")).create();
        assertEquals(namespace, created.getMetadata().getNamespace());
        assertNotNull(created.getMetadata().getUid());
        ConfigMap updated = client.configMaps().withName("a").edit(c -> {
            c.getData().put("v", "2");
            return c;
        });
        assertTrue(Long.parseLong(updated.getMetadata().getResourceVersion())
                > Long.parseLong(created.getMetadata().getResourceVersion()));
        created.getData().put("v", "stale");
        KubernetesClientException conflict = assertThrows(KubernetesClientException.class,
                () -> client.configMaps().resource(created).update());
        assertEquals(409, conflict.getCode());
        assertEquals("Conflict", conflict.getStatus().getReason());
        assertEquals("2", client.configMaps().withName("a").get().getData().get("v"));
        KubernetesClientException exists = assertThrows(KubernetesClientException.class,
                () -> client.configMaps().resource(configMap("a", Map.of(), "x")).create());
        assertEquals("AlreadyExists", exists.getStatus().getReason());
        assertEquals(1, client.configMaps().withName("a").delete().size());
        assertNull(client.configMaps().withName("a").get());
    }

    @Test
    @DisplayName("watch: ADDED, MODIFIED, DELETED in order, from a resourceVersion")
    void watch() throws Exception {
        String from = client.configMaps().list().getMetadata().getResourceVersion();
        List<String> events = new CopyOnWriteArrayList<>();
        try (Watch ignored = client.configMaps().watch(new ListOptionsBuilder().withResourceVersion(from).build(),
                new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, ConfigMap c) {
                        if (!c.getMetadata().getName().equals("kube-root-ca.crt")) {
                            events.add(action + " " + c.getMetadata().getName());
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                })) {
            client.configMaps().resource(configMap("w", Map.of(), "1")).create();
            client.configMaps().withName("w").edit(c -> {
                c.getData().put("v", "2");
                return c;
            });
            client.configMaps().withName("w").delete();
            WAIT.until("3 watch events", () -> events.size() >= 3);
        }
        assertEquals(List.of("ADDED w", "MODIFIED w", "DELETED w"), events);
    }

    @Test
    @DisplayName("informer: list then watch, adds, updates and deletes, and periodic resyncs")
    void informerWithResync() {
        client.configMaps().resource(configMap("before", Map.of(), "1")).create();
        List<String> seen = new CopyOnWriteArrayList<>();
        AtomicInteger resyncs = new AtomicInteger();
        SharedIndexInformer<ConfigMap> informer = client.configMaps().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap c) {
                seen.add("add " + c.getMetadata().getName());
            }

            @Override
            public void onUpdate(ConfigMap old, ConfigMap now) {
                if (old.getMetadata().getResourceVersion().equals(now.getMetadata().getResourceVersion())) {
                    resyncs.incrementAndGet();
                } else {
                    seen.add("update " + now.getMetadata().getName() + " " + now.getData().get("v"));
                }
            }

            @Override
            public void onDelete(ConfigMap c, boolean unknownFinalState) {
                seen.add("delete " + c.getMetadata().getName());
            }
        }, 1000);
        try {
            WAIT.until("the informer synced", informer::hasSynced);
            client.configMaps().resource(configMap("after", Map.of(), "1")).create();
            client.configMaps().withName("after").edit(c -> {
                c.getData().put("v", "2");
                return c;
            });
            client.configMaps().withName("before").delete();
            WAIT.until("the informer sees the delete", () -> seen.contains("delete before"));
            WAIT.until("two resyncs", () -> resyncs.get() >= 2);
        } finally {
            informer.close();
        }
        List<String> ordered = new ArrayList<>(seen);
        ordered.removeIf(e -> e.contains("kube-root-ca.crt"));
        assertEquals(List.of("add before", "add after", "update after 2", "delete before"), ordered);
    }

    @Test
    @DisplayName("patches: JSON patch, merge patch, strategic merge (containers merged by name)")
    void patches() {
        client.apps().deployments().resource(deployment("web", "nginx:1")).create();
        Deployment json = client.apps().deployments().withName("web").patch(PatchContext.of(PatchType.JSON),
                "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":2}]");
        assertEquals(2, json.getSpec().getReplicas());
        Deployment merge = client.apps().deployments().withName("web").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\"tier\":\"front\"}}}");
        assertEquals("front", merge.getMetadata().getLabels().get("tier"));
        Deployment strategic = client.apps().deployments().withName("web").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:2\"}]}}}}");
        var containers = strategic.getSpec().getTemplate().getSpec().getContainers();
        assertEquals(2, containers.size(), "strategic merge keeps the sidecar: containers merge by name");
        assertEquals("nginx:2", containers.stream().filter(c -> c.getName().equals("main")).findFirst().orElseThrow().getImage());
        Deployment mergeList = client.apps().deployments().withName("web").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:3\"}]}}}}");
        assertEquals(1, mergeList.getSpec().getTemplate().getSpec().getContainers().size(), "a merge patch replaces lists");
    }

    @Test
    @DisplayName("server-side apply: field managers, a conflict between them (409), forced, fields removed when no longer applied")
    void serverSideApply() {
        ConfigMap mine = configMap("ssa", Map.of("owner", "me", "extra", "x"), "1");
        client.configMaps().resource(mine).fieldManager("me").serverSideApply();
        ConfigMap theirs = configMap("ssa", Map.of(), "theirs");
        theirs.setData(Map.of("v", "theirs"));
        KubernetesClientException conflict = assertThrows(KubernetesClientException.class,
                () -> client.configMaps().resource(theirs).fieldManager("them").serverSideApply());
        assertEquals(409, conflict.getCode());
        assertTrue(conflict.getMessage().contains("conflict"), conflict.getMessage());
        ConfigMap forced = client.configMaps().resource(theirs).fieldManager("them").forceConflicts().serverSideApply();
        assertEquals("theirs", forced.getData().get("v"));
        List<String> managers = forced.getMetadata().getManagedFields().stream().map(ManagedFieldsEntry::getManager).toList();
        assertTrue(managers.containsAll(List.of("me", "them")), managers.toString());

        ConfigMap fewer = configMap("ssa", Map.of("owner", "me"), "1");
        fewer.setData(null);
        ConfigMap after = client.configMaps().resource(fewer).fieldManager("me").serverSideApply();
        assertEquals(Map.of("owner", "me"), after.getMetadata().getLabels(), "the label me no longer applies is removed");
        assertEquals("theirs", after.getData().get("v"), "what them owns stays");
    }

    @Test
    @DisplayName("label selectors: equality, in, notin, exists, does not exist")
    void labelSelectors() {
        client.configMaps().resource(configMap("a", Map.of("tier", "web", "env", "prod"), "")).create();
        client.configMaps().resource(configMap("b", Map.of("tier", "api", "env", "dev"), "")).create();
        client.configMaps().resource(configMap("c", Map.of("tier", "db"), "")).create();
        assertEquals(Set.of("a"), names(client.configMaps().withLabel("tier", "web").list().getItems()));
        assertEquals(Set.of("a", "b"), names(client.configMaps().withLabelIn("tier", "web", "api").list().getItems()));
        assertEquals(Set.of("c"), names(client.configMaps().withLabelNotIn("tier", "web", "api").list().getItems()));
        assertEquals(Set.of("a", "b"), names(client.configMaps().withLabel("env").list().getItems()));
        assertEquals(Set.of("c"), names(client.configMaps().withoutLabel("env").withLabel("tier").list().getItems()));
        assertEquals(Set.of("b"), names(client.configMaps().withLabelSelector("tier in (web,api),env!=prod").list().getItems()));
    }

    @Test
    @DisplayName("field selectors: metadata.name, spec.nodeName and status.phase of pods, unsupported fields refused")
    void fieldSelectors() {
        client.configMaps().resource(configMap("x", Map.of(), "")).create();
        client.configMaps().resource(configMap("y", Map.of(), "")).create();
        assertEquals(Set.of("x"), names(client.configMaps().withField("metadata.name", "x").list().getItems()));
        assertEquals(Set.of("y"), names(client.configMaps().withoutField("metadata.name", "x").list().getItems()));
        for (String node : List.of("n1", "n2")) {
            Pod pod = new PodBuilder().withNewMetadata().withName("p-" + node).endMetadata().withNewSpec().withNodeName(node)
                    .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().build();
            client.pods().resource(pod).create();
        }
        assertEquals(Set.of("p-n2"), names(client.pods().withField("spec.nodeName", "n2").list().getItems()));
        assertEquals(Set.of("p-n1", "p-n2"), names(client.pods().withField("status.phase", "Pending").list().getItems()));
        KubernetesClientException bad = assertThrows(KubernetesClientException.class,
                () -> client.configMaps().withField("data.v", "1").list());
        assertEquals(400, bad.getCode());
    }

    @Test
    @DisplayName("paging: limit and continue walk every item once; remainingItemCount only when not filtered, as kube")
    void paging() {
        for (int i = 0; i < 25; i++) {
            client.configMaps().resource(configMap(String.format("p%02d", i), Map.of("paged", "yes"), "")).create();
        }
        // the 25 and kube-root-ca.crt, which the standalone controller writes into a new namespace soon after
        client.configMaps().withName("kube-root-ca.crt").waitUntilCondition(java.util.Objects::nonNull, 60,
                java.util.concurrent.TimeUnit.SECONDS);
        int total = client.configMaps().list().getItems().size();
        Set<String> all = new TreeSet<>();
        String token = null;
        int pages = 0;
        do {
            ConfigMapList page = client.configMaps().list(new ListOptionsBuilder().withLimit(10L).withContinue(token).build());
            pages++;
            page.getItems().forEach(c -> assertTrue(all.add(c.getMetadata().getName()), "seen twice: " + c));
            token = page.getMetadata().getContinue();
            if (token != null && !token.isEmpty()) {
                assertEquals(total - all.size(), page.getMetadata().getRemainingItemCount());
            }
        } while (token != null && !token.isEmpty());
        assertEquals(3, pages);
        assertEquals(total, all.size());

        ConfigMapList filtered = client.configMaps().withLabel("paged", "yes").list(new ListOptionsBuilder().withLimit(10L).build());
        assertEquals(10, filtered.getItems().size());
        assertNotNull(filtered.getMetadata().getContinue());
        assertNull(filtered.getMetadata().getRemainingItemCount(), "kube leaves it out of filtered lists");
    }
}
