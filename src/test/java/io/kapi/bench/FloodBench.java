package io.kapi.bench;

import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * API Priority and Fairness under a flood (issue 35, part 7 a-c), against one running {@code bin/kapi}
 * with its default flow-control objects:
 * <ol type="a">
 *   <li>user A, with {@code --flooders} clients, loops LISTs of {@code --objects} configmaps while user B,
 *       with {@code --getters} clients, GETs one configmap: B's latency against B alone, A's answers
 *       (200 / 429), the server's largest RSS;</li>
 *   <li>users C and D, 16 clients each, GET in a level of their own with a few seats (queues, no
 *       borrowing): their throughputs;</li>
 *   <li>a {@code system:masters} client GETs throughout (a): its latency against idle, and (to tell what
 *       the flood adds from what B's ordinary load adds) beside B alone. With {@code --admin=process} (the
 *       default) it is a {@link FloodProbe}, a process scheduled ahead of the load generator, as an
 *       administrator's client elsewhere would be; {@code --admin=thread} runs it among the load's threads.</li>
 * </ol>
 * With {@code --server-ahead=true} the server's threads are scheduled ahead of the load generator too (nice 5
 * lower, where allowed), as with every client on other machines: the load then has the cores the server
 * leaves, instead of sharing them with it.
 * A, B, C and D are impersonated by the admin (each bound to cluster-admin, but not in system:masters,
 * so the suggested {@code global-default} schema classifies A and B, each a flow of its own).
 * After a warm-up (not reported), {@code --rounds} rounds each measure B alone, the admin alone and the flood;
 * the ratios are reported per round and as medians.
 * Run with {@code bench/flood.sh [--objects=10000] [--flooders=64] [--getters=8] [--seconds=20] [--rounds=3]
 * [--admin=process|thread] [--server-ahead=false|true]}.
 */
public final class FloodBench {

    private static final String NS = "flood";

    private FloodBench() {
    }

    /** Latencies and answers of one client group. */
    static final class Tally {
        final Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
        final List<Long> nanos = java.util.Collections.synchronizedList(new ArrayList<>());

        void add(int status, long took) {
            statuses.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
            if (status == 200) {
                nanos.add(took);
            }
        }

        double percentile(double p) {
            long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
            return sorted.length == 0 ? Double.NaN : sorted[(int) Math.min(sorted.length - 1, sorted.length * p)] / 1e6;
        }

        long ok() {
            return statuses.getOrDefault(200, new AtomicLong()).get();
        }

