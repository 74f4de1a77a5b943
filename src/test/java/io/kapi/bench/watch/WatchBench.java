package io.kapi.bench.watch;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.certs.Pem;
import io.kapi.certs.TlsMaterial;
import io.kapi.machinery.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * List and watch benchmark against a real {@code bin/kapi} process (loopback, TLS, HTTP/2):
 * <ol>
 *   <li>list latency of a namespace of N configmaps (default 10,000), unset resourceVersion (consistent,
 *       from the watch cache), resourceVersion=0, and paged with limit=500 (from storage);</li>
 *   <li>watch delivery: W watchers (default 100) on a namespace while C configmaps (default 2,000) are
 *       created by 16 writers: events delivered per second and the latency from the write's acknowledgement
 *       to each watcher receiving its event (p50/p99), with the server's resident memory sampled meanwhile.</li>
 * </ol>
 * Run with {@code bench/watch.sh [--configmaps=10000] [--lists=50] [--watchers=100] [--creates=2000]
 * [--backend=embedded|memory] [--java-opts=-Xmx1g] [--resource=configmaps|pods] [--accept=json|protobuf]
 * [--rounds=R] [--replay=R]}: with {@code --rounds}, the watch phase runs R times without watchers, with JSON
 * watchers and with protobuf watchers in turn, and reports each encoding's watchers' share of the CPU (the
 * difference, its median), whatever {@code --accept} says; with {@code --replay}, the writes are made once,
 * without watchers, and then R times W watchers of each encoding in turn watch from before them, the watch
 * cache's window replaying every event to each: the server's CPU for the deliveries alone (see
 * {@link #replayShare}); {@code --write-rate=N} paces the watch phase's writes at N a second (as fast as the
 * writers go by default), so that every watcher keeps up and each event is sent, and flushed, alone in either
 * encoding, and {@code --rounds} then also reports the paired ratio of the two phases' whole CPU;
 * {@code --resource=pods} lists and watches pods (as a ReplicaSet makes them, with resources, ports and
 * tolerations, the service account's token volume added by admission; without an owner, whom the garbage
 * collector would miss and delete them for) instead of configmaps; {@code --accept=protobuf}
 * asks for lists and watches in {@code application/vnd.kubernetes.protobuf}, as client-go's controllers do.
 * Each phase also reports the server's CPU time (user + system, from {@code /proc}), to compare encodings.
 * The server is stopped and its data deleted at the end.
 */
public final class WatchBench {

    private final Map<String, String> args;
    private Process server;
    private long pid;
    private int port;
    private Path data;
    private List<HttpClient> clients;

    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    private static final String POD = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","labels":{"app":"bench","pod-template-hash":"7d4b9c8f6"}},
             "spec":{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80,"protocol":"TCP"}],
               "resources":{"limits":{"cpu":"500m","memory":"256Mi"},"requests":{"cpu":"100m","memory":"128Mi"}},
               "env":[{"name":"MODE","value":"production"}],
               "readinessProbe":{"httpGet":{"path":"/healthz","port":80},"periodSeconds":5}}],
               "tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute",
                 "tolerationSeconds":300}]}}""";

    private final String resource;
    private final String accept;
    /** The watch phase's writes a second; 0: as fast as the writers go. */
    private final double writeRate;

    private WatchBench(Map<String, String> args) {
        this.args = args;
        this.resource = args.getOrDefault("resource", "configmaps");
        this.writeRate = Double.parseDouble(args.getOrDefault("write-rate", "0"));
        this.accept = accept(args.getOrDefault("accept", "json").equals("protobuf"));
    }

    /** The Accept header of a client of that encoding: protobuf first (JSON where a kind has none), or JSON. */
    private static String accept(boolean protobuf) {
        return protobuf ? PROTOBUF + ", application/json" : "application/json";
    }

    /** Watcher {@code watcher}'s watch of {@code path} from {@code rv}, its events read in that encoding. */
    private Events watch(int watcher, String path, String rv, boolean protobuf) throws Exception {
        HttpResponse<InputStream> r = clients.get(watcher % clients.size()).send(
                request(path + "?watch=true&timeoutSeconds=600&resourceVersion=" + rv)
                        .header("Accept", accept(protobuf)).build(), HttpResponse.BodyHandlers.ofInputStream());
        return protobuf ? new ProtobufEvents(r.body()) : new JsonEvents(r.body());
    }

    private boolean protobuf() {
        return accept.startsWith(PROTOBUF);
    }

    /** The server's CPU time so far (user + system), in milliseconds. */
    private long cpuMillis() {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10; // clock ticks of 10 ms
        } catch (IOException e) {
            return 0;
        }
    }

    /** Waits for the namespace's default service account, which pod admission needs. */
    private void awaitServiceAccount(String namespace) throws Exception {
        for (int i = 0; i < 300; i++) {
            if (send("GET", "/api/v1/namespaces/" + namespace + "/serviceaccounts/default", null).statusCode() == 200) {
                return;
            }
            Thread.sleep(100);
        }
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new ConcurrentHashMap<>();
        for (String a : argv) {
            String[] kv = a.replaceFirst("^--", "").split("=", 2);
            args.put(kv[0], kv.length > 1 ? kv[1] : "true");
        }
        WatchBench bench = new WatchBench(args);
        try {
            bench.start();
            bench.listPhase(intArg(args, "configmaps", 10_000), intArg(args, "lists", 50));
            int rounds = intArg(args, "rounds", 0);
            int replays = intArg(args, "replay", 0);
            if (replays > 0) {
                bench.replayShare(replays, intArg(args, "watchers", 100), intArg(args, "creates", 2_000));
            } else if (rounds == 0) {
                bench.watchPhase("bench-watch", intArg(args, "watchers", 100), intArg(args, "creates", 2_000),
                        bench.protobuf());
            } else {
                bench.watchersShare(rounds, intArg(args, "watchers", 100), intArg(args, "creates", 2_000));
            }
        } finally {
            bench.stop();
        }
    }

    private static int intArg(Map<String, String> args, String name, int dflt) {
        return Integer.parseInt(args.getOrDefault(name, Integer.toString(dflt)));
    }

    private void start() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        data = Files.createTempDirectory("kapi-watch-bench");
        Path project = Path.of(System.getProperty("kapi.projectDir", "."));
        List<String> cmd = new ArrayList<>(List.of(project.resolve("bin/kapi").toString(), "--secure-port=" + port,
                "--bind-address=127.0.0.1", "--data-dir=" + data));
        if (args.containsKey("backend")) {
            cmd.add("--storage-backend=" + args.get("backend"));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(data.resolve("server.log").toFile());
        if (args.containsKey("java-opts")) {
            pb.environment().put("KAPI_JAVA_OPTS", args.get("java-opts"));
        }
        server = pb.start();
        pid = server.pid();
        Path kubeconfig = data.resolve("admin.kubeconfig");
        for (int i = 0; i < 600 && !Files.exists(kubeconfig); i++) {
            Thread.sleep(100);
        }
        clients = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            clients.add(client());
        }
        for (int i = 0; i < 600; i++) {
            try {
                if (send("GET", "/api/v1/namespaces/default", null).statusCode() == 200) {
                    break;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        System.out.printf("server pid %d on port %d, backend %s, KAPI_JAVA_OPTS '%s', RSS after start %d MiB%n", pid,
                port, args.getOrDefault("backend", "embedded"), args.getOrDefault("java-opts", ""), rssKib() / 1024);
    }

    private void stop() throws Exception {
        if (server != null) {
            server.destroy();
            if (!server.waitFor(20, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor();
            }
        }
        if (data != null) {
            try (Stream<Path> files = Files.walk(data)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private void listPhase(int configmaps, int lists) throws Exception {
        createNamespace("bench-list");
        long t0 = System.nanoTime();
        createMany("bench-list", "cm-", configmaps, 32, null);
        System.out.printf("created %d %s in %.1f s%n", configmaps, resource, (System.nanoTime() - t0) / 1e9);
        String path = "/api/v1/namespaces/bench-list/" + resource;
        List<String> queries = List.of("", "?resourceVersion=0");
        for (int i = 0; i < 5; i++) {
            for (String query : queries) {
                get(path + query);
            }
        }
        long[][] ms = new long[queries.size()][lists];
        long[] cpu = new long[queries.size()];
        int items = 0;
        for (int q = 0; q < queries.size(); q++) {
            long cpu0 = cpuMillis();
            for (int i = 0; i < lists; i++) {
                long s = System.nanoTime();
                HttpResponse<byte[]> r = get(path + queries.get(q));
                ms[q][i] = System.nanoTime() - s;
                items = r.body().length;
            }
            cpu[q] = cpuMillis() - cpu0;
        }
        for (int q = 0; q < queries.size(); q++) {
            String query = queries.get(q);
            System.out.printf("list %d %s in %s%s: p50 %.1f ms, p99 %.1f ms, server CPU %.1f ms per list "
                            + "(%d lists, %d KiB each)%n", configmaps, resource, protobuf() ? "protobuf" : "JSON",
                    query.isEmpty() ? " (resourceVersion unset, consistent)" : " (" + query.substring(1) + ")",
                    pct(ms[q], 50) / 1e6, pct(ms[q], 99) / 1e6, (double) cpu[q] / lists, lists, items / 1024);
        }
        if (protobuf()) {
            return; // the paged lists below read JSON pages
        }
        long[] paged = new long[Math.max(5, lists / 5)];
        for (int i = 0; i < paged.length; i++) {
            long s = System.nanoTime();
            String token = null;
            int total = 0;
            do {
                String q = "?limit=500" + (token == null ? "" : "&continue=" + token);
                JsonNode page = Json.MAPPER.readTree(send("GET", path + q, null).body());
                total += page.path("items").size();
                token = page.path("metadata").path("continue").asText(null);
            } while (token != null && !token.isEmpty());
            paged[i] = System.nanoTime() - s;
            if (total != configmaps) {
                throw new IllegalStateException("paged list returned " + total);
            }
        }
        System.out.printf("paged list (limit=500, %d pages): p50 %.1f ms, p99 %.1f ms per full list%n",
                (configmaps + 499) / 500, pct(paged, 50) / 1e6, pct(paged, 99) / 1e6);
    }

    /**
     * The watchers' share of the server's CPU in each encoding, side by side in one server: {@code rounds}
     * times the same writes without watchers, with JSON watchers and with protobuf watchers (each in its
     * own namespace; the order reversed every other round, so that neither gains from the server warming
     * up), after one round to warm up. A watcher's share is its phase's CPU minus that of the round's
     * phase without watchers: the writes' own CPU, and much of its noise, cancel.
     */
    private void watchersShare(int rounds, int watchers, int creates) throws Exception {
        for (int kind = 0; kind < 3; kind++) {
            watchPhase("bench-warm-" + kind, kind == 0 ? 0 : watchers, creates, kind == 2);
        }
        long[][] share = new long[2][rounds];
        double[] whole = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long[] cpu = new long[3];
            for (int k = 0; k < 3; k++) {
                int kind = r % 2 == 0 ? k : 2 - k;
                cpu[kind] = watchPhase("bench-watch-" + r + "-" + kind, kind == 0 ? 0 : watchers, creates, kind == 2);
            }
            share[0][r] = cpu[1] - cpu[0];
            share[1][r] = cpu[2] - cpu[0];
            whole[r] = (double) cpu[2] / cpu[1];
            System.out.printf("round %d: server CPU %.2f s without watchers; %d watchers' share: JSON %.2f s, protobuf %.2f s%n",
                    r + 1, cpu[0] / 1e3, watchers, share[0][r] / 1e3, share[1][r] / 1e3);
        }
        double json = pct(share[0], 50) / 1e3;
        double protobuf = pct(share[1], 50) / 1e3;
        System.out.printf("watchers' share (%d watchers of %d %s creates), median of %d rounds: JSON %.2f s %s, "
                + "protobuf %.2f s %s (%.2f x)%n", watchers, creates, resource, rounds, json, seconds(share[0]),
                protobuf, seconds(share[1]), protobuf / json);
        java.util.Arrays.sort(whole);
        System.out.printf("whole phase, protobuf / JSON watchers' (writes and deliveries), paired by round: median %.2f "
                + "[%.2f-%.2f]%n", whole[(rounds - 1) / 2], whole[0], whole[rounds - 1]);
    }

    /**
     * The server's CPU for delivering a busy resource's events to W watchers, in each encoding, without the
     * writes' CPU (and its noise) in the figure: the C writes are made once, with no watcher, and then W
     * watchers watch from the resourceVersion before them, so that the watch cache's window replays the
     * same C events to each, from the same kept events a live watcher is sent. One unmeasured round per
     * encoding first (each event's frames in that encoding are made once, by its first watcher, then shared
     * as they are live); then {@code rounds} rounds of both, the order reversed every other round. Reports
     * CPU per delivery, the medians and the ratio paired by round.
     */
    private void replayShare(int rounds, int watchers, int creates) throws Exception {
        String namespace = "bench-replay";
        createNamespace(namespace);
        String path = "/api/v1/namespaces/" + namespace + "/" + resource;
        String rv = Json.MAPPER.readTree(send("GET", path, null).body()).path("metadata").path("resourceVersion").asText();
        createMany(namespace, "w-", creates, 16, null);
        System.out.printf("replay: %d %s created from resourceVersion %s; %d watchers each read the %d events%n",
                creates, resource, rv, watchers, creates);
        replay(path, rv, watchers, creates, false);
        replay(path, rv, watchers, creates, true);
        long[][] cpu = new long[2][rounds];
        double[] ratio = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 2; k++) {
                int encoding = r % 2 == 0 ? k : 1 - k;
                cpu[encoding][r] = replay(path, rv, watchers, creates, encoding == 1);
            }
            ratio[r] = (double) cpu[1][r] / cpu[0][r];
            System.out.printf("replay round %d: server CPU JSON %.2f s, protobuf %.2f s (%.2f x)%n", r + 1,
                    cpu[0][r] / 1e3, cpu[1][r] / 1e3, ratio[r]);
        }
        long deliveries = (long) watchers * creates;
        Arrays.sort(ratio);
        System.out.printf("replayed deliveries (%d watchers x %d %s events), median of %d rounds: JSON %.2f s "
                        + "(%.1f µs each) %s, protobuf %.2f s (%.1f µs each) %s; protobuf / JSON paired by round: "
                        + "median %.2f [%.2f-%.2f]%n", watchers, creates, resource, rounds,
                pct(cpu[0], 50) / 1e3, pct(cpu[0], 50) * 1e3 / deliveries, seconds(cpu[0]),
                pct(cpu[1], 50) / 1e3, pct(cpu[1], 50) * 1e3 / deliveries, seconds(cpu[1]),
                ratio[(rounds - 1) / 2], ratio[0], ratio[rounds - 1]);
    }

    /** W watchers from {@code rv} read {@code events} events each; returns the server's CPU meanwhile (ms). */
    private long replay(String path, String rv, int watchers, int events, boolean protobuf) throws Exception {
        CountDownLatch finished = new CountDownLatch(watchers);
        AtomicLong delivered = new AtomicLong();
        Thread.sleep(300); // the last round's streams closed, its CPU spent
        long start = System.nanoTime();
        long cpu0 = cpuMillis();
        for (int w = 0; w < watchers; w++) {
            int me = w;
            Thread.ofVirtual().start(() -> {
                try (Events read = watch(me, path, rv, protobuf)) {
                    for (int n = 0; n < events; n++) {
                        read.next();
                        delivered.incrementAndGet();
                    }
                } catch (Exception e) {
                    System.err.println("watcher " + me + " failed: " + e);
                } finally {
                    finished.countDown();
                }
            });
        }
        boolean all = finished.await(300, TimeUnit.SECONDS);
        long cpu = cpuMillis() - cpu0;
        if (!all || delivered.get() != (long) watchers * events) {
            throw new IllegalStateException("replay delivered " + delivered.get() + " of " + (long) watchers * events);
        }
        System.out.printf("  %s: %d deliveries in %.2f s, server CPU %.2f s%n", protobuf ? "protobuf" : "JSON",
                delivered.get(), (System.nanoTime() - start) / 1e9, cpu / 1e3);
        return cpu;
    }

    private static String seconds(long[] millis) {
        return Arrays.toString(Arrays.stream(millis).mapToObj(v -> String.format("%.2f", v / 1e3)).toArray());
    }

    /** One phase of writes and their watchers; returns the server's CPU time for it, in milliseconds. */
    private long watchPhase(String namespace, int watchers, int creates, boolean protobuf) throws Exception {
        createNamespace(namespace);
        String rv = Json.MAPPER.readTree(send("GET", "/api/v1/namespaces/" + namespace + "/" + resource, null).body())
                .path("metadata").path("resourceVersion").asText();
        Map<String, Long> acked = new ConcurrentHashMap<>();
        long[][] received = new long[watchers][creates];
        CountDownLatch connected = new CountDownLatch(watchers);
        CountDownLatch finished = new CountDownLatch(watchers);
        AtomicLong delivered = new AtomicLong();
        AtomicLong lastReceive = new AtomicLong();
        for (int w = 0; w < watchers; w++) {
            int me = w;
            Thread.ofVirtual().start(() -> {
                try {
                    Events events = watch(me, "/api/v1/namespaces/" + namespace + "/" + resource, rv, protobuf);
                    connected.countDown();
                    try (events) {
                        for (int n = 0; n < creates; n++) {
                            int index = events.next();
                            long now = System.nanoTime();
                            received[me][index] = now;
                            delivered.incrementAndGet();
                            lastReceive.accumulateAndGet(now, Math::max);
                        }
                    }
                } catch (Exception e) {
                    System.err.println("watcher " + me + " failed: " + e);
                } finally {
                    finished.countDown();
                }
            });
        }
        connected.await(60, TimeUnit.SECONDS);
        Thread.sleep(500);
        long rssBefore = rssKib();
        AtomicLong rssMax = new AtomicLong(rssBefore);
        Thread sampler = Thread.ofVirtual().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                rssMax.accumulateAndGet(rssKib(), Math::max);
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        long start = System.nanoTime();
        long cpu0 = cpuMillis();
        createMany(namespace, "w-", creates, 16, acked);
        long writesDone = System.nanoTime();
        boolean all = finished.await(120, TimeUnit.SECONDS);
        long cpu = cpuMillis() - cpu0;
        sampler.interrupt();
        long[] latency = new long[watchers * creates];
        int n = 0;
        for (int w = 0; w < watchers; w++) {
            for (int i = 0; i < creates; i++) {
                if (received[w][i] != 0) {
                    latency[n++] = Math.max(0, received[w][i] - acked.get("w-" + i));
                }
            }
        }
        latency = Arrays.copyOf(latency, n);
        double seconds = (lastReceive.get() - start) / 1e9;
        System.out.printf("watch %s: %d watchers, %d creates by 16 writers in %.2f s (%.0f writes/s)%n", resource,
                watchers, creates,
                (writesDone - start) / 1e9, creates / ((writesDone - start) / 1e9));
        if (watchers > 0) {
            System.out.printf("  delivered %d of %d events%s in %.2f s: %.0f events/s%n", delivered.get(),
                    (long) watchers * creates, all ? "" : " (TIMED OUT)", seconds, delivered.get() / seconds);
            System.out.printf("  write acknowledged -> event received: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                    pct(latency, 50) / 1e6, pct(latency, 99) / 1e6, pct(latency, 100) / 1e6);
        }
        System.out.printf("  server CPU %.1f s for the writes and their %s events (%.1f µs per event delivered)%n",
                cpu / 1e3, protobuf ? "protobuf" : "JSON", cpu * 1e3 / Math.max(1, delivered.get()));
        System.out.printf("  server RSS: %d MiB before the writes, %d MiB peak during, %d MiB after%n",
                rssBefore / 1024, rssMax.get() / 1024, rssKib() / 1024);
        return cpu;
    }

    private void createNamespace(String name) throws Exception {
        send("POST", "/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                + name + "\"}}");
        if (resource.equals("pods")) {
            awaitServiceAccount(name);
        }
    }

    private void createMany(String namespace, String prefix, int count, int writers, Map<String, Long> acked)
            throws Exception {
        Semaphore slots = new Semaphore(writers);
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < count; i++) {
                String name = prefix + i;
                if (acked != null && writeRate > 0) { // a paced watch phase: write i no sooner than i / rate
                    long due = start + (long) (i * 1e9 / writeRate);
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                }
                slots.acquire();
                pool.execute(() -> {
                    try {
                        String body = resource.equals("pods") ? POD.formatted(name)
                                : "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                                + "\",\"labels\":{\"app\":\"bench\"}},\"data\":{\"key\":\"" + "v".repeat(200) + "\"}}";
                        HttpResponse<String> r = send("POST", "/api/v1/namespaces/" + namespace + "/" + resource, body);
                        if (acked != null) {
                            acked.put(name, System.nanoTime());
                        }
                        if (r.statusCode() != 201) {
                            throw new IllegalStateException("create " + name + ": " + r.statusCode() + " " + r.body());
                        }
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    } finally {
                        slots.release();
                    }
                });
            }
        }
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = request(path);
        if (body != null) {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        int which = (int) (Thread.currentThread().threadId() % clients.size());
        return clients.get(which).send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A GET in the encoding asked for, its body as bytes. */
    private HttpResponse<byte[]> get(String path) throws Exception {
        int which = (int) (Thread.currentThread().threadId() % clients.size());
        return clients.get(which).send(request(path).header("Accept", accept).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    /** A watch's events, each read to the index in its object's name ({@code w-<index>}). */
    private interface Events extends AutoCloseable {
        int next() throws IOException;

        @Override
        void close() throws IOException;
    }

    /** Newline-delimited JSON events. */
    private static final class JsonEvents implements Events {
        private final BufferedReader lines;

        JsonEvents(InputStream in) {
            lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        }

        @Override
        public int next() throws IOException {
            String line = lines.readLine();
            int at = line.indexOf("\"name\":\"w-");
            return Integer.parseInt(line.substring(at + 10, line.indexOf('"', at + 10)));
        }

        @Override
        public void close() throws IOException {
            lines.close();
        }
    }

    /**
     * kube's protobuf frames (a 4-byte length, then the WatchEvent): the name is found by its bytes, as
     * cheaply as the JSON reader finds it, so that the client's work is alike in both encodings.
     */
    private static final class ProtobufEvents implements Events {
        private final java.io.DataInputStream frames;

        ProtobufEvents(InputStream in) {
            frames = new java.io.DataInputStream(new java.io.BufferedInputStream(in, 8192)); // as the JSON reader reads
        }

        @Override
        public int next() throws IOException {
            byte[] frame = new byte[frames.readInt()];
            frames.readFully(frame);
            for (int i = 0; i + 2 < frame.length; i++) {
                if (frame[i] == 'w' && frame[i + 1] == '-' && Character.isDigit(frame[i + 2])) {
                    int end = i + 2;
                    int index = 0;
                    while (end < frame.length && Character.isDigit(frame[end])) {
                        index = index * 10 + frame[end++] - '0';
                    }
                    return index;
                }
            }
            throw new IOException("no name in a frame of " + frame.length + " bytes");
        }

        @Override
        public void close() throws IOException {
            frames.close();
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(120));
    }

    private long rssKib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return 0;
    }

    private static long pct(long[] values, int p) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private HttpClient client() throws Exception {
        String ca = Files.readString(data.resolve("ca.crt"));
        String cert = Files.readString(data.resolve("admin.crt"));
        String key = Files.readString(data.resolve("admin.key"));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(TlsMaterial.trustStore(Pem.certificates(ca)));
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("admin", Pem.privateKey(key), new char[0],
                Pem.certificates(cert).toArray(new X509Certificate[0]));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, new char[0]);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return HttpClient.newBuilder().sslContext(context).version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }
}
