package io.kapi.bench.hostile;

import io.kapi.e2e.ApiClient;
import io.kapi.e2e.KapiProcess;
import io.kapi.e2e.Kubeconfig;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What slow and greedy clients cost a real Kapi, measured on one or more builds side by side
 * ({@code bench/hostile.sh}, {@code --phases=probe,bombs,slow,idle,lists} to pick): a probe GET's latency alone, then during 200 slowloris connections and 50
 * slow bodies (how many the server still holds after 35 s and at the end), then with 2,000 idle
 * connections from one client (how many it keeps), then during 16 concurrent LISTs of 10,000 objects
 * (peak RSS). Loopback only (the attackers from 127.0.0.2 and .3), bounded in count and time; each
 * server is stopped and its data deleted.
 */
public final class HostileBench {

    private HostileBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (String a : args) {
            String[] kv = a.replaceFirst("^--", "").split("=", 2);
            opts.put(kv[0], kv.length > 1 ? kv[1] : "true");
        }
        Map<String, Map<String, String>> results = new LinkedHashMap<>();
        for (String project : opts.getOrDefault("projects", "this:.").split(",")) {
            String[] p = project.split(":", 2);
            System.setProperty("kapi.e2e.projectDir", Path.of(p[1]).toAbsolutePath().toString());
            results.put(p[0], run(p[0], opts));
        }
        print(results);
    }

    private static Map<String, String> run(String label, Map<String, String> opts) throws Exception {
        int slowloris = Integer.parseInt(opts.getOrDefault("slowloris", "200"));
        int slowBodies = Integer.parseInt(opts.getOrDefault("slow-bodies", "50"));
        int slowSeconds = Integer.parseInt(opts.getOrDefault("slow-seconds", "70"));
        int idle = Integer.parseInt(opts.getOrDefault("idle", "2000"));
        int objects = Integer.parseInt(opts.getOrDefault("objects", "10000"));
        int lists = Integer.parseInt(opts.getOrDefault("lists", "16"));
        int listSeconds = Integer.parseInt(opts.getOrDefault("list-seconds", "30"));
        java.util.Set<String> phases = java.util.Set.of(opts.getOrDefault("phases", "probe,bombs,slow,idle,lists").split(","));
        Map<String, String> out = new LinkedHashMap<>();
        List<String> serverArgs = opts.getOrDefault("server-args", "").isEmpty() ? List.of()
                : List.of(opts.get("server-args").split(","));
        try (KapiProcess kapi = new KapiProcess("hostile-" + label, serverArgs).start();
             ApiClient api = ApiClient.of(kapi.kubeconfig())) {
            Kubeconfig kc = kapi.kubeconfig();
            api.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"probe\"},\"data\":{\"k\":\"v\"}}");
            String probePath = "/api/v1/namespaces/default/configmaps/probe";
            out.put("rss at start (MiB)", String.valueOf(kapi.rssKiB() / 1024));
            if (phases.contains("probe")) {
                try (Probe probe = new Probe(kc, probePath)) {
                    Thread.sleep(10_000);
                    out.put("probe alone", probe.result().toString());
                }
            }
            if (phases.contains("bombs")) {
                bombs(label, kapi, api, out);
            }
            if (phases.contains("slow")) {
                slowClients(label, kc, probePath, slowloris, slowBodies, slowSeconds, out);
            }
            if (phases.contains("idle")) {
                log(label, "idle connections");
                out.put("idle connections kept of " + idle, String.valueOf(idleKept(kc, idle)));
            }
            if (phases.contains("lists")) {
                lists(label, kapi, kc, probePath, objects, lists, listSeconds, out);
            }
        }
        return out;
    }

    /**
     * Hostile bodies through the real server: a YAML alias bomb, JSON 900 levels deep and YAML 100,000 levels
     * deep, each POSTed five times; reports the status codes, the slowest answer and the RSS before and after.
     */
    private static void bombs(String label, KapiProcess kapi, ApiClient api, Map<String, String> out) {
        log(label, "hostile bodies");
        String path = "/api/v1/namespaces/default/configmaps";
        Map<String, String[]> bodies = new LinkedHashMap<>();
        bodies.put("yaml alias bomb", new String[] {"application/yaml", io.kapi.endpoint.codec.DecodeBoundsTest.aliasBomb()});
        bodies.put("json 900 levels", new String[] {"application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"x\":" + "[".repeat(900) + "]".repeat(900) + "}"});
        bodies.put("yaml 100,000 levels", new String[] {"application/yaml",
                "apiVersion: v1\nkind: ConfigMap\nx: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n"});
        long rssBefore = kapi.rssKiB();
        bodies.forEach((name, body) -> {
            java.util.Set<Integer> codes = new java.util.TreeSet<>();
            long slowest = 0;
            for (int i = 0; i < 5; i++) {
                long t0 = System.nanoTime();
                ApiClient.Response r = api.send("POST", path, body[1], body[0]);
                slowest = Math.max(slowest, System.nanoTime() - t0);
                codes.add(r.status());
            }
            out.put(name + ": codes, slowest (ms)", codes + ", " + slowest / 1_000_000);
        });
        out.put("rss before / after hostile bodies (MiB)", rssBefore / 1024 + " / " + kapi.rssKiB() / 1024);
    }

    private static void slowClients(String label, Kubeconfig kc, String probePath, int slowloris, int slowBodies,
                                    int slowSeconds, Map<String, String> out) throws Exception {
        log(label, "slow clients");
        {
            try (Probe probe = new Probe(kc, probePath); Attackers attackers = new Attackers(kc)) {
                attackers.start(slowloris, slowBodies);
                long t0 = System.nanoTime();
                sleepUntil(t0, 35);
                out.put("slow connections open after 35 s", attackers.open() + " of " + (slowloris + slowBodies));
                sleepUntil(t0, slowSeconds);
                out.put("slow connections open after " + slowSeconds + " s", attackers.open() + " of " + (slowloris + slowBodies));
                out.put("probe during slow clients", probe.result().toString());
            }
        }
    }

    private static void lists(String label, KapiProcess kapi, Kubeconfig kc, String probePath, int objects, int lists,
                              int listSeconds, Map<String, String> out) throws Exception {
        {
            log(label, "creating " + objects + " objects");
            create(kc, objects);
            log(label, lists + " concurrent lists");
            AtomicLong peak = new AtomicLong(kapi.rssKiB());
            try (Probe probe = new Probe(kc, probePath)) {
                AtomicInteger done = new AtomicInteger();
                long t0 = System.nanoTime();
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < lists; i++) {
                    threads.add(Thread.ofPlatform().start(() -> listLoop(kc, t0, listSeconds, done)));
                }
                while (threads.stream().anyMatch(Thread::isAlive)) {
                    peak.accumulateAndGet(kapi.rssKiB(), Math::max);
                    Thread.sleep(200);
                }
                out.put("lists of " + objects + " done in " + listSeconds + " s", String.valueOf(done.get()));
                out.put("probe during lists", probe.result().toString());
            }
            out.put("peak rss during lists (MiB)", String.valueOf(peak.get() / 1024));
        }
    }

    private static int idleKept(Kubeconfig kc, int count) throws Exception {
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                Socket raw = new Socket();
                raw.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.3"), 0));
                raw.connect(new InetSocketAddress(kc.server().getHost(), kc.server().getPort()), 10_000);
                raw.setSoTimeout(10_000);
                javax.net.ssl.SSLSocket s = (javax.net.ssl.SSLSocket) kc.sslContext().getSocketFactory()
                        .createSocket(raw, kc.server().getHost(), kc.server().getPort(), true);
                sockets.add(s);
                try {
                    s.startHandshake();
                    s.setSoTimeout(1);
                } catch (java.io.IOException refused) {
                    // closed by the server at once
                }
            }
            Thread.sleep(3_000);
            int kept = 0;
            for (Socket s : sockets) {
                if (s.isClosed()) {
                    continue;
                }
                try {
                    s.getInputStream().read();
                } catch (java.net.SocketTimeoutException stillOpen) {
                    kept++;
                } catch (java.io.IOException closed) {
                    // closed
                }
            }
            return kept;
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    private static void create(Kubeconfig kc, int objects) throws InterruptedException {
        String data = "x".repeat(2000);
        AtomicInteger next = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try (ApiClient api = ApiClient.of(kc)) {
                    for (int i = next.getAndIncrement(); i < objects; i = next.getAndIncrement()) {
                        api.post("/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"big-" + i
                                + "\",\"labels\":{\"bench\":\"hostile\"}},\"data\":{\"k\":\"" + data + "\"}}");
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    private static void listLoop(Kubeconfig kc, long t0, int seconds, AtomicInteger done) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(kc.sslContext()).build();
        HttpRequest list = HttpRequest.newBuilder(kc.server().resolve("/api/v1/namespaces/default/configmaps"))
                .header("Accept", "application/json").timeout(Duration.ofSeconds(120)).build();
        while (System.nanoTime() - t0 < seconds * 1_000_000_000L) {
            try {
                HttpResponse<InputStream> r = client.send(list, HttpResponse.BodyHandlers.ofInputStream());
                try (InputStream in = r.body()) {
                    in.transferTo(OutputStream.nullOutputStream());
                }
                if (r.statusCode() == 200) {
                    done.incrementAndGet();
                }
            } catch (Exception e) {
                log("list", "failed: " + e);
            }
        }
    }

    private static void sleepUntil(long t0, int seconds) throws InterruptedException {
        long left = t0 + seconds * 1_000_000_000L - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000);
        }
    }

    private static void log(String label, String what) {
        System.err.println("[" + label + "] " + what);
    }

    private static void print(Map<String, Map<String, String>> results) {
        List<String> labels = new ArrayList<>(results.keySet());
        Map<String, String> first = results.get(labels.getFirst());
        StringBuilder b = new StringBuilder("\n| metric |");
        labels.forEach(l -> b.append(' ').append(l).append(" |"));
        b.append("\n|---|").append("---|".repeat(labels.size())).append('\n');
        for (String metric : first.keySet()) {
            b.append("| ").append(metric).append(" |");
            for (String l : labels) {
                b.append(' ').append(results.get(l).getOrDefault(metric, "-")).append(" |");
            }
            b.append('\n');
        }
        System.out.println(b);
    }
}
