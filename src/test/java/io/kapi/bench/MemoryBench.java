package io.kapi.bench;

import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import io.kapi.e2e.Kubeconfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Memory and start-up of real {@code bin/kapi} processes of one or more checkouts, side by side (the
 * branch and a baseline of main, say), each with its own defaults (JVM options included):
 * <ol>
 *   <li>first start on an empty data dir (certificates generated), then the resident memory (VmRSS)
 *       of the idle empty server after {@code --idle} seconds, and the p50 of {@code --restarts}
 *       restarts to {@code /readyz};</li>
 *   <li>{@code --small} configmaps created, the load figures measured on them (creates, gets,
 *       merge patches, whole-namespace lists, watch events delivered to {@code --watchers}), then
 *       RSS right after the load and after {@code --idle} seconds;</li>
 *   <li>up to {@code --large} configmaps, RSS after {@code --idle} seconds, and the restarts again.</li>
 * </ol>
 * Before them, unrecorded, the load phases run once ({@code --warmup} configmaps, 0 for none) against a
 * server of the first checkout, so that every checkout meets a load generator whose code is compiled.
 * Loopback only, bounded (counts and a time limit per phase); servers are stopped and their data
 * deleted at the end. Run with {@code bench/memory.sh}.
 */
public final class MemoryBench {

    private MemoryBench() {
    }

