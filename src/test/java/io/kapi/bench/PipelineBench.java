package io.kapi.bench;

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
 * The write-path benchmark: two builds of Kapi (e.g. {@code main} before a change and the working tree
 * after it) measured side by side in one run, in interleaved rounds (A B, B A, A B, ...) so that the
 * machine's noise falls on both. Each round starts a fresh server of each build and drives it with N
 * HTTP/2 clients through creates, gets, merge patches and server-side applies of small configmaps.
 * The report gives, per phase, the median over rounds of throughput, median and p99 latency, and the
 * ratio of the second build to the first.
 *
 * <p>Run with {@code bench/pipeline.sh --builds=before=/path/a,after=/path/b [--backend=embedded]
 * [--clients=8] [--rounds=3] [--versions=8000] [--creates=4000] [--gets=8000] [--patches=4000] [--applies=4000]
 * [--flags.NAME='--server-flag=value ...']}: a build may run twice under two names, with and without
 * some flags, or with other JVM options ({@code --java.NAME='-XX:...'}, given to {@code bin/kapi} as
 * {@code KAPI_JAVA_OPTS}: e.g. a flight recording). {@code --warmup=N} (default 500) requests of each kind warm each fresh server up first.
 * {@code --resident=true} measures the steady state instead: {@code --instances=N} servers per build (default
 * 1), started and warmed once, the rounds taking turns on them.
 */
public final class PipelineBench {

    private static final List<String> PHASES = List.of("version", "create", "get", "merge patch", "apply");
    private static final Map<String, String> PLURALS = Map.of("version", "raw GET /version",
            "create", "creates", "get", "gets", "merge patch", "merge patches", "apply", "applies");

    private PipelineBench() {
    }

