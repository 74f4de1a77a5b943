package io.kapi.bench;

import io.kapi.e2e.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Closed-loop load: one platform thread per client, each sending its next request as soon as the previous
 * one is answered, until the phase's request count is reached or its time limit passes.
 */
final class Load {

    private final List<ApiClient> clients;
    private final Duration limit;

    Load(List<ApiClient> clients, Duration limit) {
        this.clients = List.copyOf(clients);
        this.limit = limit;
    }

    /** Creates {@code count} configmaps {@code cm-0..} in namespace {@code ns} (created first). */
    Phase creates(String ns, int count) {
        ApiClient.Response r = clients.getFirst().post("/api/v1/namespaces",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + ns + "\"}}");
        if (r.status() != 201) {
            throw new IllegalStateException("cannot create namespace " + ns + ": " + r);
        }
        return creates(ns, 0, count);
    }

    /** Creates configmaps {@code cm-from..cm-(to-1)} in the existing namespace {@code ns}. */
    Phase creates(String ns, int from, int to) {
        String path = "/api/v1/namespaces/" + ns + "/configmaps";
        return run(to - from, (client, i) -> client.post(path, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"metadata\":{\"name\":\"cm-" + (from + i) + "\",\"labels\":{\"bench\":\"e2e\"}},"
                + "\"data\":{\"key\":\"value-" + (from + i) + "\",\"other\":\"0123456789abcdef\"}}").status() == 201);
    }

    /**
     * Creates pods {@code pod-from..pod-(to-1)} in the existing namespace {@code ns}: each as a Deployment's
     * pod looks (labels, an owner, one container with ports, env, resources, probes and a volume).
     */
    Phase pods(String ns, int from, int to) {
        String path = "/api/v1/namespaces/" + ns + "/pods";
        return run(to - from, (client, i) -> client.post(path, POD.formatted(from + i)).status() == 201);
    }

    private static final String POD = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"pod-%d","labels":{"app":"web",
            "pod-template-hash":"5d8f7c9b6"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet",
            "name":"web-5d8f7c9b6","uid":"8b1f2a4e-3c6d-4e8f-9a0b-1c2d3e4f5a6b","controller":true,
            "blockOwnerDeletion":true}]},"spec":{"containers":[{"name":"web","image":"nginx:1.27",
            "ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],
            "env":[{"name":"MODE","value":"production"},{"name":"POD_NAME","valueFrom":{"fieldRef":
            {"fieldPath":"metadata.name"}}}],"resources":{"requests":{"cpu":"100m","memory":"128Mi"},
            "limits":{"cpu":"500m","memory":"256Mi"}},"readinessProbe":{"httpGet":{"path":"/healthz",
            "port":"http"},"periodSeconds":5},"volumeMounts":[{"name":"config","mountPath":"/etc/web"}]}],
            "volumes":[{"name":"config","configMap":{"name":"web-config"}}]}}""";

    /** Lists the whole namespace {@code count} times (one page each, as kubectl get without chunking). */
    Phase lists(String ns, int count) {
        String path = "/api/v1/namespaces/" + ns + "/configmaps";
        return run(count, (client, i) -> client.get(path).status() == 200);
    }

    /** Raw {@code GET /version} {@code count} times: the serving ceiling (TLS, HTTP/2, authentication, filters). */
    Phase versions(int count) {
        return run(count, (client, i) -> client.get("/version").status() == 200);
    }

    /** Gets {@code count} configmaps chosen at random among {@code cm-0..cm-(existing-1)} of {@code ns}. */
    Phase gets(String ns, int existing, int count) {
        String path = "/api/v1/namespaces/" + ns + "/configmaps/cm-";
        return run(count, (client, i) ->
                client.get(path + ThreadLocalRandom.current().nextInt(Math.max(existing, 1))).status() == 200);
    }

    /**
     * Merge-patches {@code data.key} of {@code count} configmaps chosen at random, as {@code kubectl patch --type=merge}.
     * Every value is new (this call's own prefix): a patch that repeated an earlier phase's value on the
     * same configmap would change nothing, and, as on kube-apiserver, make no watch event.
     */
    Phase patches(String ns, int existing, int count) {
        String path = "/api/v1/namespaces/" + ns + "/configmaps/cm-";
        String phase = Long.toString(System.nanoTime(), 36);
        return run(count, (client, i) -> client.send("PATCH",
                path + ThreadLocalRandom.current().nextInt(Math.max(existing, 1)),
                "{\"data\":{\"key\":\"patched-" + phase + "-" + i + "\"}}", "application/merge-patch+json")
                .status() == 200);
    }

    /**
     * Server-side applies {@code count} times, to configmaps chosen at random, a configuration owning one
     * key of its own ({@code kubectl apply --server-side --force-conflicts}).
     */
    Phase applies(String ns, int existing, int count) {
        String path = "/api/v1/namespaces/" + ns + "/configmaps/cm-";
        return run(count, (client, i) -> {
            int n = ThreadLocalRandom.current().nextInt(Math.max(existing, 1));
            String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm-" + n
                    + "\"},\"data\":{\"applied\":\"a-" + i + "\"}}";
            return client.send("PATCH", path + n + "?fieldManager=bench&force=true", body,
                    "application/apply-patch+yaml").status() == 200;
        });
    }

    private interface Request {
        boolean send(ApiClient client, int index);
    }

    private Phase run(int count, Request request) {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        long deadline = System.nanoTime() + limit.toNanos();
        List<long[]> perClient = new ArrayList<>();
        List<AtomicInteger> filled = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long t0 = System.nanoTime();
        for (ApiClient client : clients) {
            long[] latencies = new long[count];
            AtomicInteger n = new AtomicInteger();
            perClient.add(latencies);
            filled.add(n);
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = next.getAndIncrement(); i < count && System.nanoTime() < deadline; i = next.getAndIncrement()) {
                    long start = System.nanoTime();
                    boolean ok;
                    try {
                        ok = request.send(client, i);
                    } catch (RuntimeException e) {
                        ok = false;
                    }
                    if (ok) {
                        latencies[n.getAndIncrement()] = System.nanoTime() - start;
                    } else {
                        failed.incrementAndGet();
                    }
                }
            }));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - t0);
        int total = filled.stream().mapToInt(AtomicInteger::get).sum();
        long[] all = new long[total];
        int at = 0;
        for (int c = 0; c < perClient.size(); c++) {
            int n = filled.get(c).get();
            System.arraycopy(perClient.get(c), 0, all, at, n);
            at += n;
        }
        return Phase.of(failed.get(), elapsed, all);
    }
}
