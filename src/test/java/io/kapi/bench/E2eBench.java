package io.kapi.bench;

import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import io.kapi.e2e.Kubeconfig;
import io.kapi.storage.etcd.EtcdCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * End-to-end benchmark: starts a real Kapi process per storage backend on a free loopback port, and
 * measures, side by side, time to {@code /readyz}, creates/s and gets/s of a small configmap with N
 * concurrent HTTP/2 clients (median and p99 latency), and the server's RSS after the creates.
 *
 * <p>Bounded: a fixed number of requests per phase and a time limit per phase; loopback only.
 * Watch delivery: N watchers of one namespace, then M creates; per event the time from sending the
 * create to each watcher reading it. Backends: {@code embedded}, {@code memory}, {@code etcd} (Kapi on a
 * one-member etcd started for the run), {@code etcd3} (on a three-member cluster).
 * Run with {@code bench/e2e.sh [--backends=embedded,etcd] [--clients=8] [--creates=10000] [--gets=20000]
 * [--watchers=10] [--watch-events=2000]}.
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
                  Phase watch, long rssAfterKiB, int objects, Duration restartToReady) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchOptions.parse(args);
        List<String> backends = List.of(opts.getOrDefault("backends", "embedded,etcd").split(","));
        int watchers = Integer.parseInt(opts.getOrDefault("watchers", "10"));
        int watchEvents = Integer.parseInt(opts.getOrDefault("watch-events", "2000"));
        int clients = Integer.parseInt(opts.getOrDefault("clients", "8"));
        int creates = Integer.parseInt(opts.getOrDefault("creates", "10000"));
        int gets = Integer.parseInt(opts.getOrDefault("gets", "20000"));
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", "1000"));
        Duration limit = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("phase-seconds", "120")));

        List<Result> results = new ArrayList<>();
        for (String backend : backends) {
            results.add(run(backend, clients, warmup, creates, gets, watchers, watchEvents, limit));
        }
        System.out.println();
        System.out.printf("Kapi end-to-end, %d clients (HTTP/2, client certs, loopback), %d cores, small ConfigMap; "
                + "watch: %d watchers x %d creates%n", clients, Runtime.getRuntime().availableProcessors(), watchers,
                watchEvents);
        System.out.println(Table.render(results));
    }

    /**
     * One backend: {@code embedded} or {@code memory} as they are; {@code etcd} on a fresh one-member etcd
     * (Debian's, as the tests use), {@code etcd3} on a fresh three-member cluster.
     */
    private static Result run(String backend, int clients, int warmup, int creates, int gets, int watchers,
                              int watchEvents, Duration limit) throws Exception {
        System.err.printf("== %s: starting%n", backend);
        EtcdCluster etcd = backend.startsWith("etcd")
                ? (backend.equals("etcd3") ? EtcdCluster.members(3) : EtcdCluster.single()).start("bench-" + backend)
                : null;
        List<String> args = etcd == null ? List.of("--storage-backend=" + backend) : List.of("--etcd-servers=" + etcd.servers());
        try (KapiProcess kapi = new KapiProcess("bench-" + backend, args)) {
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
                System.err.printf("== %s: watch delivery, %d watchers x %d creates%n", backend, watchers, watchEvents);
                Phase w = WatchDelivery.measure(pool, "watch", watchers, watchEvents, limit);
                Duration firstStart = kapi.lastStartToReady();
                long rssAfter = kapi.rssKiB();
                System.err.printf("== %s: restart%n", backend);
                kapi.restart();
                return new Result(backend, firstStart, rssReady, c, g, w, rssAfter, warmup + c.ok(),
                        kapi.lastStartToReady());
            } finally {
                pool.forEach(ApiClient::close);
            }
        } finally {
            if (etcd != null) {
                etcd.close();
            }
        }
    }

}
