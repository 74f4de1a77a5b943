package io.kapi.bench;

import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Simulated nodes' cost on a real {@code bin/kapi} (memory storage): the start with {@code --simulated-nodes=N}
 * (default 1,000) until every node has its Lease, then the server's resident memory and CPU over S seconds
 * (default 30) of idleness, which is the nodes' heartbeats alone (N/10 Lease renewals a second); with a third
 * argument P, P Pods bound round-robin to the nodes by 8 clients, timed until all are Running, with the CPU and
 * memory after. The same idle figures without simulated nodes come last, for comparison. Run with
 * {@code bench/nodes.sh [N] [S] [P]}.
 */
public final class NodesBench {

    private NodesBench() {
    }

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int idleSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int pods = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        try (KapiProcess kapi = new KapiProcess("bench-nodes", List.of("--storage-backend=memory",
                "--simulated-nodes=" + nodes))) {
            long t0 = System.nanoTime();
            ApiClient api = ApiClient.of(kapi.start().kubeconfig());
            long ready = System.nanoTime();
            while (api.get("/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases").json().path("items")
                    .size() < nodes) {
                Thread.sleep(100);
            }
            System.out.printf("%d simulated nodes: server ready after %d ms, every Lease after %d ms%n", nodes,
                    (ready - t0) / 1_000_000, (System.nanoTime() - t0) / 1_000_000);
            Thread.sleep(10_000);
            long pid = kapi.serverPid();
            double cpu = idleCpu(pid, idleSeconds);
            System.out.printf("idle with %d nodes, over %d s: %.2f %% of a core, RSS %d MiB%n", nodes, idleSeconds,
                    cpu, rssKiB(pid) / 1024);
            if (pods > 0) {
                runPods(api, pid, nodes, pods);
            }
        }
        try (KapiProcess kapi = new KapiProcess("bench-nodes-none", List.of("--storage-backend=memory"))) {
            kapi.start();
            Thread.sleep(10_000);
            long pid = kapi.serverPid();
            double cpu = idleCpu(pid, idleSeconds);
            System.out.printf("idle without simulated nodes, over %d s: %.2f %% of a core, RSS %d MiB%n", idleSeconds,
                    cpu, rssKiB(pid) / 1024);
        }
    }

    private static void runPods(ApiClient api, long pid, int nodes, int count) throws Exception {
        long cpuBefore = ticks(pid);
        long start = System.nanoTime();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(8)) {
            List<java.util.concurrent.Future<Integer>> posts = new java.util.ArrayList<>();
            for (int i = 0; i < count; i++) {
                String body = """
                        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p-%d","labels":{"bench":"nodes"}},\
                        "spec":{"nodeName":"kapi-node-%d","containers":[{"name":"c","image":"nginx"}]}}\
                        """.formatted(i, i % nodes);
                posts.add(pool.submit(() -> api.post("/api/v1/namespaces/default/pods", body).status()));
            }
            for (var p : posts) {
                if (p.get() != 201) {
                    throw new IllegalStateException("a Pod was not created: " + p.get());
                }
            }
        }
        long created = System.nanoTime();
        while (System.nanoTime() - start < Duration.ofMinutes(10).toNanos()) {
            int running = api.get("/api/v1/namespaces/default/pods?labelSelector=bench%3Dnodes"
                    + "&fieldSelector=status.phase%3DRunning").json().path("items").size();
            if (running == count) {
                long end = System.nanoTime();
                System.out.printf("%d Pods: created in %d ms, all Running after %d ms; server CPU %.1f s; RSS %d MiB%n",
                        count, (created - start) / 1_000_000, (end - start) / 1_000_000,
                        (ticks(pid) - cpuBefore) / 100.0, rssKiB(pid) / 1024);
                Thread.sleep(10_000);
                System.out.printf("idle with %d nodes and %d Pods, over 30 s: %.2f %% of a core, RSS %d MiB%n", nodes,
                        count, idleCpu(pid, 30), rssKiB(pid) / 1024);
                return;
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("the Pods were not all Running within 10 minutes");
    }

    private static long rssKiB(long pid) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    /** Percent of one core the process used over {@code seconds}. */
    private static double idleCpu(long pid, int seconds) throws Exception {
        long before = ticks(pid);
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long used = ticks(pid) - before;
        double wall = (System.nanoTime() - t0) / 1e9;
        return used / 100.0 / wall * 100; // USER_HZ = 100
    }

    private static long ticks(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
    }
}
