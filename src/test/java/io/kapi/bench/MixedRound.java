package io.kapi.bench;

import io.kapi.e2e.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One timed round of mixed load: every client, in a closed loop, sends the next kind of request in turn
 * (a raw {@code GET /version}, a get, a create, a merge patch and a server-side apply of configmaps), so that
 * all paths warm up together, as they do on a server restarted under real load. Counts what each kind
 * completed in the round.
 */
final class MixedRound {

    /** The kinds of request, in the order each client cycles through them. */
    enum Kind {
        VERSION("GET /version"), GET("gets"), CREATE("creates"), PATCH("merge patches"), APPLY("applies");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /** What one round did: requests answered as expected per kind, failures, and the round's length. */
    record Result(Map<Kind, Integer> ok, int failed, Duration elapsed) {

        double perSecond(Kind kind) {
            return ok.get(kind) / Math.max(elapsed.toNanos() / 1e9, 1e-9);
        }

        double totalPerSecond() {
            return ok.values().stream().mapToInt(Integer::intValue).sum() / Math.max(elapsed.toNanos() / 1e9, 1e-9);
        }
    }

    private final List<ApiClient> clients;
    private final String namespace;
    private final int seeded;
    private final AtomicInteger created = new AtomicInteger();

    /**
     * @param namespace holds configmaps {@code cm-0 .. cm-(seeded-1)}, which gets, patches and applies pick from
     */
    MixedRound(List<ApiClient> clients, String namespace, int seeded) {
        this.clients = List.copyOf(clients);
        this.namespace = namespace;
        this.seeded = seeded;
    }

    Result run(Duration length) {
        Kind[] kinds = Kind.values();
        AtomicIntegerArray ok = new AtomicIntegerArray(kinds.length);
        AtomicInteger failed = new AtomicInteger();
        long t0 = System.nanoTime();
        long deadline = t0 + length.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients.size(); c++) {
            ApiClient client = clients.get(c);
            int offset = c;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = offset; System.nanoTime() < deadline; i++) {
                    Kind kind = kinds[i % kinds.length];
                    boolean answered;
                    try {
                        answered = send(client, kind);
                    } catch (RuntimeException e) {
                        answered = false;
                    }
                    if (answered) {
                        ok.incrementAndGet(kind.ordinal());
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
        Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
        for (Kind kind : kinds) {
            counts.put(kind, ok.get(kind.ordinal()));
        }
        return new Result(counts, failed.get(), elapsed);
    }

    private boolean send(ApiClient client, Kind kind) {
        String configmaps = "/api/v1/namespaces/" + namespace + "/configmaps";
        int n = ThreadLocalRandom.current().nextInt(seeded);
        return switch (kind) {
            case VERSION -> client.get("/version").status() == 200;
            case GET -> client.get(configmaps + "/cm-" + n).status() == 200;
            case CREATE -> client.post(configmaps, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
                    + "{\"name\":\"new-" + created.getAndIncrement() + "-" + System.nanoTime() + "\"},"
                    + "\"data\":{\"key\":\"value\",\"other\":\"0123456789abcdef\"}}").status() == 201;
            case PATCH -> client.send("PATCH", configmaps + "/cm-" + n,
                    "{\"data\":{\"key\":\"patched-" + System.nanoTime() + "\"}}", "application/merge-patch+json")
                    .status() == 200;
            case APPLY -> client.send("PATCH", configmaps + "/cm-" + n + "?fieldManager=bench&force=true",
                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm-" + n
                            + "\"},\"data\":{\"applied\":\"a-" + System.nanoTime() + "\"}}",
                    "application/apply-patch+yaml").status() == 200;
        };
    }
}
