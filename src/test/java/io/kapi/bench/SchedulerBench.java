package io.kapi.bench;

import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The scheduler's throughput on a real {@code bin/kapi --scheduler=true} (memory storage): {@code NODES}
 * Ready Nodes (default 1,000; 32 CPUs, 128Gi, 110 Pods each, ten zones) created by the admin, then
 * {@code PODS} Pods (default 30,000; 10m and 16Mi each, a quarter of them with a zone spread constraint)
 * created by 8 clients at once; timed until none is left unbound (polled every 250 ms, once all are
 * created, with a {@code spec.nodeName=} field selector from the watch cache: a paginated list would scan
 * storage), with the server's CPU time and resident memory from
 * {@code /proc/<pid>}. Run with {@code bench/scheduler.sh [NODES] [PODS]}.
 */
public final class SchedulerBench {

    private static final String PODS = "/api/v1/namespaces/default/pods";

    private SchedulerBench() {
    }

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int pods = args.length > 1 ? Integer.parseInt(args[1]) : 30000;
        try (KapiProcess kapi = new KapiProcess("bench-scheduler", List.of("--storage-backend=memory",
                "--scheduler=true"));
             ApiClient api = ApiClient.of(kapi.start().kubeconfig());
             ExecutorService pool = Executors.newFixedThreadPool(8)) {
            Thread.sleep(2000); // the default service account
            long nodesStart = System.nanoTime();
            all(pool, nodes, i -> node(api, i));
            System.out.printf("%d Nodes created in %d ms; server RSS %d MiB%n", nodes,
                    (System.nanoTime() - nodesStart) / 1_000_000, rssKiB(kapi.serverPid()) / 1024);
            Thread.sleep(2000);
            long cpuBefore = ticks(kapi.serverPid());
            long start = System.nanoTime();
            all(pool, pods, i -> pod(api, i));
            long created = System.nanoTime();
            System.out.printf("%d Pods created in %.1f s%n", pods, (created - start) / 1e9);
            while (System.nanoTime() - start < Duration.ofMinutes(20).toNanos()) {
                com.fasterxml.jackson.databind.JsonNode unbound;
                try {
                    unbound = api.get(PODS + "?fieldSelector=spec.nodeName%3D&resourceVersion=0").json().path("items");
                } catch (java.io.UncheckedIOException e) {
                    System.out.printf("after %.1f s: %s%n", (System.nanoTime() - start) / 1e9, e.getMessage());
                    continue;
                }
                if (unbound.isEmpty()) {
                    long end = System.nanoTime();
                    double seconds = (end - start) / 1e9;
                    System.out.printf("%d Pods on %d Nodes: created in %.1f s, all bound after %.1f s: %.0f Pods "
                                    + "bound per second; server CPU %.1f s (%.0f %% of a core); RSS %d MiB%n",
                            pods, nodes, (created - start) / 1e9, seconds, pods / seconds,
                            (ticks(kapi.serverPid()) - cpuBefore) / 100.0,
                            (ticks(kapi.serverPid()) - cpuBefore) / 100.0 / seconds * 100,
                            rssKiB(kapi.serverPid()) / 1024);
                    return;
                }
                Thread.sleep(250);
            }
            throw new IllegalStateException("the Pods were not all bound within 20 minutes");
        }
    }

    private interface Step {
        void run(int i) throws Exception;
    }

    private static void all(ExecutorService pool, int count, Step step) throws Exception {
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int n = i;
            done.add(pool.submit(() -> {
                step.run(n);
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
    }

    private static void node(ApiClient api, int i) {
        String name = "node-" + i;
        String body = """
                {"apiVersion":"v1","kind":"Node","metadata":{"name":"%s","labels":{"kubernetes.io/hostname":"%s",\
                "topology.kubernetes.io/zone":"zone-%d"}}}""".formatted(name, name, i % 10);
        check(api.post("/api/v1/nodes", body).status(), 201, name);
        String status = """
                {"status":{"capacity":{"cpu":"32","memory":"128Gi","pods":"110"},\
                "allocatable":{"cpu":"32","memory":"128Gi","pods":"110"},\
                "conditions":[{"type":"Ready","status":"True","reason":"KubeletReady"}]}}""";
        check(api.send("PATCH", "/api/v1/nodes/" + name + "/status", status, "application/merge-patch+json").status(),
                200, name);
        // TaintNodesByCondition's not-ready taint, which the node lifecycle controller takes off once Ready
        check(api.send("PATCH", "/api/v1/nodes/" + name, "{\"spec\":{\"taints\":null}}",
                "application/merge-patch+json").status(), 200, name);
    }

    private static void pod(ApiClient api, int i) {
        String spread = i % 4 != 0 ? "" : """
                "topologySpreadConstraints":[{"maxSkew":5,"topologyKey":"topology.kubernetes.io/zone",\
                "whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"spread"}}}],""";
        String body = """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p-%d","labels":{"app":"%s"}},"spec":{%s\
                "containers":[{"name":"c","image":"nginx","resources":{"requests":{"cpu":"10m","memory":"16Mi"}}}]}}\
                """.formatted(i, i % 4 == 0 ? "spread" : "app-" + (i % 50), spread);
        check(api.post(PODS, body).status(), 201, "p-" + i);
    }

    private static void check(int status, int expected, String what) {
        if (status != expected) {
            throw new IllegalStateException(what + ": " + status);
        }
    }

    private static long rssKiB(long pid) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    private static long ticks(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
    }
}
