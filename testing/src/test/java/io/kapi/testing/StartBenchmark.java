package io.kapi.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Start-to-ready of in-process servers, run by {@code bench/testing-start.sh} (not a test):
 * <pre>
 *   warm N   one JVM: a first server, then N more one after the other (each closed before the next);
 *            p50/p99 of the N, and where their time went
 *   cold N   N fresh JVMs, each timing its first server (class loading, certificates, schemas included)
 *            and measuring heap and RSS with that one server idle; p50/p99 of each
 *   once     one fresh JVM's figures, one line (what "cold" runs N times)
 *   cold-junit N  as cold, each JVM's first server started by a test the JUnit Platform runs (once-junit),
 *            as in a Maven test run, where JUnit itself has loaded and opened what it needs first
 *   restore N  N restores of a snapshot of 300 configmaps, each after 300 changes
 *   loopback N  N fresh JVMs, each creating 300 configmaps through the API's loopback client after its first
 *            server started: the cold write path a start's bootstrap hooks take (their few hundred writes)
 *   floor    one fresh JVM's {@link StartFloor}: what its dependencies cost a first start, no Kapi code
 *   cold-floor N  N rounds of two fresh JVMs, one as cold, one running floor: both, and cold / floor (the
 *            host's speed divided out)
 * </pre>
 * The fresh JVMs of {@code cold} get this JVM's {@code -XX:AOTCache} and {@code -XX:TieredStopAtLevel}
 * options ({@code bench/testing-start.sh cold-aot} uses the first).
 * Start-to-ready is {@code KapiServer.builder().start()} until it returns: listening, every post-start
 * hook done. Heap is the used heap after a full GC with the server idle and still open; RSS the JVM's
 * resident set then (both include the JVM's and JUnit-less test harness' own share).
 */
public final class StartBenchmark {

    private StartBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "warm";
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        switch (mode) {
            case "once" -> once();
            case "once-junit" -> onceInJUnit();
            case "cold-junit" -> cold(n, "once-junit");
            case "warm" -> warm(n);
            case "cold" -> cold(n, "once");
            case "restore" -> restore(n);
            case "floor" -> floor();
            case "once-loopback" -> onceLoopback();
            case "loopback" -> cold(n, "once-loopback");
            case "cold-floor" -> cold(n, "once", "floor");
            default -> throw new IllegalArgumentException(
                    "mode: once, once-junit, warm, cold, cold-junit, floor, cold-floor, loopback or restore");
        }
        System.exit(0);
    }

    /**
     * As {@link #once}, the start made by a test that the JUnit Platform launcher runs in this fresh JVM,
     * as in a Maven test run: what JUnit did first (opening the class path's jars to find its engines,
     * java.util.logging) is then no part of the start.
     */
    private static void onceInJUnit() {
        var request = org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request()
                .selectors(org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(FirstServer.class)).build();
        var summary = new org.junit.platform.launcher.listeners.SummaryGeneratingListener();
        org.junit.platform.launcher.core.LauncherFactory.create().execute(request, summary);
        if (summary.getSummary().getTestsSucceededCount() != 1 || FirstServer.line == null) {
            summary.getSummary().printFailuresTo(new java.io.PrintWriter(System.err, true), 20);
            throw new IllegalStateException("the JUnit run of the first server failed");
        }
        System.out.println(FirstServer.line);
    }

    /** The test {@link #onceInJUnit} runs: the JVM's first server, timed as {@link #once} times it. */
    public static final class FirstServer {
        static volatile String line;

        @org.junit.jupiter.api.Test
        void start() throws Exception {
            line = timedStart();
        }
    }

    /** The floor in this fresh JVM, in {@link #once}'s form. */
    private static void floor() throws Exception {
        long cpu = processCpuNanos();
        long t = System.nanoTime();
        org.eclipse.jetty.server.Server server = StartFloor.start();
        double ms = (System.nanoTime() - t) / 1e6;
        double cpuMs = (processCpuNanos() - cpu) / 1e6;
        System.out.println(String.format(Locale.ROOT, "%.1f %.1f %.1f %.0f floor", ms, heapMb(), rssMb(), cpuMs));
        server.stop();
    }

    /**
     * In this fresh JVM, after its first server started: 300 configmap creates through the API's loopback
     * client (as the bootstrap hooks write), in {@link #once}'s form with their time and CPU.
     */
    private static void onceLoopback() throws Exception {
        try (KapiServer kapi = KapiServer.builder().start()) {
            kapi.createNamespace("bench");
            var configMaps = kapi.api().loopback()
                    .as(new io.kapi.user.UserInfo("bench", "", List.of("system:masters")), "bench")
                    .resource("", "v1", "configmaps");
            long cpu = processCpuNanos();
            long t = System.nanoTime();
            for (int i = 0; i < 300; i++) {
                configMaps.createOnly("bench", configMapTree("c" + i));
            }
            double ms = (System.nanoTime() - t) / 1e6;
            double cpuMs = (processCpuNanos() - cpu) / 1e6;
            System.out.println(String.format(Locale.ROOT, "%.1f %.1f %.1f %.0f loopback-300", ms, heapMb(), rssMb(), cpuMs));
        }
    }

    /** One start in this fresh JVM: "start_ms heap_mb rss_mb cpu_ms details". */
    private static void once() throws Exception {
        System.out.println(timedStart());
    }

    private static String timedStart() throws Exception {
        long cpu = processCpuNanos();
        long t = System.nanoTime();
        try (KapiServer kapi = KapiServer.builder().start()) {
            double ms = (System.nanoTime() - t) / 1e6;
            double cpuMs = (processCpuNanos() - cpu) / 1e6;
            return String.format(Locale.ROOT, "%.1f %.1f %.1f %.0f %s", ms, heapMb(), rssMb(), cpuMs, kapi.startTimes());
        }
    }

    /**
     * Restores of a snapshot of 300 configmaps (besides the server's own objects) after each of N rounds
     * that changed 100 of them, deleted 100 and created 100 others, as a test between its methods would:
     * p50/p99 of the restores, each until the watch caches have the restored state.
     */
    private static void restore(int n) {
        try (KapiServer kapi = KapiServer.builder().start();
             var client = Fabric8Clients.client(kapi, "bench")) {
            kapi.createNamespace("bench");
            for (int i = 0; i < 300; i++) {
                client.configMaps().resource(configMap("c" + i, "original")).create();
            }
            KapiSnapshot snapshot = kapi.snapshot();
            double[] ms = new double[n];
            for (int round = 0; round < n; round++) {
                for (int i = 0; i < 100; i++) {
                    client.configMaps().resource(configMap("c" + i, "changed")).update();
                    client.configMaps().withName("c" + (100 + i)).delete();
                    client.configMaps().resource(configMap("new" + i, "new")).create();
                }
                long t = System.nanoTime();
                kapi.restore(snapshot);
                ms[round] = (System.nanoTime() - t) / 1e6;
            }
            System.out.printf(Locale.ROOT, "restore of 300 configmaps (100 changed, 100 deleted, 100 created) over %d rounds: "
                    + "p50 %.1f ms, p99 %.1f ms (min %.1f)%n", n, percentile(ms, 50), percentile(ms, 99), percentile(ms, 0));
        }
    }

    /** A configmap of eight keys as a tree, as the API's own code builds its objects. */
    private static com.fasterxml.jackson.databind.node.ObjectNode configMapTree(String name) {
        var cm = io.kapi.machinery.Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
        cm.putObject("metadata").put("name", name).putObject("labels").put("app", "bench");
        var data = cm.putObject("data");
        for (int i = 0; i < 8; i++) {
            data.put("key" + i, "value-" + i + "-" + name);
        }
        return cm;
    }

    private static io.fabric8.kubernetes.api.model.ConfigMap configMap(String name, String value) {
        return new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata().withName(name).endMetadata()
                .addToData("v", value).build();
    }

    /** CPU time of every thread of this JVM so far (JIT and GC included). */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static void warm(int n) {
        long t = System.nanoTime();
        try (KapiServer first = KapiServer.builder().start()) {
            System.out.printf(Locale.ROOT, "first server in this JVM: %.0f ms (%s)%n", (System.nanoTime() - t) / 1e6,
                    first.startTimes());
        }
        List<Launcher.StartTimes> times = new ArrayList<>();
        double[] total = new double[n];
        double[] close = new double[n];
        double[] cpu = new double[n];
        for (int i = 0; i < n; i++) {
            long c0 = processCpuNanos();
            long s = System.nanoTime();
            KapiServer kapi = KapiServer.builder().start();
            total[i] = (System.nanoTime() - s) / 1e6;
            cpu[i] = (processCpuNanos() - c0) / 1e6;
            times.add(kapi.startTimes());
            long c = System.nanoTime();
            kapi.close();
            close[i] = (System.nanoTime() - c) / 1e6;
        }
        System.out.printf(Locale.ROOT, "warm start-to-ready over %d starts: p50 %.0f ms, p99 %.0f ms (min %.0f, max %.0f)%n",
                n, percentile(total, 50), percentile(total, 99), percentile(total, 0), percentile(total, 100));
        System.out.printf(Locale.ROOT, "  p50 of its parts: certificates %.0f ms, preload %.0f ms, build+listen %.0f ms, "
                        + "post-start hooks %.0f ms; close p50 %.0f ms%n",
                part(times, Launcher.StartTimes::certificates), part(times, Launcher.StartTimes::preload),
                part(times, Launcher.StartTimes::listen), part(times, Launcher.StartTimes::hooks), percentile(close, 50));
        System.out.printf(Locale.ROOT, "  CPU time of the JVM per start (all threads, a load-independent figure): p50 %.0f ms, "
                + "p99 %.0f ms%n", percentile(cpu, 50), percentile(cpu, 99));
    }

    /**
     * {@code n} rounds of fresh JVMs, each round one JVM per mode ({@code once}, {@code once-junit},
     * {@code once-loopback} or {@code floor}) in turn, every other round in reverse, so that a host's drift
     * and a JVM's place in its round fall on every mode alike; p50/p99 of each mode and, for two, the ratio
     * of their medians.
     */
    private static void cold(int n, String... modes) throws IOException, InterruptedException {
        ColdRuns[] runs = new ColdRuns[modes.length];
        for (int m = 0; m < modes.length; m++) {
            runs[m] = new ColdRuns(modes[m], n);
        }
        for (int i = 0; i < n; i++) {
            // every other round in the reverse order: a JVM started right after another one runs slower
            // (8 % in 12 rounds of the same mode twice), which would otherwise fall on the later modes
            for (int m = 0; m < runs.length; m++) {
                ColdRuns run = runs[i % 2 == 0 ? m : runs.length - 1 - m];
                run.add(i, freshJvm(run.mode));
            }
        }
        for (ColdRuns run : runs) {
            run.report();
        }
        if (runs.length == 2) {
            System.out.printf(Locale.ROOT, "%s / %s: p50 %.2f, CPU p50 %.2f (the same %d rounds)%n", modes[0], modes[1],
                    percentile(runs[0].start, 50) / percentile(runs[1].start, 50),
                    percentile(runs[0].cpu, 50) / percentile(runs[1].cpu, 50), n);
        }
    }

    /** One fresh JVM running {@code mode}: its one line. */
    private static String freshJvm(String mode) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        command.addAll(passedOn());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), StartBenchmark.class.getName(), mode));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
            line = out.readLine();
        }
        if (p.waitFor() != 0 || line == null) {
            throw new IllegalStateException("a cold run of " + mode + " failed");
        }
        return line;
    }

    /** The figures of one mode's fresh JVMs. */
    private static final class ColdRuns {
        final String mode;
        final double[] start;
        final double[] heap;
        final double[] rss;
        final double[] cpu;

        ColdRuns(String mode, int n) {
            this.mode = mode;
            start = new double[n];
            heap = new double[n];
            rss = new double[n];
            cpu = new double[n];
        }

        void add(int i, String line) {
            String[] f = line.split(" ", 5);
            start[i] = Double.parseDouble(f[0]);
            heap[i] = Double.parseDouble(f[1]);
            rss[i] = Double.parseDouble(f[2]);
            cpu[i] = Double.parseDouble(f[3]);
            System.out.println("  cold " + mode + " run " + (i + 1) + ": " + line);
        }

        void report() {
            int n = start.length;
            String what = switch (mode) {
                case "once" -> "cold start-to-ready (a fresh JVM's first server)";
                case "floor" -> "cold floor (a fresh JVM: Jackson, four P-256 keys, a Jetty HTTPS listener; no Kapi)";
                case "once-loopback" -> "300 loopback creates (after a fresh JVM's first server)";
                default -> "cold start-to-ready (the first server of a fresh JVM's JUnit run)";
            };
            System.out.printf(Locale.ROOT, "%s over %d JVMs: p50 %.0f ms, p99 %.0f ms (min %.0f, max %.0f)%n", what, n,
                    percentile(start, 50), percentile(start, 99), percentile(start, 0), percentile(start, 100));
            System.out.printf(Locale.ROOT, "  CPU time of the JVM meanwhile (all threads): p50 %.0f ms, p99 %.0f ms%n",
                    percentile(cpu, 50), percentile(cpu, 99));
            System.out.printf(Locale.ROOT, "  idle afterwards: heap after start p50 %.1f MB (max %.1f), RSS p50 %.0f MB (max %.0f)%n",
                    percentile(heap, 50), percentile(heap, 100), percentile(rss, 50), percentile(rss, 100));
        }
    }

    /** This JVM's options that the fresh JVMs get too: an AOT cache to start with, a JIT limit. */
    private static List<String> passedOn() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-XX:AOTCache=") || a.startsWith("-XX:TieredStopAtLevel=")).toList();
    }

    private static double part(List<Launcher.StartTimes> times, Function<Launcher.StartTimes, Duration> part) {
        return percentile(times.stream().mapToDouble(t -> part.apply(t).toNanos() / 1e6).toArray(), 50);
    }

    /** The nearest-rank percentile (p99 of 20 samples is the largest). */
    static double percentile(double[] values, double p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static double heapMb() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0;
    }

    private static double rssMb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
            }
        }
        return Double.NaN;
    }
}
