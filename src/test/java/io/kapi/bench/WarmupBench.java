package io.kapi.bench;

import io.kapi.bench.MixedRound.Kind;
import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The warm-up benchmark: how soon after a restart a server serves at its peak. For each build (two
 * checkouts, or one checkout under two names with other server flags or JVM options), in interleaved
 * starts (A B, B A, ...): a fresh server is seeded with configmaps and stopped, then started again (the
 * restart is timed to {@code /readyz}) and driven at once by N clients with mixed load ({@link MixedRound})
 * in rounds of fixed length. The report gives each kind's rate in the first round (cold) and in the last
 * three (warm), their ratio, the server's CPU per request and the share of it its JIT compiler threads
 * used, the restart time, and the whole curve.
 *
 * <p>Run with {@code bench/warmup.sh --builds=before=/path/a,after=. [--starts=3] [--rounds=10]
 * [--seconds=8] [--clients=8] [--configmaps=1000] [--flags.NAME='--server-flag ...']
 * [--java.NAME='-XX:... JVM options for bin/kapi (KAPI_JAVA_OPTS)']}.
 */
public final class WarmupBench {

    private static final int WARM_ROUNDS = 3;

    private WarmupBench() {
    }

    /**
     * One start of one build: its restart time, and per round the load's result, the server's CPU and the
     * part of it its JIT compiler threads used.
     */
    record Start(Duration restart, List<MixedRound.Result> rounds, List<Double> cpuSeconds, List<Double> jitSeconds) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchOptions.parse(args);
        Map<String, Path> builds = new LinkedHashMap<>();
        for (String b : opts.getOrDefault("builds", "current=.").split(",")) {
            String[] kv = b.split("=", 2);
            builds.put(kv[0], Path.of(kv[1]));
        }
        int starts = Integer.parseInt(opts.getOrDefault("starts", "3"));
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "10"));
        Duration length = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("seconds", "8")));
        int clients = Integer.parseInt(opts.getOrDefault("clients", "8"));
        int configmaps = Integer.parseInt(opts.getOrDefault("configmaps", "1000"));
        if (rounds < WARM_ROUNDS + 1) {
            throw new IllegalArgumentException("--rounds must be at least " + (WARM_ROUNDS + 1));
        }

        Map<String, List<Start>> results = new LinkedHashMap<>();
        builds.keySet().forEach(name -> results.put(name, new ArrayList<>()));
        List<String> order = new ArrayList<>(builds.keySet());
        for (int s = 1; s <= starts; s++) {
            for (String name : order) {
                System.err.printf("== start %d: %s%n", s, name);
                List<String> flags = split(opts.getOrDefault("flags." + name, ""));
                Start start = start(name, builds.get(name), flags, opts.getOrDefault("java." + name, ""),
                        clients, configmaps, rounds, length);
                System.err.printf("   restart %d ms; rounds/s %s%n", start.restart().toMillis(),
                        start.rounds().stream().map(r -> String.format("%.0f", r.totalPerSecond())).toList());
                results.get(name).add(start);
            }
            order = order.reversed();
        }
        System.out.printf("%nKapi warm-up after a restart: %d clients (HTTP/2, client certs, loopback), mixed load, "
                        + "%d rounds of %d s, %d cores; cold = round 1, warm = median of rounds %d-%d; medians over %d starts%n",
                clients, rounds, length.toSeconds(), Runtime.getRuntime().availableProcessors(),
                rounds - WARM_ROUNDS + 1, rounds, starts);
        System.out.println(summary(results));
        System.out.println(curve(results, rounds));
    }

    private static Start start(String name, Path project, List<String> flags, String javaOptions, int clients,
                               int configmaps, int rounds, Duration length) {
        try (KapiProcess kapi = new KapiProcess("warmup-" + name, project, flags).withJavaOptions(javaOptions)) {
            kapi.start();
            seed(kapi, configmaps);
            kapi.restart();
            Duration restart = kapi.lastStartToReady();
            ProcessHandle server = ProcessHandle.of(kapi.serverPid()).orElseThrow();
            List<ApiClient> pool = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                pool.add(ApiClient.of(kapi.kubeconfig()));
            }
            try {
                MixedRound mix = new MixedRound(pool, "warm", configmaps);
                List<MixedRound.Result> results = new ArrayList<>();
                List<Double> cpu = new ArrayList<>();
                List<Double> jit = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    Duration before = server.info().totalCpuDuration().orElse(Duration.ZERO);
                    double jitBefore = kapi.compilerCpuSeconds();
                    results.add(mix.run(length));
                    Duration after = server.info().totalCpuDuration().orElse(Duration.ZERO);
                    cpu.add(after.minus(before).toNanos() / 1e9);
                    jit.add(kapi.compilerCpuSeconds() - jitBefore);
                }
                return new Start(restart, results, cpu, jit);
            } finally {
                pool.forEach(ApiClient::close);
            }
        }
    }

    /** Namespace {@code warm} with configmaps {@code cm-0..}, written by the server's first life. */
    private static void seed(KapiProcess kapi, int configmaps) {
        List<ApiClient> pool = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            pool.add(ApiClient.of(kapi.kubeconfig()));
        }
        try {
            Phase seeded = new Load(pool, Duration.ofMinutes(5)).creates("warm", configmaps);
            if (seeded.ok() != configmaps) {
                throw new IllegalStateException("seeded " + seeded.ok() + " of " + configmaps + " configmaps");
            }
        } finally {
            pool.forEach(ApiClient::close);
        }
    }

    private static String summary(Map<String, List<Start>> results) {
        List<String> names = List.copyOf(results.keySet());
        StringBuilder out = new StringBuilder(String.format("%-24s", ""));
        for (String n : names) {
            out.append(String.format("%12s%12s%10s", n + " cold", n + " warm", "cold/warm"));
        }
        if (names.size() == 2) {
            out.append(String.format("%12s%12s", "cold " + names.get(1) + "/" + names.get(0), "warm ratio"));
        }
        out.append('\n');
        for (Kind kind : Kind.values()) {
            row(out, kind.label + "/s", results, names, r -> r.perSecond(kind), "%.0f");
        }
        row(out, "all requests/s", results, names, MixedRound.Result::totalPerSecond, "%.0f");
        row(out, "failed", results, names, r -> r.failed(), "%.0f");
        cpuRow(out, results, names, "CPU µs/request", WarmupBench::cpuPerRequest, "%.0f", true);
        cpuRow(out, results, names, "JIT % of server CPU", WarmupBench::jitShare, "%.1f", false);
        out.append(String.format("%-24s", "restart (ms)"));
        for (String n : names) {
            out.append(String.format("%12.0f%22s", median(results.get(n).stream()
                    .map(s -> (double) s.restart().toMillis()).toList()), ""));
        }
        return out.append('\n').toString();
    }

    /** A row of cold, warm and cold/warm per build: medians over starts of a figure of each round. */
    private static void row(StringBuilder out, String label, Map<String, List<Start>> results, List<String> names,
                            ToDoubleFunction<MixedRound.Result> figure, String format) {
        out.append(String.format("%-24s", label));
        List<double[]> coldWarm = new ArrayList<>();
        for (String n : names) {
            List<Start> starts = results.get(n);
            double cold = median(starts.stream().map(s -> figure.applyAsDouble(s.rounds().getFirst())).toList());
            double warm = median(starts.stream().map(s -> median(s.rounds()
                    .subList(s.rounds().size() - WARM_ROUNDS, s.rounds().size()).stream()
                    .map(figure::applyAsDouble).toList())).toList());
            coldWarm.add(new double[] {cold, warm});
            out.append(String.format("%12s%12s%10s", String.format(format, cold), String.format(format, warm),
                    warm == 0 ? "-" : String.format("%.2f", cold / warm)));
        }
        ratios(out, coldWarm);
        out.append('\n');
    }

    /** A per-round figure of a start (its index given), by round. */
    private interface RoundFigure {
        double of(Start start, int round);
    }

    /**
     * A row of cold and warm (medians over starts) of a figure of the server's CPU: per request answered
     * (microseconds) with its cold/warm ratio, or the JIT compiler threads' share (per cent: how much of a
     * round went to compiling rather than serving).
     */
    private static void cpuRow(StringBuilder out, Map<String, List<Start>> results, List<String> names, String label,
                               RoundFigure figure, String format, boolean ratio) {
        out.append(String.format("%-24s", label));
        List<double[]> coldWarm = new ArrayList<>();
        for (String n : names) {
            List<Start> starts = results.get(n);
            double cold = median(starts.stream().map(s -> figure.of(s, 0)).toList());
            double warm = median(starts.stream().map(s -> median(java.util.stream.IntStream
                    .range(s.rounds().size() - WARM_ROUNDS, s.rounds().size())
                    .mapToObj(i -> figure.of(s, i)).toList())).toList());
            coldWarm.add(new double[] {cold, warm});
            out.append(String.format("%12s%12s%10s", String.format(format, cold), String.format(format, warm),
                    ratio ? String.format("%.2f", cold / warm) : ""));
        }
        ratios(out, coldWarm);
        out.append('\n');
    }

    private static double jitShare(Start start, int round) {
        double cpu = start.cpuSeconds().get(round);
        return cpu == 0 ? 0 : 100 * start.jitSeconds().get(round) / cpu;
    }

    private static double cpuPerRequest(Start start, int round) {
        MixedRound.Result r = start.rounds().get(round);
        double requests = r.totalPerSecond() * r.elapsed().toNanos() / 1e9;
        return start.cpuSeconds().get(round) * 1e6 / Math.max(requests, 1);
    }

    private static void ratios(StringBuilder out, List<double[]> coldWarm) {
        if (coldWarm.size() == 2) {
            double[] a = coldWarm.get(0);
            double[] b = coldWarm.get(1);
            out.append(String.format("%12s%12s", a[0] == 0 ? "-" : String.format("%.2f", b[0] / a[0]),
                    a[1] == 0 ? "-" : String.format("%.2f", b[1] / a[1])));
        }
    }

    /** All requests per second in each round, median over starts: the warm-up curve. */
    private static String curve(Map<String, List<Start>> results, int rounds) {
        StringBuilder out = new StringBuilder(String.format("%-24s", "round"));
        for (int r = 1; r <= rounds; r++) {
            out.append(String.format("%8d", r));
        }
        out.append('\n');
        results.forEach((name, starts) -> {
            out.append(String.format("%-24s", name + " requests/s"));
            for (int r = 0; r < rounds; r++) {
                int round = r;
                out.append(String.format("%8.0f", median(starts.stream()
                        .map(s -> s.rounds().get(round).totalPerSecond()).toList())));
            }
            out.append('\n').append(String.format("%-24s", name + " JIT % of CPU"));
            for (int r = 0; r < rounds; r++) {
                int round = r;
                out.append(String.format("%8.1f", median(starts.stream().map(s -> jitShare(s, round)).toList())));
            }
            out.append('\n');
        });
        return out.toString();
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Comparator.naturalOrder());
        return sorted.get(sorted.size() / 2);
    }

    private static List<String> split(String flags) {
        String s = flags.strip();
        return s.isEmpty() ? List.of() : List.of(s.split("\\s+"));
    }

}
