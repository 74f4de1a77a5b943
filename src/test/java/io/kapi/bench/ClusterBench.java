package io.kapi.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Issue 39's scale and speed on a real {@code bin/kapi} with {@code --simulated-nodes=N} and the workload
 * controllers: the nodes registered and Ready; a 3-replica Deployment from its creation to Available (cold, the
 * server's first, and warm); then P Pods as Deployments of 1,000 replicas created by 8 clients, with the
 * scheduler's throughput (Pods bound per second, from the Pods'
 * {@code PodScheduled} condition), the time until every Deployment is Available, the server's CPU and resident memory;
 * then the idle CPU over 30 s of N nodes' heartbeats and P running Pods, and one more 3-replica Deployment at
 * that scale. Run with {@code bench/cluster.sh [N] [P]} (defaults 1,000 and 30,000).
 */
public final class ClusterBench {

    private static final String APPS = "/apis/apps/v1/namespaces/default/deployments";
    private static final int CHUNK = 1000;

    private ClusterBench() {
    }

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int pods = args.length > 1 ? Integer.parseInt(args[1]) : 30_000;
        long t0 = System.nanoTime();
        try (KapiProcess kapi = new KapiProcess("bench-cluster", List.of(
                "--simulated-nodes=" + nodes));
             ApiClient api = ApiClient.of(kapi.start().kubeconfig())) {
            awaitNodes(api, nodes);
            System.out.printf("%d nodes Ready %d ms after the start; RSS %d MiB%n", nodes,
                    (System.nanoTime() - t0) / 1_000_000, kapi.rssKiB() / 1024);
            System.out.printf("3-replica Deployment Available after %d ms (cold)%n", available(api, "probe-cold"));
            System.out.printf("3-replica Deployment Available after %d ms (warm)%n", available(api, "probe-warm"));
            load(kapi, api, pods);
            System.out.printf("idle over 30 s with %d nodes and %d Pods: %.2f %% of a core; RSS %d MiB%n", nodes, pods,
                    kapi.cpuPercentOver(30), kapi.rssKiB() / 1024);
            System.out.printf("3-replica Deployment Available after %d ms (at scale)%n", available(api, "probe-scale"));
        }
    }

    private static void awaitNodes(ApiClient api, int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (System.nanoTime() < deadline) {
            int ready = 0;
            for (JsonNode n : api.get("/api/v1/nodes").json().path("items")) {
                for (JsonNode c : n.at("/status/conditions")) {
                    if (c.path("type").asText().equals("Ready") && c.path("status").asText().equals("True")) {
                        ready++;
                    }
                }
            }
            if (ready >= count) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the nodes were not all Ready within 5 minutes");
    }

    private static String deployment(String name, int replicas) {
        return """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s","labels":{"bench":"cluster"}},\
                "spec":{"replicas":%d,"selector":{"matchLabels":{"app":"%s"}},"template":{"metadata":\
                {"labels":{"app":"%s","bench":"cluster"}},"spec":{"containers":[{"name":"c","image":"nginx",\
                "resources":{"requests":{"cpu":"10m","memory":"16Mi"}}}]}}}}""".formatted(name, replicas, name, name);
    }

    /** Milliseconds from the creation of a 3-replica Deployment to its Available condition. */
    private static long available(ApiClient api, String name) throws InterruptedException {
        long start = System.nanoTime();
        if (api.post(APPS, deployment(name, 3)).status() != 201) {
            throw new IllegalStateException("cannot create " + name);
        }
        while (System.nanoTime() - start < Duration.ofSeconds(60).toNanos()) {
            JsonNode d = api.get(APPS + "/" + name).json();
            if (d.at("/status/availableReplicas").asInt() == 3) {
                return (System.nanoTime() - start) / 1_000_000;
            }
            Thread.sleep(5);
        }
        throw new IllegalStateException(name + " not Available within 60 s");
    }

    /**
     * {@code total} Pods as Deployments of {@value #CHUNK}, timed to all Available; the scheduler's throughput from
     * the Pods' {@code PodScheduled} condition (the latest transition to True, to the second, against the start).
     */
    private static void load(KapiProcess kapi, ApiClient api, int total) throws Exception {
        double cpuBefore = kapi.cpuSeconds();
        long rssBefore = kapi.rssKiB();
        Instant startedAt = Instant.now();
        long start = System.nanoTime();
        int deployments = (total + CHUNK - 1) / CHUNK;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<Integer>> posts = new ArrayList<>();
        for (int i = 0; i < deployments; i++) {
            String body = deployment("load-" + i, Math.min(CHUNK, total - i * CHUNK));
            posts.add(pool.submit(() -> api.post(APPS, body).status()));
        }
        for (Future<Integer> p : posts) {
            if (p.get() != 201) {
                throw new IllegalStateException("a Deployment was not created: " + p.get());
            }
        }
        pool.shutdown();
        long deadline = start + Duration.ofMinutes(20).toNanos();
        while (System.nanoTime() < deadline) {
            int available = 0;
            for (JsonNode d : api.get(APPS + "?labelSelector=bench%3Dcluster").json().path("items")) {
                if (d.at("/metadata/name").asText().startsWith("load-")) {
                    available += d.at("/status/availableReplicas").asInt();
                }
            }
            if (available >= total) {
                long end = System.nanoTime();
                double cpu = kapi.cpuSeconds() - cpuBefore;
                Instant lastBound = Instant.EPOCH;
                int bound = 0;
                // from the watch cache (resourceVersion=0): one read of every Pod, after the measurement
                for (JsonNode pod : api.get("/api/v1/namespaces/default/pods?resourceVersion=0&labelSelector=bench%3Dcluster")
                        .json().path("items")) {
                    for (JsonNode c : pod.at("/status/conditions")) {
                        if (c.path("type").asText().equals("PodScheduled") && c.path("status").asText().equals("True")) {
                            bound++;
                            Instant at = Instant.parse(c.path("lastTransitionTime").asText());
                            lastBound = at.isAfter(lastBound) ? at : lastBound;
                        }
                    }
                }
                double boundSeconds = Math.max(1, Duration.between(startedAt, lastBound).toMillis() / 1000.0);
                System.out.printf("%d Pods in %d Deployments: %d bound by %.0f s (%.0f Pods bound/s), all Available "
                                + "after %.1f s; server CPU %.1f s; RSS %d -> %d MiB%n", total, deployments, bound,
                        boundSeconds, bound / boundSeconds, (end - start) / 1e9, cpu, rssBefore / 1024,
                        kapi.rssKiB() / 1024);
                return;
            }
            Thread.sleep(2000);
        }
        throw new IllegalStateException("the Pods were not all Available within 20 minutes");
    }
}