        @Override
        public String toString() {
            return String.format("ok %d, p50 %.2f ms, p99 %.2f ms, statuses %s", ok(), percentile(0.5),
                    percentile(0.99), new java.util.TreeMap<>(statuses));
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchOptions.parse(args);
        int objects = Integer.parseInt(opts.getOrDefault("objects", "10000"));
        int flooders = Integer.parseInt(opts.getOrDefault("flooders", "64"));
        int getters = Integer.parseInt(opts.getOrDefault("getters", "8"));
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "3"));
        Duration span = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("seconds", "20")));
        boolean probeProcess = !"thread".equals(opts.getOrDefault("admin", "process"));
        boolean serverAhead = Boolean.parseBoolean(opts.getOrDefault("server-ahead", "false"));
        try (KapiProcess kapi = new KapiProcess("flood", Path.of("."), List.of("--storage-backend=embedded"))) {
            kapi.start();
            if (serverAhead) {
                boolean raised = Niceness.raise(kapi.serverPid(), FloodProbe.NICE_AHEAD);
                System.out.printf("server: %s%n", raised
                        ? "scheduled ahead of the load generator (nice " + (Niceness.current() - FloodProbe.NICE_AHEAD) + ")"
                        : "level with the load generator (raising was refused)");
            }
            try (ApiClient admin = ApiClient.of(kapi.kubeconfig())) {
                setUp(kapi, admin, objects);
            }
            String get = "/api/v1/namespaces/" + NS + "/configmaps/cm-1";
            Group a = new Group("user-a", flooders, "/api/v1/namespaces/" + NS + "/configmaps", true);
            Group b = new Group("user-b", getters, get, false);
            Group admin = new Group(null, 1, get, false);
            FloodProbe probe = probeProcess ? FloodProbe.start(kapi.kubeconfigPath(), kapi.port(), get) : null;
            try {
                measure(new Phases(kapi, admin, probe), a, b, span, rounds, objects);
            } finally {
                if (probe != null) {
                    probe.close();
                }
            }
        }
    }

    /**
     * Runs groups side by side with the admin client, in the load's threads or as the probe process; the
     * admin's tally comes last.
     */
    private record Phases(KapiProcess kapi, Group admin, FloodProbe probe) {

        List<Tally> run(Duration span, List<Group> groups, long[] rss) throws Exception {
            if (probe == null) {
                List<Group> all = new ArrayList<>(groups);
                all.add(admin);
                return FloodBench.run(kapi, span, all, rss);
            }
            java.util.concurrent.CompletableFuture<Tally> probed = new java.util.concurrent.CompletableFuture<>();
            // the probe stops a little before the load does, so none of its requests runs after the phase
            long millis = Math.max(100, span.toMillis() - 300);
            Runnable whenReady = () -> Thread.ofPlatform().start(() -> {
                try {
                    probed.complete(probe.run(millis));
                } catch (Exception e) {
                    probed.completeExceptionally(e);
                }
            });
            List<Tally> tallies = new ArrayList<>(FloodBench.run(kapi, span, groups, rss, whenReady));
            tallies.add(probed.get());
            return tallies;
        }
    }

    private static void measure(Phases phases, Group a, Group b, Duration span, int rounds, int objects)
            throws Exception {
        KapiProcess kapi = phases.kapi();
        String get = b.path();
        // warm-up, not reported: the first phases after a start would compare a cold "alone" with a warm flood
        phases.run(span, List.of(b), null);
        phases.run(span, List.of(a, b), null);
        System.out.printf("%nAPI Priority and Fairness under a flood: %d configmaps, %d cores, %d rounds%n",
                objects, Runtime.getRuntime().availableProcessors(), rounds);
        List<Double> bRatios = new ArrayList<>();
        List<Double> adminRatios = new ArrayList<>();
        List<Double> adminBesideB = new ArrayList<>();
        long[] rss = {kapi.rssKiB(), 0};
        Map<Integer, Long> aStatuses = new java.util.TreeMap<>();
        for (int r = 1; r <= rounds; r++) {
            Tally bAlone = run(kapi, span.dividedBy(2), List.of(b), null).getFirst();
            Tally adminAlone = phases.run(span.dividedBy(2), List.of(), null).getLast();
            Tally adminWithB = phases.run(span.dividedBy(2), List.of(b), null).getLast();
            List<Tally> flood = phases.run(span, List.of(a, b), rss);
            adminBesideB.add(adminWithB.percentile(0.99) / adminAlone.percentile(0.99));
            bRatios.add(flood.get(1).percentile(0.99) / bAlone.percentile(0.99));
            adminRatios.add(flood.getLast().percentile(0.99) / adminAlone.percentile(0.99));
            flood.get(0).statuses.forEach((status, n) -> aStatuses.merge(status, n.get(), Long::sum));
            System.out.printf("round %d%n", r);
            System.out.println("  a. B alone (" + b.clients() + " clients GET): " + bAlone);
            System.out.println("  a. B during A's flood:      " + flood.get(1));
            System.out.println("  a. A (" + a.clients() + " clients LIST " + objects + "): " + flood.get(0));
            System.out.println("  c. system:masters alone:    " + adminAlone);
            System.out.println("  c. system:masters beside B: " + adminWithB);
            System.out.println("  c. system:masters in flood: " + flood.getLast());
            System.out.printf("  B p99 flood/alone %.1f x, system:masters p99 flood/alone %.1f x%n",
                    bRatios.getLast(), adminRatios.getLast());
        }
        List<Tally> fair = run(kapi, span.dividedBy(2), List.of(new Group("user-c", 16, get, false),
                new Group("user-d", 16, get, false)), null);
        System.out.printf("a. B p99 flood/alone, median of %d rounds: %.1f x (rounds %s)%n", rounds,
                median(bRatios), rounded(bRatios));
        System.out.println("a. A's answers, all rounds: " + aStatuses);
        System.out.printf("a. server RSS: %d MiB after the warm-up, at most %d MiB during the floods%n",
                rss[0] / 1024, rss[1] / 1024);
        System.out.println("b. C (16 clients GET): " + fair.get(0));
        System.out.println("b. D (16 clients GET): " + fair.get(1));
        System.out.printf("b. throughput C/D: %.3f%n", (double) fair.get(0).ok() / fair.get(1).ok());
        System.out.printf("c. system:masters p99 flood/alone, median of %d rounds: %.1f x (rounds %s)%n", rounds,
                median(adminRatios), rounded(adminRatios));
        System.out.printf("c. system:masters p99 beside B alone (no flood)/alone, median: %.1f x (rounds %s)%n",
                median(adminBesideB), rounded(adminBesideB));
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static List<String> rounded(List<Double> values) {
        return values.stream().map(v -> String.format("%.1f", v)).toList();
    }

    private static void setUp(KapiProcess kapi, ApiClient admin, int objects) throws InterruptedException {
        admin.post("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + NS + "\"}}");
        for (String user : List.of("user-a", "user-b", "user-c", "user-d")) {
            admin.post("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", """
                    {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
                     "metadata": {"name": "bench-%s"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io",
                     "kind": "ClusterRole", "name": "cluster-admin"},
                     "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "%s"}]}"""
                    .formatted(user, user));
        }
        // C and D: a level of 3 seats (1 share of 246, 600 seats), 16 queues of hands of 1, no borrowing
        admin.post("/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations", """
                {"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "PriorityLevelConfiguration",
                 "metadata": {"name": "bench-fair"}, "spec": {"type": "Limited", "limited": {
                 "nominalConcurrencyShares": 1, "lendablePercent": 0, "borrowingLimitPercent": 0,
                 "limitResponse": {"type": "Queue", "queuing": {"queues": 16, "handSize": 1, "queueLengthLimit": 50}}}}}""");
        admin.post("/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas", """
                {"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema", "metadata": {"name": "bench-fair"},
                 "spec": {"matchingPrecedence": 500, "priorityLevelConfiguration": {"name": "bench-fair"},
                 "distinguisherMethod": {"type": "ByUser"}, "rules": [{"subjects": [
                   {"kind": "User", "user": {"name": "user-c"}}, {"kind": "User", "user": {"name": "user-d"}}],
                   "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"], "namespaces": ["*"]}]}]}}""");
        List<ApiClient> clients = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            clients.add(ApiClient.of(kapi.kubeconfig()));
        }
        String data = "x".repeat(200);
        Thread[] threads = new Thread[clients.size()];
        AtomicLong next = new AtomicLong();
        for (int t = 0; t < threads.length; t++) {
            ApiClient c = clients.get(t);
            threads[t] = Thread.ofPlatform().start(() -> {
                for (long i; (i = next.getAndIncrement()) < objects; ) {
                    c.post("/api/v1/namespaces/" + NS + "/configmaps", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                            + "\"metadata\":{\"name\":\"cm-" + i + "\"},\"data\":{\"d\":\"" + data + "\"}}");
                }
            });
        }
        for (Thread t : threads) {
            t.join();
        }
        clients.forEach(ApiClient::close);
    }

    /**
     * @param user impersonated, or null for the admin (system:masters)
     * @param discard whether the bodies are read and dropped instead of kept as strings (the flood's lists)
     */
    record Group(String user, int clients, String path, boolean discard) {
    }

    /** Runs the groups side by side for {@code span}; {@code rss}, when given, gets the largest RSS seen in [1]. */
    private static List<Tally> run(KapiProcess kapi, Duration span, List<Group> groups, long[] rss)
            throws InterruptedException {
        return run(kapi, span, groups, rss, () -> { });
    }

    /** As above; {@code whenReady} runs once every client is connected, when the span starts. */
    private static List<Tally> run(KapiProcess kapi, Duration span, List<Group> groups, long[] rss, Runnable whenReady)
            throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        List<Tally> tallies = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        CountDownLatch ready = new CountDownLatch(groups.stream().mapToInt(Group::clients).sum());
        for (Group g : groups) {
            Tally tally = new Tally();
            tallies.add(tally);
            for (int i = 0; i < g.clients(); i++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try (ApiClient c = g.user() == null ? ApiClient.of(kapi.kubeconfig())
                            : ApiClient.of(kapi.kubeconfig(), Map.of("Impersonate-User", g.user()))) {
                        ready.countDown();
                        while (!stop.get()) {
                            long start = System.nanoTime();
                            int status;
                            try {
                                status = g.discard() ? c.getDiscarding(g.path()) : c.exchange(g.path()).statusCode();
                            } catch (RuntimeException e) {
                                status = -1;
                            }
                            tally.add(status, System.nanoTime() - start);
                        }
                    }
                }));
            }
        }
        ready.await();
        whenReady.run();
        long end = System.nanoTime() + span.toNanos();
        while (System.nanoTime() < end) {
            Thread.sleep(500);
            if (rss != null) {
                rss[1] = Math.max(rss[1], kapi.rssKiB());
            }
        }
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        return tallies;
    }
}
