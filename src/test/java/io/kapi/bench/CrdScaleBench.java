package io.kapi.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * CustomResourceDefinitions at scale (kubernetes#101755, #118136): one real {@code bin/kapi} (memory
 * storage), its resident memory and discovery/OpenAPI latencies measured empty, then {@code --count}
 * CRDs (each its own group, a small structural schema with a default and a CEL rule) created by
 * {@code --clients} concurrent clients, the time from each create to its {@code Established=True}
 * (seen on a watch of the CRDs) and until all are, then the same latencies and memory with them
 * installed, side by side with the empty server (the baseline) as ratios (resident memory, and the heap
 * in use after a full collection, which {@code jcmd} asks for), and the create latency of a
 * custom resource with a CEL rule. Bounded by {@code --limit-seconds}. Run with {@code bench/crd-scale.sh}.
 */
public final class CrdScaleBench {

    private static final String AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

    private CrdScaleBench() {
    }

    /**
     * What one probe round measured: median latencies in ms (of {@code rounds}, after as many unmeasured
     * for warm-up), the resident memory, and the heap in use after a full collection (the live data).
     */
    record Probes(Map<String, Double> medianMillis, long rssKiB, long liveHeapKiB) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchOptions.parse(args);
        int count = Integer.parseInt(opts.getOrDefault("count", "500"));
        int clients = Integer.parseInt(opts.getOrDefault("clients", "4"));
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "5"));
        Duration limit = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("limit-seconds", "60")));
        try (KapiProcess kapi = new KapiProcess("bench-crds", List.of("--storage-backend=memory"));
             ApiClient api = ApiClient.of(kapi.start().kubeconfig())) {
            System.err.printf("== ready in %d ms; baseline probes%n", kapi.lastStartToReady().toMillis());
            Probes before = probes(api, kapi, rounds, null);
            Map<String, Long> created = new ConcurrentHashMap<>();
            Map<String, Long> established = new ConcurrentHashMap<>();
            CountDownLatch all = new CountDownLatch(count);
            Thread watcher = Thread.ofVirtual().start(() -> api.stream(CRDS + "?watch=1&allowWatchBookmarks=false",
                    line -> established(line, established, all)));
            System.err.printf("== creating %d CRDs with %d clients%n", count, clients);
            long start = System.nanoTime();
            int failed = create(api, count, clients, created);
            boolean done = all.await(Math.max(1, limit.toSeconds() - (System.nanoTime() - start) / 1_000_000_000L),
                    TimeUnit.SECONDS);
            long allEstablished = System.nanoTime() - start;
            watcher.interrupt();
            System.err.printf("== %s in %.1f s; probes%n", done ? "all Established" : "limit reached", allEstablished / 1e9);
            Probes after = probes(api, kapi, rounds, "g0.bench.example.com/v1");
            System.err.println("== custom resource creates");
            Phase cel = celCreates(api, rounds);
            report(count, clients, failed, done, created, established, allEstablished, before, after, cel);
        }
    }

    private static int create(ApiClient api, int count, int clients, Map<String, Long> created) throws Exception {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
            for (int c = 0; c < clients; c++) {
                pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                        String name = "things.g" + i + ".bench.example.com";
                        created.put(name, System.nanoTime());
                        if (api.post(CRDS, crd(i)).status() != 201) {
                            failed.incrementAndGet();
                        }
                    }
                });
            }
        }
        return failed.get();
    }

    private static void established(String line, Map<String, Long> established, CountDownLatch all) {
        try {
            JsonNode object = Json.MAPPER.readTree(line).path("object");
            String name = object.path("metadata").path("name").asText();
            for (JsonNode c : object.path("status").path("conditions")) {
                if (c.path("type").asText().equals("Established") && c.path("status").asText().equals("True")
                        && established.putIfAbsent(name, System.nanoTime()) == null) {
                    all.countDown();
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("watch line is not JSON: " + line, e);
        }
    }

    private static String crd(int i) {
        String group = "g" + i + ".bench.example.com";
        return "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\",\"metadata\":{\"name\":"
                + "\"things." + group + "\"},\"spec\":{\"group\":\"" + group + "\",\"scope\":\"Namespaced\",\"names\":{"
                + "\"plural\":\"things\",\"kind\":\"Thing\"},\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,"
                + "\"subresources\":{\"status\":{}},\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\",\"properties\":{"
                + "\"spec\":{\"type\":\"object\",\"x-kubernetes-validations\":[{\"rule\":\"self.replicas <= 100\"}],"
                + "\"properties\":{\"replicas\":{\"type\":\"integer\",\"default\":1},\"image\":{\"type\":\"string\"}}},"
                + "\"status\":{\"type\":\"object\",\"properties\":{\"ready\":{\"type\":\"boolean\"}}}}}}}]}}";
    }

    /** Median latencies of discovery (legacy and aggregated), OpenAPI v3's index and a group's document. */
    private static Probes probes(ApiClient api, KapiProcess kapi, int rounds, String groupVersion) {
        Map<String, String> paths = new LinkedHashMap<>();
        paths.put("GET /apis", "/apis");
        paths.put("GET /apis (aggregated v2)", "/apis");
        paths.put("GET /openapi/v3", "/openapi/v3");
        paths.put("GET /openapi/v2", "/openapi/v2");
        if (groupVersion != null) {
            paths.put("GET /openapi/v3/apis/<crd group>", "/openapi/v3/apis/" + groupVersion);
            paths.put("GET /apis/<crd group>/v1", "/apis/" + groupVersion);
        }
        Map<String, Double> out = new LinkedHashMap<>();
        paths.forEach((label, path) -> {
            String accept = label.contains("aggregated") ? AGGREGATED : "application/json";
            long[] nanos = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                api.send("GET", path, null, null, accept);
            }
            for (int r = 0; r < rounds; r++) {
                long t = System.nanoTime();
                int status = api.send("GET", path, null, null, accept).status();
                nanos[r] = System.nanoTime() - t;
                if (status != 200) {
                    throw new IllegalStateException(path + " answered " + status);
                }
            }
            out.put(label, Phase.of(0, Duration.ZERO, nanos).medianMillis());
        });
        return new Probes(out, kapi.rssKiB(), liveHeapKiB(kapi.serverPid()));
    }

    /** The server's heap in use after a full GC ({@code jcmd GC.run}, then {@code GC.heap_info}), in KiB. */
    private static long liveHeapKiB(long pid) {
        String jcmd = System.getProperty("java.home") + "/bin/jcmd";
        try {
            new ProcessBuilder(jcmd, Long.toString(pid), "GC.run").redirectErrorStream(true).start().waitFor();
            Process info = new ProcessBuilder(jcmd, Long.toString(pid), "GC.heap_info").redirectErrorStream(true).start();
            String out = new String(info.getInputStream().readAllBytes());
            info.waitFor();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("used (\\d+)K").matcher(out);
            return m.find() ? Long.parseLong(m.group(1)) : -1;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Creates of a custom resource whose schema has a CEL rule (the first CRD's). */
    private static Phase celCreates(ApiClient api, int rounds) {
        long[] nanos = new long[rounds * 4];
        int failed = 0;
        long start = System.nanoTime();
        for (int i = 0; i < nanos.length; i++) {
            long t = System.nanoTime();
            int status = api.post("/apis/g0.bench.example.com/v1/namespaces/default/things", "{\"apiVersion\":"
                    + "\"g0.bench.example.com/v1\",\"kind\":\"Thing\",\"metadata\":{\"name\":\"t" + i + "\"},"
                    + "\"spec\":{\"replicas\":3,\"image\":\"x\"}}").status();
            nanos[i] = System.nanoTime() - t;
            failed += status == 201 ? 0 : 1;
        }
        return Phase.of(failed, Duration.ofNanos(System.nanoTime() - start), nanos);
    }

    private static void report(int count, int clients, int failed, boolean done, Map<String, Long> created,
                               Map<String, Long> established, long allNanos, Probes before, Probes after, Phase cel) {
        List<Long> each = new ArrayList<>();
        created.forEach((name, t) -> {
            Long e = established.get(name);
            if (e != null) {
                each.add(e - t);
            }
        });
        long[] sorted = each.stream().mapToLong(Long::longValue).sorted().toArray();
        Phase toEstablished = Phase.of(0, Duration.ofNanos(allNanos), sorted);
        System.out.println();
        System.out.printf("Kapi with %d CRDs (%d clients creating, %d cores)%n", count, clients,
                Runtime.getRuntime().availableProcessors());
        System.out.printf("  creates failed: %d; Established: %d of %d%s%n", failed, sorted.length, count,
                done ? "" : " (limit reached)");
        System.out.printf("  create -> Established, each: p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, max %.0f ms%n",
                toEstablished.medianMillis(), percentile(sorted, 0.90), toEstablished.p99Millis(),
                sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1e6);
        System.out.printf("  first create -> all Established: %.1f s%n", allNanos / 1e9);
        System.out.printf("  %-36s %12s %12s %8s%n", "median latency", "0 CRDs", count + " CRDs", "ratio");
        after.medianMillis().forEach((label, ms) -> {
            Double base = before.medianMillis().get(label);
            System.out.printf("  %-36s %12s %9.1f ms %8s%n", label, base == null ? "-" : String.format("%.1f ms", base),
                    ms, base == null ? "-" : String.format("%.1fx", ms / base));
        });
        System.out.printf("  %-36s %9d MiB %9d MiB %7.1fx%n", "RSS", before.rssKiB() / 1024, after.rssKiB() / 1024,
                after.rssKiB() / (double) before.rssKiB());
        System.out.printf("  %-36s %9d MiB %9d MiB %7.1fx%n", "heap in use after a full GC", before.liveHeapKiB() / 1024,
                after.liveHeapKiB() / 1024, after.liveHeapKiB() / (double) before.liveHeapKiB());
        System.out.printf("  per CRD: RSS %.1f KiB, live heap %.1f KiB%n", (after.rssKiB() - before.rssKiB()) / (double) count,
                (after.liveHeapKiB() - before.liveHeapKiB()) / (double) count);
        System.out.printf("  custom resource create with a CEL rule: p50 %.1f ms, p99 %.1f ms (%d, %d failed)%n",
                cel.medianMillis(), cel.p99Millis(), cel.ok(), cel.failed());
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[(int) Math.max(0, Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1))] / 1e6;
    }

}
