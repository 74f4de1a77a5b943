package io.kapi.bench;

import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Protobuf against JSON storage ({@code --storage-media-type}) on the embedded backend, one real
 * {@code bin/kapi} per media type and population: {@code --configmaps} configmaps, or {@code --pods} pods,
 * created by {@code --clients} clients; then the bytes of the data directory's store (server stopped), the
 * resident memory after {@code --idle} seconds, and {@code --restarts} restarts to {@code /readyz} (median,
 * with the resident memory after the last one, idle). Servers are stopped and their data deleted at the
 * end. Run with {@code bench/storage-format.sh}.
 */
public final class StorageFormatBench {

    private StorageFormatBench() {
    }

    /** One server's figures. */
    record Result(String mediaType, String objects, int count, Duration fill, long storeBytes, long rssFilledKiB,
                  long restartMedianMillis, long[] restartsMillis, long rssRestartedKiB) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (String a : args) {
            String[] kv = a.replaceFirst("^--", "").split("=", 2);
            opts.put(kv[0], kv.length > 1 ? kv[1] : "true");
        }
        int configMaps = Integer.parseInt(opts.getOrDefault("configmaps", "100000"));
        int pods = Integer.parseInt(opts.getOrDefault("pods", "10000"));
        int clients = Integer.parseInt(opts.getOrDefault("clients", "8"));
        int restarts = Integer.parseInt(opts.getOrDefault("restarts", "5"));
        Duration idle = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("idle", "20")));
        List<String> types = List.of(opts.getOrDefault("media-types",
                "application/json,application/vnd.kubernetes.protobuf").split(","));
        List<Result> results = new ArrayList<>();
        for (String objects : List.of("configmaps", "pods")) {
            int count = objects.equals("pods") ? pods : configMaps;
            if (count == 0) {
                continue;
            }
            for (String type : types) {
                results.add(run(type, objects, count, clients, restarts, idle));
            }
        }
        System.out.printf("%nStorage media types, embedded backend: %d clients, %d cores, load %s%n", clients,
                Runtime.getRuntime().availableProcessors(), Files.readString(Path.of("/proc/loadavg")).trim());
        System.out.printf("%-36s %-10s %8s %9s %12s %10s %12s %10s  %s%n", "media type", "objects", "count",
                "fill s", "store bytes", "RSS MiB", "restart ms", "RSS' MiB", "restarts (ms, sorted)");
        for (Result r : results) {
            System.out.printf("%-36s %-10s %8d %9.1f %12d %10.0f %12d %10.0f  %s%n", r.mediaType(), r.objects(),
                    r.count(), r.fill().toMillis() / 1000.0, r.storeBytes(), r.rssFilledKiB() / 1024.0,
                    r.restartMedianMillis(), r.rssRestartedKiB() / 1024.0, Arrays.toString(r.restartsMillis()));
        }
    }

    private static Result run(String type, String objects, int count, int clients, int restarts, Duration idle)
            throws Exception {
        String name = "fmt-" + objects + "-" + (type.endsWith("protobuf") ? "pb" : "json");
        System.err.printf("== %s: %d %s stored as %s%n", name, count, objects, type);
        try (KapiProcess kapi = new KapiProcess(name, Path.of("."),
                List.of("--storage-media-type=" + type, "--storage-backend=embedded"))) {
            kapi.start();
            List<ApiClient> pool = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                pool.add(ApiClient.of(kapi.kubeconfig()));
            }
            Load load = new Load(pool, Duration.ofMinutes(20));
            ApiClient.Response ns = pool.getFirst().post("/api/v1/namespaces",
                    "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"bench\"}}");
            if (ns.status() != 201) {
                throw new IllegalStateException("namespace: " + ns);
            }
            awaitDefaultServiceAccount(pool.getFirst());
            Phase fill = objects.equals("pods") ? load.pods("bench", 0, count) : load.creates("bench", 0, count);
            if (fill.failed() > 0) {
                System.err.printf("   %d creates failed%n", fill.failed());
            }
            pool.forEach(ApiClient::close);
            Thread.sleep(idle);
            long rssFilled = kapi.rssKiB();
            kapi.stop();
            long bytes = bytes(kapi.dataDir());
            long[] millis = new long[restarts];
            for (int i = 0; i < restarts; i++) {
                if (i > 0) {
                    kapi.stop();
                }
                kapi.start();
                millis[i] = kapi.lastStartToReady().toMillis();
            }
            long[] sorted = millis.clone();
            Arrays.sort(sorted);
            Thread.sleep(idle);
            long rssRestarted = kapi.rssKiB();
            return new Result(type, objects, fill.ok(), fill.elapsed(), bytes, rssFilled, sorted[(restarts - 1) / 2],
                    sorted, rssRestarted);
        }
    }

    /** Pods need their namespace's default service account (the ServiceAccount admission plugin). */
    private static void awaitDefaultServiceAccount(ApiClient client) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            if (client.get("/api/v1/namespaces/bench/serviceaccounts/default").status() == 200) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no default service account in namespace bench");
    }

    /** The bytes of the store: every file under the data directory but the certificates and keys. */
    private static long bytes(Path dataDir) {
        try (Stream<Path> files = Files.walk(dataDir)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().matches(".*\\.(crt|key|pem|pub)$"))
                    .mapToLong(f -> {
                        try {
                            return Files.size(f);
                        } catch (IOException e) {
                            return 0;
                        }
                    }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