    /** One build's phases in one round, and the server's CPU time per request in each (microseconds). */
    record Round(Map<String, Phase> phases, Map<String, Double> cpuMicrosPerRequest) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchOptions.parse(args);
        Map<String, Path> builds = new LinkedHashMap<>();
        for (String b : opts.getOrDefault("builds", "current=.").split(",")) {
            String[] kv = b.split("=", 2);
            builds.put(kv[0], Path.of(kv[1]));
        }
        String backend = opts.getOrDefault("backend", "embedded");
        int clients = Integer.parseInt(opts.getOrDefault("clients", "8"));
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "3"));
        Map<String, Integer> counts = Map.of(
                "version", Integer.parseInt(opts.getOrDefault("versions", opts.getOrDefault("gets", "8000"))),
                "create", Integer.parseInt(opts.getOrDefault("creates", "4000")),
                "get", Integer.parseInt(opts.getOrDefault("gets", "8000")),
                "merge patch", Integer.parseInt(opts.getOrDefault("patches", "4000")),
                "apply", Integer.parseInt(opts.getOrDefault("applies", "4000")));
        Duration limit = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("phase-seconds", "120")));
        int warm = Integer.parseInt(opts.getOrDefault("warmup", "500"));

        Map<String, List<Round>> results = new LinkedHashMap<>();
        builds.keySet().forEach(name -> results.put(name, new ArrayList<>()));
        Map<String, List<String>> flags = new LinkedHashMap<>();
        for (String name : builds.keySet()) {
            List<String> f = new ArrayList<>(List.of("--storage-backend=" + backend));
            String extra = opts.getOrDefault("flags." + name, "").strip();
            if (!extra.isEmpty()) {
                f.addAll(List.of(extra.split("\\s+")));
            }
            flags.put(name, f);
        }
        boolean resident = Boolean.parseBoolean(opts.getOrDefault("resident", "false"));
        if (resident) {
            residentRounds(builds, flags, opts, clients, counts, limit, warm, rounds, results);
        } else {
            List<String> order = new ArrayList<>(builds.keySet());
            for (int round = 1; round <= rounds; round++) {
                for (String name : order) {
                    System.err.printf("== round %d: %s%n", round, name);
                    results.get(name).add(round(name, builds.get(name), flags.get(name),
                            opts.getOrDefault("java." + name, ""), clients, counts, limit, warm));
                }
                order = order.reversed();
            }
        }
        System.out.printf("%nKapi write path, %s storage, %d clients (HTTP/2, client certs, loopback), %d cores, "
                + "%d rounds%s; medians over rounds%n", backend, clients, Runtime.getRuntime().availableProcessors(),
                rounds, resident ? " on warmed resident servers" : ", a fresh server per build and round");
        System.out.println(render(results));
    }

    private static Round round(String name, Path project, List<String> flags, String javaOptions, int clients,
                               Map<String, Integer> counts, Duration limit, int warm) {
        try (KapiProcess kapi = new KapiProcess("pipeline-" + name, project, flags).withJavaOptions(javaOptions)) {
            kapi.start();
            List<ApiClient> pool = clients(kapi, clients);
            try {
                Load load = new Load(pool, limit);
                warmUp(load, "warmup", warm);
                return phases(load, kapi, "bench", counts, warm);
            } finally {
                pool.forEach(ApiClient::close);
            }
        }
    }

    /**
     * The steady state: {@code --instances} servers per build (default 1), all started and warmed first
     * ({@code warm} requests of each kind, then one whole unmeasured round), then the rounds run on them in
     * turn, each in a namespace of its own, round r on each build's instance r mod N; the servers not being
     * measured are idle. Leaves out what a fresh start adds (compilation, a cold cache), which the default
     * mode includes in every round. One instance per build is not enough to tell builds a few per cent
     * apart: two servers of one build, warmed alike, differ by up to 10 % for as long as they run (what
     * the JIT compiler made of each), so give several.
     */
    private static void residentRounds(Map<String, Path> builds, Map<String, List<String>> flags,
                                       Map<String, String> opts, int clients, Map<String, Integer> counts,
                                       Duration limit, int warm, int rounds, Map<String, List<Round>> results) {
        int instances = Integer.parseInt(opts.getOrDefault("instances", "1"));
        Map<String, List<KapiProcess>> servers = new LinkedHashMap<>();
        Map<String, List<List<ApiClient>>> pools = new LinkedHashMap<>();
        try {
            for (String name : builds.keySet()) {
                servers.put(name, new ArrayList<>());
                pools.put(name, new ArrayList<>());
                for (int i = 0; i < instances; i++) {
                    KapiProcess kapi = new KapiProcess("pipeline-" + name + "-" + i, builds.get(name), flags.get(name))
                            .withJavaOptions(opts.getOrDefault("java." + name, ""));
                    servers.get(name).add(kapi);
                    kapi.start();
                    pools.get(name).add(clients(kapi, clients));
                }
            }
            for (int i = 0; i < instances; i++) {
                for (String name : builds.keySet()) {
                    System.err.printf("== warm-up: %s #%d%n", name, i);
                    Load load = new Load(pools.get(name).get(i), limit);
                    warmUp(load, "warmup", warm);
                    phases(load, servers.get(name).get(i), "bench-0", counts, warm);
                }
            }
            List<String> order = new ArrayList<>(builds.keySet());
            for (int round = 1; round <= rounds; round++) {
                int i = (round - 1) % instances;
                for (String name : order) {
                    System.err.printf("== round %d: %s #%d%n", round, name, i);
                    results.get(name).add(phases(new Load(pools.get(name).get(i), limit), servers.get(name).get(i),
                            "bench-" + round, counts, warm));
                }
                order = order.reversed();
            }
        } finally {
            pools.values().forEach(list -> list.forEach(pool -> pool.forEach(ApiClient::close)));
            servers.values().forEach(list -> list.forEach(KapiProcess::close));
        }
    }

    private static List<ApiClient> clients(KapiProcess kapi, int clients) {
        List<ApiClient> pool = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            pool.add(ApiClient.of(kapi.kubeconfig()));
        }
        return pool;
    }

    private static void warmUp(Load load, String ns, int warm) {
        load.creates(ns, warm);
        load.gets(ns, warm, warm);
        load.patches(ns, warm, warm);
        load.applies(ns, warm, warm);
    }

    /** One measured round of every phase, its configmaps in the new namespace {@code ns}. */
    private static Round phases(Load load, KapiProcess kapi, String ns, Map<String, Integer> counts, int warm) {
        Map<String, Phase> phases = new LinkedHashMap<>();
        Map<String, Double> cpu = new LinkedHashMap<>();
        ProcessHandle server = ProcessHandle.of(kapi.serverPid()).orElseThrow();
        Phase created = measured(server, "create", phases, cpu, () -> load.creates(ns, counts.get("create")));
        measured(server, "get", phases, cpu, () -> load.gets(ns, created.ok(), counts.get("get")));
        load.versions(warm);
        measured(server, "version", phases, cpu, () -> load.versions(counts.get("version")));
        measured(server, "merge patch", phases, cpu,
                () -> load.patches(ns, created.ok(), counts.get("merge patch")));
        measured(server, "apply", phases, cpu, () -> load.applies(ns, created.ok(), counts.get("apply")));
        return new Round(phases, cpu);
    }

    /**
     * Runs one phase and notes the server's CPU time per request during it: less sensitive than throughput
     * to what else the machine runs (the JVM's CPU time, from /proc, over the requests answered).
     */
    private static Phase measured(ProcessHandle server, String name, Map<String, Phase> phases, Map<String, Double> cpu,
                                  java.util.function.Supplier<Phase> run) {
        Duration before = server.info().totalCpuDuration().orElse(Duration.ZERO);
        Phase phase = run.get();
        Duration after = server.info().totalCpuDuration().orElse(Duration.ZERO);
        phases.put(name, phase);
        cpu.put(name, after.minus(before).toNanos() / 1e3 / Math.max(1, phase.ok()));
        return phase;
    }

    private static String render(Map<String, List<Round>> results) {
        StringBuilder out = new StringBuilder(String.format("%-26s", ""));
        List<String> names = List.copyOf(results.keySet());
        names.forEach(n -> out.append(String.format("%14s", n)));
        if (names.size() == 2) {
            out.append(String.format("%16s", names.get(1) + "/" + names.get(0)));
        }
        out.append('\n');
        for (String phase : PHASES) {
            row(out, PLURALS.get(phase) + "/s", results, names, phase, Phase::perSecond, "%.0f");
            if (names.size() > 1) {
                pairedRow(out, "  ÷ " + names.getFirst() + ", by round", results, names, phase);
            }
            cpuRow(out, phase + " CPU µs/request", results, names, phase);
            row(out, phase + " median (ms)", results, names, phase, Phase::medianMillis, "%.2f");
            row(out, phase + " p99 (ms)", results, names, phase, Phase::p99Millis, "%.2f");
            row(out, phase + " failed", results, names, phase, p -> p.failed(), "%.0f");
        }
        ceilingRow(out, results, names);
        return out.toString();
    }

    /**
     * Each build's gets over its own raw {@code GET /version} in the same round (issue 32's "reads at the
     * ceiling": a configmap GET against the server's cheapest authenticated request, one server, one round),
     * the median of those ratios and their range.
     */
    private static void ceilingRow(StringBuilder out, Map<String, List<Round>> results, List<String> names) {
        out.append(String.format("%-26s", "gets ÷ /version, by round"));
        for (String name : names) {
            List<Double> ratios = new ArrayList<>();
            for (Round r : results.get(name)) {
                ratios.add(r.phases().get("get").perSecond() / r.phases().get("version").perSecond());
            }
            ratios.sort(Comparator.naturalOrder());
            out.append(String.format("%14s", String.format("%.3f", ratios.get(ratios.size() / 2))));
            out.append(String.format(" [%.2f-%.2f]", ratios.getFirst(), ratios.getLast()));
        }
        out.append('\n');
    }

    private static void row(StringBuilder out, String label, Map<String, List<Round>> results, List<String> names,
                            String phase, ToDoubleFunction<Phase> figure, String format) {
        out.append(String.format("%-26s", label));
        List<Double> medians = new ArrayList<>();
        for (String name : names) {
            List<Double> values = new ArrayList<>(results.get(name).stream()
                    .map(r -> figure.applyAsDouble(r.phases().get(phase))).toList());
            values.sort(Comparator.naturalOrder());
            double median = values.get(values.size() / 2);
            medians.add(median);
            out.append(String.format("%14s", String.format(format, median)));
        }
        if (medians.size() == 2 && medians.get(0) != 0) {
            out.append(String.format("%14s", String.format("%.2f", medians.get(1) / medians.get(0))));
        }
        out.append('\n');
    }

    /**
     * Each build's throughput over the first build's in the same round (the rounds ran side by side), the
     * median of those ratios and their range: steadier than the ratio of medians when the machine drifts.
     */
    private static void pairedRow(StringBuilder out, String label, Map<String, List<Round>> results, List<String> names,
                                  String phase) {
        out.append(String.format("%-26s%14s", label, ""));
        List<Round> base = results.get(names.getFirst());
        for (String name : names.subList(1, names.size())) {
            List<Double> ratios = new ArrayList<>();
            List<Round> rounds = results.get(name);
            for (int i = 0; i < Math.min(base.size(), rounds.size()); i++) {
                ratios.add(rounds.get(i).phases().get(phase).perSecond() / base.get(i).phases().get(phase).perSecond());
            }
            ratios.sort(Comparator.naturalOrder());
            out.append(String.format("%14s", String.format("%.3f", ratios.get(ratios.size() / 2))));
            out.append(String.format(" [%.2f-%.2f]", ratios.getFirst(), ratios.getLast()));
        }
        out.append('\n');
    }

    private static void cpuRow(StringBuilder out, String label, Map<String, List<Round>> results, List<String> names,
                               String phase) {
        out.append(String.format("%-26s", label));
        List<Double> medians = new ArrayList<>();
        for (String name : names) {
            List<Double> values = new ArrayList<>(results.get(name).stream()
                    .map(r -> r.cpuMicrosPerRequest().get(phase)).toList());
            values.sort(Comparator.naturalOrder());
            double median = values.get(values.size() / 2);
            medians.add(median);
            out.append(String.format("%14s", String.format("%.0f", median)));
        }
        if (medians.size() == 2 && medians.get(0) != 0) {
            out.append(String.format("%14s", String.format("%.2f", medians.get(1) / medians.get(0))));
        }
        out.append('\n');
    }

}
