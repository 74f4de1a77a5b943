package io.kapi.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Snapshot and restore through the API: a few hundred objects brought back, resourceVersions still
 * growing, an open watch and an informer following along; and the pattern the README shows, one
 * snapshot after the set-up restored before each test.
 */
@KapiTest
@DisplayName("snapshot and restore")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SnapshotRestoreTest {

    static final int OBJECTS = 300;
    static final Await WAIT = Await.atMost(Duration.ofSeconds(30));
    static KapiServer kapi;
    static KubernetesClient client;
    static KapiSnapshot afterSetUp;

    static ConfigMap configMap(String name, String value) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("fixtures").endMetadata()
                .addToData("v", value).build();
    }

    @BeforeAll
    static void setUp() {
        kapi.createNamespace("fixtures");
        for (int i = 0; i < OBJECTS; i++) {
            client.configMaps().resource(configMap("c" + i, "original")).create();
        }
        afterSetUp = kapi.snapshot();
    }

    @BeforeEach
    void restore() {
        kapi.restore(afterSetUp);
    }

    private static Map<String, String> state() {
        return client.configMaps().inNamespace("fixtures").list().getItems().stream()
                .filter(SnapshotRestoreTest::fixture)
                .collect(Collectors.toMap(c -> c.getMetadata().getName(), c -> c.getMetadata().getUid() + "/"
                        + c.getData().get("v"), (a, b) -> a, TreeMap::new));
    }

    @Test
    @DisplayName("a restore brings back changed, deleted and created objects; versions grow; watches and informers see it")
    void restoreWithWatches() throws Exception {
        Map<String, String> before = state();
        assertEquals(OBJECTS, before.size());
        long versionBefore = Long.parseLong(client.configMaps().inNamespace("fixtures").list().getMetadata().getResourceVersion());
        for (int i = 0; i < 100; i++) {
            client.configMaps().inNamespace("fixtures").withName("c" + i).edit(c -> {
                c.getData().put("v", "changed");
                return c;
            });
            client.configMaps().inNamespace("fixtures").withName("c" + (100 + i)).delete();
            client.configMaps().resource(configMap("new" + i, "new")).create();
        }
        List<String> events = new CopyOnWriteArrayList<>();
        SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace("fixtures").inform();
        String now = client.configMaps().inNamespace("fixtures").list().getMetadata().getResourceVersion();
        try (Watch watch = client.configMaps().inNamespace("fixtures")
                .watch(new ListOptionsBuilder().withResourceVersion(now).build(), recorder(events))) {
            WAIT.until("informer synced", () -> informerState(informer).size() == OBJECTS);
            long start = System.nanoTime();
            kapi.restore(afterSetUp);
            double ms = (System.nanoTime() - start) / 1e6;
            System.out.printf("restore of %d objects (300 writes) took %.1f ms%n", OBJECTS, ms);

            assertEquals(before, state(), "same names, uids and content as after the set-up");
            WAIT.until("300 watch events", () -> events.size() >= 300);
            Map<String, Long> byType = events.stream().collect(Collectors.groupingBy(e -> e.split(" ")[0], Collectors.counting()));
            assertEquals(Map.of("MODIFIED", 100L, "ADDED", 100L, "DELETED", 100L), byType, events.toString());
            for (String event : events) {
                assertTrue(Long.parseLong(event.split(" ")[2]) > versionBefore, "resourceVersions keep growing: " + event);
            }
            WAIT.until("the informer follows the restore", () -> informerState(informer).equals(before));
        } finally {
            informer.close();
        }
    }

    private static Map<String, String> informerState(SharedIndexInformer<ConfigMap> informer) {
        return informer.getIndexer().list().stream().filter(SnapshotRestoreTest::fixture).collect(Collectors.toMap(c -> c.getMetadata().getName(),
                c -> c.getMetadata().getUid() + "/" + c.getData().get("v"), (a, b) -> a, TreeMap::new));
    }

    /** The test's own objects, not the kube-root-ca.crt the standalone controllers put in every namespace. */
    private static boolean fixture(ConfigMap c) {
        return !c.getMetadata().getName().equals("kube-root-ca.crt");
    }

    private static Watcher<ConfigMap> recorder(List<String> events) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, ConfigMap c) {
                if (fixture(c)) {
                    events.add(action + " " + c.getMetadata().getName() + " " + c.getMetadata().getResourceVersion());
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                events.add("CLOSED " + cause);
            }
        };
    }

    static final List<String> UIDS = new ArrayList<>();

    @RepeatedTest(3)
    @DisplayName("restored before each test: every test sees the same objects, whatever the one before did")
    void sameObjectsEachTime() {
        Map<String, String> now = state();
        assertEquals(OBJECTS, now.size());
        assertTrue(now.values().stream().allMatch(v -> v.endsWith("/original")), "content as after the set-up");
        UIDS.add(now.get("c0"));
        assertEquals(1, UIDS.stream().distinct().count(), "the same object, not a copy: " + UIDS);
        client.configMaps().inNamespace("fixtures").withName("c0").delete();
        client.configMaps().inNamespace("fixtures").withName("c1").edit(c -> {
            c.getData().put("v", "dirty");
            return c;
        });
        assertNotEquals(now, state());
    }
}
