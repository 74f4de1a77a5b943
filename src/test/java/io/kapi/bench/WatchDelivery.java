package io.kapi.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kapi.e2e.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Watch delivery, end to end: {@code watchers} watches of one namespace (HTTP/2 streams), then
 * {@code events} configmap creates by the client pool; for every (watcher, create) pair, the time
 * from sending the create to the watcher reading its ADDED event. The phase's rate is events
 * delivered per second over all watchers, its "failed" the events not delivered within the limit.
 */
final class WatchDelivery {

    private static final ObjectMapper JSON = new ObjectMapper();

    private WatchDelivery() {
    }

    static Phase measure(List<ApiClient> clients, String ns, int watchers, int events, Duration limit)
            throws InterruptedException {
        ApiClient first = clients.getFirst();
        first.post("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + ns + "\"}}");
        String path = "/api/v1/namespaces/" + ns + "/configmaps";
        String rv = first.get(path).json().path("metadata").path("resourceVersion").asText();
        List<Map<String, Long>> received = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < watchers; w++) {
            Map<String, Long> got = new ConcurrentHashMap<>();
            received.add(got);
            ApiClient client = clients.get(w % clients.size());
            threads.add(Thread.ofVirtual().start(() -> client.stream(path + "?watch=1&resourceVersion=" + rv, line -> {
                long now = System.nanoTime();
                try {
                    got.putIfAbsent(JSON.readTree(line).path("object").path("metadata").path("name").asText(), now);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            })));
        }
        post(first, path, "probe");
        awaitAll(received, List.of("probe"), limit);
        Map<String, Long> sent = new ConcurrentHashMap<>();
        AtomicInteger next = new AtomicInteger();
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (ApiClient client : clients) {
                pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < events; i = next.getAndIncrement()) {
                        sent.put("ev-" + i, System.nanoTime());
                        post(client, path, "ev-" + i);
                    }
                });
            }
        }
        List<String> names = new ArrayList<>(sent.keySet());
        awaitAll(received, names, limit);
        threads.forEach(Thread::interrupt);
        List<Long> latencies = new ArrayList<>();
        long last = start;
        int missing = 0;
        for (Map<String, Long> got : received) {
            for (String name : names) {
                Long at = got.get(name);
                if (at == null) {
                    missing++;
                } else {
                    latencies.add(at - sent.get(name));
                    last = Math.max(last, at);
                }
            }
        }
        return Phase.of(missing, Duration.ofNanos(last - start), latencies.stream().mapToLong(Long::longValue).toArray());
    }

    private static void post(ApiClient client, String path, String name) {
        client.post(path, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\"},\"data\":{\"key\":\"value\"}}");
    }

    private static void awaitAll(List<Map<String, Long>> received, List<String> names, Duration limit)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline
                && !received.stream().allMatch(got -> got.keySet().containsAll(names))) {
            Thread.sleep(10);
        }
    }
}
