package io.kapi.e2e.fuzz;

import io.kapi.e2e.KapiProcess;
import io.kapi.e2e.Kubeconfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import javax.net.ssl.SSLSocket;

/**
 * A fuzzing campaign against a running Kapi: {@code workers} threads, each with its own seeded
 * {@link Mutator}, send mutated {@link Seeds} for {@code duration}, re-creating the fixtures every 200
 * requests. A request fails the campaign when it is answered 5xx, is not answered within the hang limit, or (through the HTTP/2 client) loses its stream; afterwards the server's log must show no
 * request thread that died (an uncaught error, a stack overflow, a panic) and {@code /readyz} must be ok.
 *
 * <p>One exception is counted, not failed: Jetty refuses a path with an encoded NUL or slash, or an empty
 * segment ({@code /a%00b}, {@code /namespaces/%2F}, {@code /namespaces//x}) before Kapi sees the request, answering 400 (a Status, through
 * {@code StatusErrorHandler}), but over HTTP/2 it may reset the stream right after, and the JDK client then
 * reports the reset instead of the 400 (with a body always: Jetty's error path has no request to consume
 * it from); over HTTP/1.1 the same requests always get their 400. Any other request whose HTTP/2 stream
 * is lost is sent once more over HTTP/1.1 and judged by that answer (a 5xx or a hang still fails): on a
 * machine overloaded to the point of client timeouts, a stream was once reset with STREAM_CLOSED within
 * milliseconds of being sent (a PUT and a GET with bodies, both valid), a transport fault, not an answer.
 *
 * <p>{@code FuzzIT} runs a short campaign in {@code bin/test}; {@code bench/fuzz.sh} runs a long one
 * ({@link #main}).
 */
public final class Campaign {

    /** Slower than this, a request is noted as slow; it fails as a hang past the campaign's own limit. */
    static final int SLOW_SECONDS = 5;
    /**
     * The one 5xx kube-apiserver answers on purpose: 504 for a resourceVersion the cache has not reached
     * within 3 s, which client-go's reflector recognises by this cause (found in a JSON or a protobuf Status
     * alike). It is counted, not failed.
     */
    private static final String TOO_LARGE_RV = "ResourceVersionTooLarge";
    /** What a dead or panicking request thread leaves in the server log. */
    private static final Pattern THREAD_DEATH = Pattern.compile(
            "Exception in thread|StackOverflowError|OutOfMemoryError|panic serving|cannot serve|response to .* failed");

    private final Kubeconfig kubeconfig;
    private final HttpClient http;
    /** For the one retry of a request whose HTTP/2 stream was lost (see the class comment). */
    private final HttpClient http1;
    private final int hangSeconds;
    private final Map<String, AtomicInteger> histogram = new ConcurrentHashMap<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicInteger sent = new AtomicInteger();

    /**
     * @param hangSeconds a request not answered within this is a hang: 5 s on a machine of one's own
     *                    ({@code bench/fuzz.sh}); more in {@code bin/test}, where two cores are shared with
     *                    other builds and a write may wait seconds for the disk (slower than 5 s is counted)
     */
    Campaign(Kubeconfig kubeconfig, int hangSeconds) {
        this.kubeconfig = kubeconfig;
        this.hangSeconds = hangSeconds;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(kubeconfig.sslContext())
                .connectTimeout(Duration.ofSeconds(hangSeconds)).build();
        this.http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(kubeconfig.sslContext())
                .connectTimeout(Duration.ofSeconds(hangSeconds)).build();
    }

    /** The outcome of a campaign. */
    record Report(long seed, int requests, Map<String, Integer> statuses, List<String> failures, Duration took) {
        int serverErrors() {
            return statuses.entrySet().stream().filter(e -> e.getKey().matches("5\\d\\d"))
                    .mapToInt(Map.Entry::getValue).sum();
        }

        @Override
        public String toString() {
            return "fuzz: seed %d, %d requests in %d s, %d answered 5xx, %d failures; statuses %s".formatted(seed, requests,
                    took.toSeconds(), serverErrors(), failures.size(), statuses);
        }
    }

