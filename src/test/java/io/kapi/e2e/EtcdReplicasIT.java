package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kapi.fixtures.Await;
import io.kapi.storage.etcd.EtcdCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two Kapi replicas ({@code bin/kapi --etcd-servers=...}, sharing one data directory for the CA and
 * service-account keys, advertising 127.0.0.1 and 127.0.0.2) on a real 3-member etcd cluster behave
 * as one API server, also when etcd members fail. The tests share the cluster and run in order; the
 * later ones break things.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class EtcdReplicasIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A replica or a member that is down refuses or fails requests: a failed try is "not yet". */
    private static final Await REPLICAS = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(100))
            .ignoring(RuntimeException.class);
    private static EtcdCluster etcd;
    private static Path data;
    private static KapiProcess a;
    private static KapiProcess b;
    private static ApiClient ca;
    private static ApiClient cb;

    @BeforeAll
    static void start() throws Exception {
        etcd = EtcdCluster.members(3).start("EtcdReplicasIT");
        Path root = Files.createDirectories(Path.of(System.getProperty("kapi.e2e.projectDir", ""), "target/e2e-data"));
        data = Files.createTempDirectory(root.toAbsolutePath(), "replicas-");
        a = replica("replica-a", "127.0.0.1").start();
        b = replica("replica-b", "127.0.0.2").start();
        ca = ApiClient.of(a.kubeconfig());
        cb = ApiClient.of(b.kubeconfig());
    }

    private static KapiProcess replica(String name, String advertise) {
        return new KapiProcess(name, List.of("--etcd-servers=" + etcd.servers(), "--advertise-address=" + advertise), data);
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {ca, cb, a, b}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
        if (etcd != null) {
            etcd.close();
        }
        KapiProcess.deleteTree(data);
    }

    @Test
    @Order(1)
    @DisplayName("writes through one replica are seen at once by a read through the other, and by its watch, in order")
    void watchAcrossReplicas() throws Exception {
        String list = "/api/v1/namespaces/default/configmaps";
        String rv = cb.get(list).json().path("metadata").path("resourceVersion").asText();
        List<JsonNode> seen = new CopyOnWriteArrayList<>();
        Thread watcher = Thread.ofVirtual().start(() -> cb.stream(list + "?watch=1&resourceVersion=" + rv, line -> {
            try {
                seen.add(JSON.readTree(line));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }));
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ApiClient.Response created = ca.post(list, configMap("w" + i));
            assertEquals(201, created.status(), created.toString());
            written.add("ADDED w" + i + " " + created.json().path("metadata").path("resourceVersion").asText());
            if (i % 10 == 0) {
                assertEquals(200, cb.get(list + "/w" + i).status(), "a consistent read through the other replica");
            }
        }
        ApiClient.Response deleted = ca.delete(list + "/w0");
        assertEquals(200, deleted.status(), deleted.toString());
        REPLICAS.until("watch events through replica b", () -> seen.size() >= written.size() + 1);
        watcher.interrupt();
        List<String> got = seen.stream().map(e -> e.path("type").asText() + " " + e.path("object").path("metadata")
                .path("name").asText() + " " + e.path("object").path("metadata").path("resourceVersion").asText()).toList();
        assertEquals(written, got.subList(0, written.size()), "every change, in order, with the writer's versions");
        assertTrue(got.get(written.size()).startsWith("DELETED w0 "), got.get(written.size()));
    }

    @Test
    @Order(1)
    @DisplayName("an object over etcd's 1.5 MiB request limit is refused with 500 'etcdserver: request is too large', as kube does")
    void tooLarge() {
        // a PodTemplate: unlike a ConfigMap (1 MiB of data at most) nothing in its validation limits its size
        String big = "x".repeat(1600 * 1024);
        ApiClient.Response r = ca.post("/api/v1/namespaces/default/podtemplates", "{\"apiVersion\":\"v1\",\"kind\":"
                + "\"PodTemplate\",\"metadata\":{\"name\":\"big\"},\"template\":{\"spec\":{\"containers\":[{\"name\":"
                + "\"c\",\"image\":\"busybox\",\"env\":[{\"name\":\"X\",\"value\":\"" + big + "\"}]}]}}}");
        assertEquals(500, r.status(), r.toString().substring(0, Math.min(400, r.toString().length())));
        assertTrue(r.body().contains("etcdserver: request is too large"), r.body());
        assertEquals(404, cb.get("/api/v1/namespaces/default/podtemplates/big").status());
    }

    @Test
    @Order(2)
    @DisplayName("the kubernetes endpoints list every live replica, and the identity lease is kube's")
    void endpointsAndIdentity() throws Exception {
        REPLICAS.within(Duration.ofSeconds(40)).until("kubernetes endpoints of both replicas",
                () -> addresses(ca).equals(List.of("127.0.0.1", "127.0.0.2")));
        assertEquals(List.of("127.0.0.1", "127.0.0.2"), addresses(cb));
        JsonNode leases = ca.get("/apis/coordination.k8s.io/v1/namespaces/kube-system/leases"
                + "?labelSelector=apiserver.kubernetes.io%2Fidentity%3Dkube-apiserver").json();
        assertEquals(1, leases.path("items").size(), "replicas on one host share one lease, as kube-apiservers do");
        JsonNode lease = leases.path("items").get(0);
        assertTrue(lease.path("metadata").path("name").asText().matches("apiserver-[a-z2-7]{26}"), lease.toString());
        assertEquals(3600, lease.path("spec").path("leaseDurationSeconds").asInt());
    }

    @Test
    @Order(3)
    @DisplayName("1000 concurrent service creates through both replicas get 1000 distinct cluster IPs")
    void distinctClusterIps() throws Exception {
        ConcurrentLinkedQueue<String> ips = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(24)) {
            for (int i = 0; i < 1000; i++) {
                int n = i;
                pool.submit(() -> {
                    ApiClient.Response r = (n % 2 == 0 ? ca : cb).post("/api/v1/namespaces/default/services",
                            "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"s" + n + "\"},"
                                    + "\"spec\":{\"ports\":[{\"port\":80}]}}");
                    if (r.status() == 201) {
                        ips.add(r.json().path("spec").path("clusterIP").asText());
                    } else {
                        failures.add(r.toString());
                    }
                });
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " failed, e.g. " + failures.peek());
        assertEquals(1000, ips.size());
        assertEquals(1000, new HashSet<>(ips).size(), "no cluster IP handed out twice");
    }

    @Test
    @Order(4)
    @DisplayName("stopping one etcd member of three (a follower) changes nothing for clients")
    void oneMemberDown() throws Exception {
        // A follower: stopping the leader fails the writes it was committing with "request timed out,
        // possibly due to previous leader failure", on kube-apiserver too (etcd's client does not retry a
        // write whose outcome is unknown); losing members is the quorum test's subject.
        int follower = (etcd.leader(Duration.ofSeconds(30)) + 1) % 3;
        List<String> before = names(ca);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger ok = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        try (ExecutorService load = Executors.newFixedThreadPool(4)) {
            List<Future<?>> loops = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                loops.add(load.submit(() -> {
                    for (int i = 0; running.get(); i++) {
                        ApiClient c = i % 2 == 0 ? ca : cb;
                        ApiClient.Response r = c.post("/api/v1/namespaces/default/configmaps", configMap("m" + thread + "-" + i));
                        ApiClient.Response g = c.get("/api/v1/namespaces/default/configmaps/m" + thread + "-" + i);
                        if (r.status() == 201 && g.status() == 200) {
                            ok.incrementAndGet();
                        } else {
                            failures.add(r + " / " + g);
                        }
                    }
                }));
            }
            REPLICAS.until("the load under way through both replicas", () -> ok.get() >= 20);
            etcd.stop(follower);
            long stopped = ok.get();
            REPLICAS.within(Duration.ofSeconds(60)).until("writes after the member stopped", () -> ok.get() > stopped + 100);
            running.set(false);
            for (Future<?> f : loops) {
                f.get();
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " requests failed with one member down, e.g. " + failures.peek());
        assertEquals(200, ca.get("/readyz/etcd").status());
        assertTrue(names(cb).containsAll(before));
        etcd.restart(follower);
        etcd.awaitHealthy(follower, Duration.ofSeconds(60));
    }

    @Test
    @Order(5)
    @DisplayName("losing quorum fails readyz and makes writes answer 5xx without hanging; service resumes with quorum, nothing lost")
    void quorumLost() throws Exception {
        List<String> before = names(ca);
        etcd.stop(1);
        etcd.stop(2);
        REPLICAS.until("readyz failing without quorum", () -> ca.get("/readyz").status() == 500);
        assertEquals(500, cb.get("/readyz/etcd").status());
        long t0 = System.nanoTime();
        ApiClient.Response write = ca.post("/api/v1/namespaces/default/configmaps", configMap("during-outage"));
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertTrue(write.status() >= 500 && write.status() < 600, write.toString());
        assertTrue(took.compareTo(Duration.ofSeconds(25)) < 0, "the write answered after " + took);
        etcd.restart(1);
        etcd.restart(2);
        etcd.awaitHealthy(1, Duration.ofSeconds(60));
        REPLICAS.within(Duration.ofSeconds(60)).until("readyz passing again",
                () -> ca.get("/readyz").status() == 200 && cb.get("/readyz").status() == 200);
        ApiClient.Response after = cb.post("/api/v1/namespaces/default/configmaps", configMap("after-outage"));
        assertEquals(201, after.status(), after.toString());
        List<String> now = names(ca);
        assertTrue(now.containsAll(before), "everything written before the outage is still there");
        assertTrue(now.contains("after-outage"));
    }

    @Test
    @Order(6)
    @DisplayName("a replica killed with kill -9 loses nothing it acknowledged")
    void killedReplica() throws Exception {
        Set<String> acknowledged = java.util.concurrent.ConcurrentHashMap.newKeySet();
        AtomicInteger attempts = new AtomicInteger();
        try (ExecutorService load = Executors.newFixedThreadPool(4)) {
            for (int t = 0; t < 4; t++) {
                int thread = t;
                load.submit(() -> {
                    for (int i = 0; ; i++) {
                        String name = "k" + thread + "-" + i;
                        attempts.incrementAndGet();
                        try {
                            if (ca.post("/api/v1/namespaces/default/configmaps", configMap(name)).status() == 201) {
                                acknowledged.add(name);
                            }
                        } catch (RuntimeException connectionGone) {
                            return;
                        }
                    }
                });
            }
            REPLICAS.within(Duration.ofSeconds(60)).until("writes through replica a", () -> acknowledged.size() > 100);
            a.kill();
        }
        Set<String> stored = new TreeSet<>(names(cb));
        List<String> lost = acknowledged.stream().filter(n -> !stored.contains(n)).sorted().toList();
        assertTrue(lost.isEmpty(), lost.size() + " of " + acknowledged.size() + " acknowledged writes lost: " + lost);
    }

    private static String configMap(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"k\":\"v\"}}";
    }

    private static List<String> addresses(ApiClient c) {
        JsonNode subsets = c.get("/api/v1/namespaces/default/endpoints/kubernetes").json().path("subsets");
        List<String> ips = new ArrayList<>();
        subsets.path(0).path("addresses").forEach(x -> ips.add(x.path("ip").asText()));
        return ips;
    }

    private static List<String> names(ApiClient c) {
        ApiClient.Response r = c.get("/api/v1/namespaces/default/configmaps");
        assertEquals(200, r.status(), r.toString());
        List<String> names = new ArrayList<>();
        r.json().path("items").forEach(i -> names.add(i.path("metadata").path("name").asText()));
        return names;
    }

}
