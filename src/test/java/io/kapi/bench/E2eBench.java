package io.kapi.bench;

import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import io.kapi.e2e.Kubeconfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * End-to-end benchmark: starts a real Kapi process per storage backend on a free loopback port, and
 * measures, side by side, time to {@code /readyz}, creates/s and gets/s of a small configmap with N
 * concurrent HTTP/2 clients (median and p99 latency), and the server's RSS after the creates.
 *
 * <p>Bounded: a fixed number of requests per phase and a time limit per phase; loopback only.
 * Run with {@code bench/e2e.sh [--backends=embedded,memory] [--clients=8] [--creates=10000] [--gets=20000]}.
 */
public final class E2eBench {

    private E2eBench() {
    }

    /**
     * What one backend measured.
     *
     * @param startToReady first start, on an empty data directory (certificates generated)
     * @param restartToReady a restart after the creates (certificates and, if durable, data reloaded)
     * @param rssAfterKiB the server's VmRSS after all creates (warm-up included)
     */
    record Result(String backend, Duration startToReady, long rssReadyKiB, Phase creates, Phase gets,
                  long rssAfterKiB, int objects, Duration restartToReady) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = options(args);
        List<String> backends = List.of(opts.getOrDefault("backends", "embedded,memory").split(","));
        int clients = Integer.parseInt(opts.getOrDefault("clients", "8"));
        int creates = Integer.parseInt(opts.getOrDefault("creates", "10000"));
        int gets = Integer.parseInt(opts.getOrDefault("gets", "20000"));
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", "1000"));
        Duration limit = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("phase-seconds", "120")));

        List<Result> results = new ArrayList<>();
        for (String backend : backends) {
            results.add(run(backend, clients, warmup, creates, gets, limit));
        }
        System.out.println();
        System.out.printf("Kapi end-to-end, %d clients (HTTP/2, client certs, loopback), %d cores, small ConfigMap%n",
                clients, Runtime.getRuntime().availableProcessors());
        System.out.println(Table.render(results));
    }

    private static Result run(String backend, int clients, int warmup, int creates, int gets, Duration limit) {
        System.err.printf("== %s: starting%n", backend);
        try (KapiProcess kapi = new KapiProcess("bench-" + backend, List.of("--storage-backend=" + backend))) {
            kapi.start();
            long rssReady = kapi.rssKiB();
            Kubeconfig kubeconfig = kapi.kubeconfig();
            List<ApiClient> pool = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                pool.add(ApiClient.of(kubeconfig));
            }
            try {
                Load load = new Load(pool, limit);
                System.err.printf("== %s: ready in %d ms; warm-up%n", backend, kapi.lastStartToReady().toMillis());
                load.creates("warmup", warmup);
                load.gets("warmup", warmup, warmup * 2);
                System.err.printf("== %s: %d creates%n", backend, creates);
                Phase c = load.creates("bench", creates);
                System.err.printf("== %s: %d gets%n", backend, gets);
                Phase g = load.gets("bench", c.ok(), gets);
                Duration firstStart = kapi.lastStartToReady();
                long rssAfter = kapi.rssKiB();
                System.err.printf("== %s: restart%n", backend);
                kapi.restart();
                return new Result(backend, firstStart, rssReady, c, g, rssAfter, warmup + c.ok(), kapi.lastStartToReady());
            } finally {
                pool.forEach(ApiClient::close);
            }
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("expected --name=value, got " + arg);
            }
            opts.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        return opts;
    }
}