    /** Everything one checkout measured. */
    record Result(String name, Duration firstStart, long rssIdleEmptyKiB, Duration restartEmptyP50,
                  Phase creates, Phase gets, Phase patches, Phase lists, Phase watch,
                  long rssAfterLoadKiB, long rssSmallKiB, long rssLargeKiB, int large, Duration restartLargeP50) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchOptions.parse(args);
        int small = Integer.parseInt(opts.getOrDefault("small", "12000"));
        int large = Integer.parseInt(opts.getOrDefault("large", "100000"));
        int restarts = Integer.parseInt(opts.getOrDefault("restarts", "10"));
        int clients = Integer.parseInt(opts.getOrDefault("clients", "8"));
        int watchers = Integer.parseInt(opts.getOrDefault("watchers", "20"));
        Duration idle = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("idle", "20")));
        Duration limit = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("phase-seconds", "300")));
        int warmUp = Integer.parseInt(opts.getOrDefault("warmup", "3000"));
        String[] projects = opts.getOrDefault("projects", "this=.").split(",");
        if (warmUp > 0) {
            warmUp(Path.of(projects[0].split("=", 2)[1]), warmUp, clients, watchers, limit);
        }
        List<Result> results = new ArrayList<>();
        for (String project : projects) {
            String[] nameDir = project.split("=", 2);
            results.add(run(nameDir[0], Path.of(nameDir[1]), small, large, restarts, clients, watchers, idle, limit));
        }
        System.out.println();
        System.out.printf("Kapi memory and start-up: %d / %d configmaps, %d clients, %d watchers, %d cores%n",
                small, large, clients, watchers, Runtime.getRuntime().availableProcessors());
        System.out.println(MemoryTable.render(results));
    }

    private static Result run(String name, Path dir, int small, int large, int restarts, int clients, int watchers,
                              Duration idle, Duration limit) throws Exception {
        System.err.printf("== %s (%s): first start%n", name, dir.toAbsolutePath());
        try (KapiProcess kapi = new KapiProcess("mem-" + name, dir, List.of())) {
            kapi.start();
            Duration first = kapi.lastStartToReady();
            long rssIdle = idleRss(kapi, idle);
            Duration restartEmpty = restartP50(kapi, restarts);
            List<ApiClient> pool = clients(kapi, clients);
            try {
                Load load = new Load(pool, limit);
                System.err.printf("== %s: %d creates, then gets, patches, lists, watch%n", name, small);
                LoadFigures f = loadPhases(kapi, pool, load, small, 20_000, 5_000, 40, watchers);
                long afterLoad = kapi.rssKiB();
                long rssSmall = idleRss(kapi, idle);
                System.err.printf("== %s: up to %d configmaps%n", name, large);
                load.creates("bench", small, large);
                long rssLarge = idleRss(kapi, idle);
                pool.forEach(ApiClient::close);
                pool.clear();
                Duration restartLarge = restartP50(kapi, restarts);
                return new Result(name, first, rssIdle, restartEmpty, f.creates(), f.gets(), f.patches(), f.lists(),
                        f.watch(), afterLoad, rssSmall, rssLarge, large, restartLarge);
            } finally {
                pool.forEach(ApiClient::close);
            }
        }
    }

    /**
     * The load phases once, unrecorded, against a server of the first checkout: the bench's own client
     * code is compiled by then. Without it the first checkout measured got a quarter to a third fewer
     * creates and gets per second than the same build measured later in the same run.
     */
    private static void warmUp(Path dir, int configMaps, int clients, int watchers, Duration limit) throws Exception {
        System.err.printf("== warm-up (%s): %d configmaps, not recorded%n", dir.toAbsolutePath(), configMaps);
        try (KapiProcess kapi = new KapiProcess("mem-warmup", dir, List.of())) {
            kapi.start();
            List<ApiClient> pool = clients(kapi, clients);
            try {
                loadPhases(kapi, pool, new Load(pool, limit), configMaps, configMaps, configMaps / 4, 10, watchers);
            } finally {
                pool.forEach(ApiClient::close);
            }
        }
    }

    /** The load figures of one server. */
    private record LoadFigures(Phase creates, Phase gets, Phase patches, Phase lists, Phase watch) {
    }

    /** {@code configMaps} creates, then gets, merge patches, whole-namespace lists and the watch phase. */
    private static LoadFigures loadPhases(KapiProcess kapi, List<ApiClient> pool, Load load, int configMaps, int gets,
                                          int patches, int lists, int watchers) throws Exception {
        Phase created = load.creates("bench", configMaps);
        Phase got = load.gets("bench", configMaps, gets);
        Phase patched = load.patches("bench", configMaps, patches);
        Phase listed = load.lists("bench", lists);
        return new LoadFigures(created, got, patched, listed, watch(kapi.kubeconfig(), pool.getFirst(), load, configMaps, watchers));
    }

    private static List<ApiClient> clients(KapiProcess kapi, int count) {
        List<ApiClient> pool = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pool.add(ApiClient.of(kapi.kubeconfig()));
        }
        return pool;
    }

    /** RSS after the server has been left alone for {@code idle}. */
    private static long idleRss(KapiProcess kapi, Duration idle) throws InterruptedException {
        Thread.sleep(idle);
        return kapi.rssKiB();
    }

    private static Duration restartP50(KapiProcess kapi, int restarts) {
        long[] millis = new long[restarts];
        for (int i = 0; i < restarts; i++) {
            kapi.restart();
            millis[i] = kapi.lastStartToReady().toMillis();
        }
        Arrays.sort(millis);
        System.err.printf("   restarts (ms, sorted): %s%n", Arrays.toString(millis));
        return Duration.ofMillis(millis[(restarts - 1) / 2]);
    }

    /**
     * {@code watchers} watches of the namespace from its current version; 2000 merge patches; the phase
     * is the time until every watcher has seen every patch, its "requests" the events delivered.
     */
    private static Phase watch(Kubeconfig kubeconfig, ApiClient client, Load load, int existing, int watchers)
            throws Exception {
        int patches = 2_000;
        String rv = client.get("/api/v1/namespaces/bench/configmaps?limit=1").json()
                .path("metadata").path("resourceVersion").asText();
        CountDownLatch done = new CountDownLatch(watchers);
        List<ApiClient> watchClients = new ArrayList<>();
        List<Thread> readers = new ArrayList<>();
        AtomicInteger delivered = new AtomicInteger();
        for (int w = 0; w < watchers; w++) {
            ApiClient wc = ApiClient.of(kubeconfig);
            watchClients.add(wc);
            AtomicInteger seen = new AtomicInteger();
            readers.add(Thread.ofVirtual().start(() -> {
                try {
                    wc.stream("/api/v1/namespaces/bench/configmaps?watch=true&timeoutSeconds=300&resourceVersion=" + rv,
                            line -> {
                                if (line.contains("\"MODIFIED\"")) {
                                    delivered.incrementAndGet();
                                    if (seen.incrementAndGet() == patches) {
                                        done.countDown();
                                    }
                                }
                            });
                } catch (RuntimeException e) {
                    // the watch ended (closed below)
                }
            }));
        }
        long t0 = System.nanoTime();
        Phase sent = load.patches("bench", existing, patches);
        boolean all = done.await(300, TimeUnit.SECONDS);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - t0);
        watchClients.forEach(ApiClient::closeNow);
        readers.forEach(Thread::interrupt);
        if (!all) {
            System.err.printf("   watch: only %d of %d events delivered%n", delivered.get(), patches * watchers);
        }
        return new Phase(delivered.get(), patches * watchers - delivered.get() + sent.failed(), elapsed,
                sent.latenciesNanos());
    }

}
