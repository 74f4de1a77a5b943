package io.kapi.bench;

import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import java.time.Duration;
import java.util.List;

/**
 * The workload controllers' cost and speed on a real {@code bin/kapi} (memory storage): how long a Deployment
 * of {@code --replicas} (default 100) takes to have its ReplicaSet and all its Pods (polled every 10 ms), and
 * the server's CPU time over {@code --idle-seconds} (default 20) of idleness with {@code --controllers=*} and
 * with bin/kapi's default set, after a settling pause, read from {@code /proc/<pid>/stat}; then, with a third
 * argument D, D Deployments of 3 replicas created by 8 clients at once, timed until every one reports 3 updated
 * replicas and all 3xD Pods exist, with the server's CPU and resident memory. Run with
 * {@code bench/workloads.sh [N] [S] [D]}.
 */
public final class WorkloadBench {

    private static final String NS = "/apis/apps/v1/namespaces/default";

    private WorkloadBench() {
    }

    public static void main(String[] args) throws Exception {
        int replicas = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int idleSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int many = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        double on;
        try (KapiProcess kapi = new KapiProcess("bench-workloads", List.of("--storage-backend=memory",
                "--controllers=*"));
             ApiClient api = ApiClient.of(kapi.start().kubeconfig())) {
            Thread.sleep(2000); // the default service account, the controllers' informers
            rollout(api, "cold", replicas);
            rollout(api, "warm", replicas);
            api.delete(NS + "/deployments/cold");
            api.delete(NS + "/deployments/warm");
            Thread.sleep(5000);
            on = kapi.cpuPercentOver(idleSeconds);
            if (many > 0) {
                manyDeployments(kapi, api, many);
            }
        }
        double off;
        try (KapiProcess kapi = new KapiProcess("bench-workloads-off", List.of("--storage-backend=memory"))) {
            kapi.start();
            Thread.sleep(7000);
            off = kapi.cpuPercentOver(idleSeconds);
        }
        System.out.printf("idle CPU over %d s: %.2f %% of a core with --controllers=*, %.2f %% with the default set%n",
                idleSeconds, on, off);
    }

    /** One Deployment {@code name} of {@code replicas}; the first of a server is "cold" (its code not yet compiled). */
    private static void rollout(ApiClient api, String name, int replicas) throws InterruptedException {
        String deployment = """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s"},"spec":{"replicas":%d,\
                "selector":{"matchLabels":{"app":"%s"}},"template":{"metadata":{"labels":{"app":"%s"}},\
                "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}""".formatted(name, replicas, name, name);
        long start = System.nanoTime();
        if (api.post(NS + "/deployments", deployment).status() != 201) {
            throw new IllegalStateException("cannot create the Deployment");
        }
        long rsAt = -1;
        while (System.nanoTime() - start < Duration.ofSeconds(60).toNanos()) {
            if (rsAt < 0 && api.get(NS + "/replicasets?labelSelector=app%3D" + name).json().path("items").size() > 0) {
                rsAt = System.nanoTime();
            }
            int pods = api.get("/api/v1/namespaces/default/pods?labelSelector=app%3D" + name).json().path("items").size();
            if (pods >= replicas) {
                long end = System.nanoTime();
                System.out.printf("Deployment %s of %d: ReplicaSet after %d ms, %d Pods after %d ms%n", name, replicas,
                        (rsAt - start) / 1_000_000, pods, (end - start) / 1_000_000);
                return;
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("the Pods did not all come within 60 s");
    }

    /** {@code count} Deployments of 3 replicas, created by 8 clients, until all are rolled out. */
    private static void manyDeployments(KapiProcess kapi, ApiClient api, int count) throws Exception {
        long rssBefore = kapi.rssKiB();
        double cpuBefore = kapi.cpuSeconds();
        long start = System.nanoTime();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(8)) {
            List<java.util.concurrent.Future<Integer>> posts = new java.util.ArrayList<>();
            for (int i = 0; i < count; i++) {
                String name = "many-" + i;
                String body = """
                        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s","labels":{"bench":"many"}},\
                        "spec":{"replicas":3,"selector":{"matchLabels":{"app":"%s"}},"template":{"metadata":\
                        {"labels":{"app":"%s","bench":"many"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}\
                        """.formatted(name, name, name);
                posts.add(pool.submit(() -> api.post(NS + "/deployments", body).status()));
            }
            for (var p : posts) {
                if (p.get() != 201) {
                    throw new IllegalStateException("a Deployment was not created: " + p.get());
                }
            }
        }
        long created = System.nanoTime();
        while (System.nanoTime() - start < Duration.ofMinutes(5).toNanos()) {
            int done = 0;
            for (var d : api.get(NS + "/deployments?labelSelector=bench%3Dmany").json().path("items")) {
                if (d.at("/status/updatedReplicas").asInt() == 3 && d.at("/status/replicas").asInt() == 3) {
                    done++;
                }
            }
            int pods = api.get("/api/v1/namespaces/default/pods?labelSelector=bench%3Dmany").json().path("items").size();
            if (done == count && pods == 3 * count) {
                long end = System.nanoTime();
                System.out.printf("%d Deployments x 3: created in %d ms, all rolled out (%d Pods) after %d ms; "
                                + "server CPU %.1f s; RSS %d -> %d MiB%n", count, (created - start) / 1_000_000, pods,
                        (end - start) / 1_000_000, kapi.cpuSeconds() - cpuBefore, rssBefore / 1024,
                        kapi.rssKiB() / 1024);
                return;
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("the Deployments did not all roll out within 5 minutes");
    }
}