    /** Runs for {@code duration} (and at most {@code maxRequests}) with {@code workers} threads. */
    Report run(long seed, int workers, Duration duration, int maxRequests) throws InterruptedException {
        long t0 = System.nanoTime();
        long deadline = t0 + duration.toNanos();
        for (FuzzRequest f : Seeds.fixtures()) {
            send(f);
        }
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            Random random = new Random(seed * 31 + w);
            threads.add(Thread.ofPlatform().name("fuzz-" + w).start(() -> work(random, deadline, maxRequests)));
        }
        for (Thread t : threads) {
            t.join();
        }
        Map<String, Integer> statuses = new TreeMap<>();
        histogram.forEach((k, v) -> statuses.put(k, v.get()));
        return new Report(seed, sent.get(), statuses, List.copyOf(failures), Duration.ofNanos(System.nanoTime() - t0));
    }

    private void work(Random random, long deadline, int maxRequests) {
        Mutator mutator = new Mutator(random);
        List<FuzzRequest> seeds = List.of();
        for (int n = 0; System.nanoTime() < deadline && sent.get() < maxRequests; n++) {
            if (n % 200 == 199) {
                Seeds.fixtures().forEach(this::send);
            }
            if (n % 20 == 0) {
                seeds = Seeds.all(random.nextInt(1_000_000));
            }
            send(mutator.mutate(seeds.get(random.nextInt(seeds.size()))));
        }
    }

    private void send(FuzzRequest r) {
        sent.incrementAndGet();
        long t0 = System.nanoTime();
        String outcome;
        try {
            outcome = r.framing() == FuzzRequest.Framing.CLIENT ? viaClient(r, http) : viaSocket(r);
            if (outcome.equals("504") && r.method().equals("HEAD") && r.framing() != FuzzRequest.Framing.CLIENT) {
                // a HEAD answer has no body to tell its cause: ask the same as GET, as viaClient does
                outcome = viaClient(r.with("GET", r.pathAndQuery(), r.headers(), new byte[0], FuzzRequest.Framing.CLIENT,
                        "as-GET"), http);
            }
        } catch (HttpTimeoutException | java.net.SocketTimeoutException e) {
            outcome = serverResponsive() ? "hang" : "machine-overloaded";
        } catch (IOException e) {
            outcome = r.framing() != FuzzRequest.Framing.CLIENT ? "closed"
                    : jettyRejectsUri(r.pathAndQuery()) ? "reset-invalid-uri" : retriedOverHttp1(r, e);
        } catch (RuntimeException e) {
            outcome = "unsendable"; // the HTTP client refuses such a header or method: nothing to learn
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        String bucket = outcome.startsWith("transport") ? "transport"
                : outcome.startsWith("stream-lost-then-") ? "stream-lost-then-answered" : outcome;
        histogram.computeIfAbsent(bucket, k -> new AtomicInteger()).incrementAndGet();
        if (millis > SLOW_SECONDS * 1000L && !outcome.equals("hang")) {
            histogram.computeIfAbsent("slower-than-" + SLOW_SECONDS + "s", k -> new AtomicInteger()).incrementAndGet();
        }
        if (outcome.matches("5\\d\\d") || outcome.matches("stream-lost-then-5\\d\\d") || outcome.equals("hang")
                || outcome.startsWith("transport")) {
            failures.add(outcome + " after " + millis + " ms: " + r.describe());
        }
    }

    /**
     * A request whose HTTP/2 stream was lost, sent once more over HTTP/1.1: answered there (with any status
     * but a 5xx, which still fails) it is {@code stream-lost-then-<status>}; lost again, a transport failure.
     */
    private String retriedOverHttp1(FuzzRequest r, IOException lost) {
        try {
            return "stream-lost-then-" + viaClient(r, http1);
        } catch (IOException again) {
            return "transport: " + lost + " (over HTTP/1.1: " + again + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "transport: " + lost + " (not retried: interrupted)";
        }
    }

    /** The paths Jetty itself refuses as invalid or ambiguous URIs (see the class comment). */
    private static boolean jettyRejectsUri(String pathAndQuery) {
        int q = pathAndQuery.indexOf('?');
        String path = (q < 0 ? pathAndQuery : pathAndQuery.substring(0, q)).toUpperCase(java.util.Locale.ROOT);
        return path.contains("%00") || path.contains("%2F") || path.contains("//");
    }

    /**
     * Whether the server answers {@code /livez} within a second: a request that timed out while it does is a
     * hang of that request; one that timed out while even {@code /livez} is slow says only that the machine
     * is overloaded (CI shares two cores), and is counted apart.
     */
    private boolean serverResponsive() {
        try {
            long t0 = System.nanoTime();
            HttpResponse<Void> r = http.send(HttpRequest.newBuilder(kubeconfig.server().resolve("/livez"))
                    .timeout(Duration.ofSeconds(SLOW_SECONDS)).build(), HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 200 && System.nanoTime() - t0 < 1_000_000_000L;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private String viaClient(FuzzRequest r, HttpClient client) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(kubeconfig.server().resolve(r.pathAndQuery()))
                .timeout(Duration.ofSeconds(hangSeconds))
                .method(r.method(), r.body().length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(r.body()));
        r.headers().forEach((k, v) -> {
            if (!v.isEmpty()) {
                b.header(k, v);
            }
        });
        if (r.pathAndQuery().contains("watch")) {
            // a watch streams for as long as it was asked to: answered means its headers came
            HttpResponse<InputStream> response = client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = response.body()) {
                return outcome(response.statusCode(), response.statusCode() == 504 ? in.readNBytes(4096) : new byte[0]);
            }
        }
        HttpResponse<byte[]> response = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() == 504 && r.method().equals("HEAD")) {
            // a HEAD answer has no body to tell its cause: ask the same as GET
            return viaClient(r.with("GET", r.pathAndQuery(), r.headers(), new byte[0], r.framing(), "as-GET"), client);
        }
        return outcome(response.statusCode(), response.body());
    }

    private static String outcome(int status, byte[] body) {
        if (status == 504 && new String(body, StandardCharsets.UTF_8).contains(TOO_LARGE_RV)) {
            return "504-rv-too-large";
        }
        return String.valueOf(status);
    }

    /** HTTP/1.1 on a raw TLS socket with the framing asked for; the answer's status, or "closed". */
    private String viaSocket(FuzzRequest r) throws IOException {
        try (SSLSocket s = (SSLSocket) kubeconfig.sslContext().getSocketFactory()
                .createSocket(kubeconfig.server().getHost(), kubeconfig.server().getPort())) {
            s.setSoTimeout(hangSeconds * 1000);
            StringBuilder head = new StringBuilder(r.method() + " " + r.pathAndQuery() + " HTTP/1.1\r\nHost: fuzz\r\n");
            r.headers().forEach((k, v) -> head.append(k).append(": ").append(v.replace("\r", "").replace("\n", "")).append("\r\n"));
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            byte[] body = r.body();
            switch (r.framing()) {
                case BAD_CHUNK_SIZE -> head.append("Transfer-Encoding: chunked\r\n\r\nZZ\r\n");
                case MISSING_LAST_CHUNK, LENGTH_AND_CHUNKED -> head.append(r.framing() == FuzzRequest.Framing.LENGTH_AND_CHUNKED
                        ? "Content-Length: 3\r\n" : "").append("Transfer-Encoding: chunked\r\n\r\n")
                        .append(Integer.toHexString(body.length)).append("\r\n");
                case SHORT_LENGTH -> head.append("Content-Length: ").append(body.length / 2).append("\r\n\r\n");
                case CLIENT -> throw new IllegalStateException();
            }
            wire.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            wire.write(body);
            if (r.framing() == FuzzRequest.Framing.LENGTH_AND_CHUNKED) {
                wire.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            OutputStream out = s.getOutputStream();
            out.write(wire.toByteArray());
            out.flush();
            if (r.framing() == FuzzRequest.Framing.MISSING_LAST_CHUNK) {
                s.shutdownOutput();
            }
            InputStream in = s.getInputStream();
            byte[] status = in.readNBytes(12);
            if (status.length < 12) {
                return "closed";
            }
            String code = new String(status, 9, 3, StandardCharsets.US_ASCII);
            if (!code.matches("\\d{3}")) {
                return "not-http";
            }
            return outcome(Integer.parseInt(code), code.equals("504") ? readSome(s, in) : new byte[0]);
        }
    }

    /** What follows on a kept-alive connection within a second (the rest of an answer), at most 4 KiB. */
    private static byte[] readSome(SSLSocket s, InputStream in) throws IOException {
        s.setSoTimeout(1000);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n = in.read(buffer); n > 0 && got.size() < 4096; n = in.read(buffer)) {
                got.write(buffer, 0, n);
            }
        } catch (java.net.SocketTimeoutException enough) {
            // the connection stays open after the answer
        }
        return got.toByteArray();
    }

    /** Failures the server's log shows: request threads that died or panicked. */
    static List<String> threadDeaths(Path log) throws IOException {
        List<String> deaths = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (THREAD_DEATH.matcher(line).find()) {
                deaths.add(line);
            }
        }
        return deaths;
    }

    /**
     * A long campaign ({@code bench/fuzz.sh}): {@code --seconds=600 --seed=N --workers=4
     * --max-requests=10000000 --hang-seconds=5}; starts its own server, prints the report, exits 1 on any failure.
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new TreeMap<>();
        for (String a : args) {
            String[] kv = a.replaceFirst("^--", "").split("=", 2);
            opts.put(kv[0], kv.length > 1 ? kv[1] : "true");
        }
        long seed = Long.parseLong(opts.getOrDefault("seed", String.valueOf(System.currentTimeMillis())));
        try (KapiProcess kapi = new KapiProcess("fuzz-campaign", List.of()).start()) {
            Campaign c = new Campaign(kapi.kubeconfig(), Integer.parseInt(opts.getOrDefault("hang-seconds", "5")));
            Report report = c.run(seed, Integer.parseInt(opts.getOrDefault("workers", "4")),
                    Duration.ofSeconds(Long.parseLong(opts.getOrDefault("seconds", "600"))),
                    Integer.parseInt(opts.getOrDefault("max-requests", "10000000")));
            List<String> deaths = threadDeaths(kapi.logFile());
            System.out.println(report);
            report.failures().stream().limit(50).forEach(f -> System.out.println("FAIL " + f));
            deaths.stream().limit(50).forEach(d -> System.out.println("DEATH " + d));
            System.exit(report.failures().isEmpty() && deaths.isEmpty() ? 0 : 1);
        }
    }

}
