package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.fixtures.Await;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM to a real {@code bin/kapi} under load, as kubelet or systemd sends it: the process exits 0,
 * every request the server accepted is answered (a client sees "connection refused" or, for a connection
 * the kernel took just before the listener closed, a failed TLS handshake, never a request lost on an open
 * connection; the server itself serves every connection it accepted, see KapiServerTest), every watch ends with its terminating chunk (HTTP/1.1) or a
 * clean END_STREAM (HTTP/2), and every acknowledged write is there after a restart.
 */
@DisplayName("graceful shutdown on SIGTERM under load")
class ShutdownIT {

    private static final int WATCHES_HTTP1 = 13;
    private static final int WATCHES_HTTP2 = 12;
    private static final int WRITERS = 4;

    @Test
    @DisplayName("exit 0, every accepted request answered, every watch ends cleanly, no acknowledged write lost")
    void sigtermUnderLoad() throws Exception {
        try (KapiProcess kapi = new KapiProcess("shutdown", List.of("--shutdown-delay-duration=3s")).start();
             ApiClient api = ApiClient.of(kapi.kubeconfig())) {
            Kubeconfig kc = kapi.kubeconfig();
            List<String> watchEnds = new CopyOnWriteArrayList<>();
            CountDownLatch watching = new CountDownLatch(WATCHES_HTTP1 + WATCHES_HTTP2);
            List<Thread> watchers = new ArrayList<>();
            for (int i = 0; i < WATCHES_HTTP1; i++) {
                watchers.add(Thread.ofVirtual().start(() -> watchEnds.add(http1Watch(kc, watching))));
            }
            HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(kc.sslContext()).build();
            for (int i = 0; i < WATCHES_HTTP2; i++) {
                watchers.add(Thread.ofVirtual().start(() -> watchEnds.add(http2Watch(h2, kc, watching))));
            }
            assertTrue(watching.await(60, TimeUnit.SECONDS), "watches established");

            Set<String> acknowledged = ConcurrentHashMap.newKeySet();
            Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
            List<String> lost = new CopyOnWriteArrayList<>();
            List<String> reset = new CopyOnWriteArrayList<>();
            AtomicBoolean refused = new AtomicBoolean();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(Thread.ofVirtual().start(() -> load(kc, writer, acknowledged, outcomes, lost, reset, refused)));
            }
            Await.atMost(Duration.ofSeconds(60)).every(Duration.ofMillis(50)).poll(acknowledged::size, n -> n >= 50);
            int exit = kapi.terminate(Duration.ofSeconds(90));
            for (Thread t : writers) {
                t.join(Duration.ofSeconds(60));
            }
            for (Thread t : watchers) {
                t.join(Duration.ofSeconds(30));
            }

            assertEquals(0, exit, "exit code after SIGTERM\n" + kapi.logTail(40));
            assertEquals(List.of(), lost, "requests sent on an open connection that got no answer; outcomes " + outcomes);
            assertTrue(refused.get(), "the load ran until the listener closed: " + outcomes);
            assertEquals(WATCHES_HTTP1 + WATCHES_HTTP2, watchEnds.size(), "watches ended: " + watchEnds);
            watchEnds.forEach(end -> assertTrue(end.startsWith("clean"), "a watch ended " + end));

            kapi.start();
            JsonNode list = api.get("/api/v1/namespaces/default/configmaps").json();
            Set<String> stored = ConcurrentHashMap.newKeySet();
            list.path("items").forEach(i -> stored.add(i.path("metadata").path("name").asText()));
            List<String> missing = acknowledged.stream().filter(n -> !stored.contains(n)).toList();
            assertEquals(List.of(), missing, "acknowledged writes missing after the restart");
            List<String> resetButDone = reset.stream().filter(stored::contains).toList();
            assertEquals(List.of(), resetButDone, "requests reset on the client that had been carried out");
            System.out.printf("shutdown under load: %d writes acknowledged, outcomes %s, %d watches ended cleanly%n",
                    acknowledged.size(), outcomes, watchEnds.size());
        }
    }

    /**
     * Creates configmaps on its own client (HTTP/2 for even writers, kept-alive HTTP/1.1 for odd ones) until
     * the server refuses connections. A response of any status counts as answered; "connection refused" as not accepted;
     * an HTTP/2 stream reset as GOAWAY crosses it, and a TLS handshake that failed (the request was never
     * sent), are "not accepted" if the restart finds no such object; anything else (EOF after the request
     * went out) is a lost request.
     */
    private static void load(Kubeconfig kc, int writer, Set<String> acknowledged, Map<String, AtomicInteger> outcomes,
                             List<String> lost, List<String> reset, AtomicBoolean refused) {
        HttpClient client = HttpClient.newBuilder()
                .version(writer % 2 == 0 ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
                .sslContext(kc.sslContext()).connectTimeout(Duration.ofSeconds(10)).build();
        long refusedSince = 0;
        for (int i = 0; i < 100_000; i++) {
            String name = "w" + writer + "-" + i;
            HttpRequest create = HttpRequest.newBuilder(kc.server().resolve("/api/v1/namespaces/default/configmaps"))
                    .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"k\":\"v\"}}"))
                    .build();
            try {
                HttpResponse<String> r = client.send(create, HttpResponse.BodyHandlers.ofString());
                outcomes.computeIfAbsent(String.valueOf(r.statusCode()), k -> new AtomicInteger()).incrementAndGet();
                if (r.statusCode() == 201) {
                    acknowledged.add(name);
                }
                refusedSince = 0;
            } catch (IOException e) {
                if (isRefused(e)) {
                    refused.set(true);
                    outcomes.computeIfAbsent("refused", k -> new AtomicInteger()).incrementAndGet();
                    refusedSince = refusedSince == 0 ? System.nanoTime() : refusedSince;
                    if (System.nanoTime() - refusedSince > TimeUnit.SECONDS.toNanos(2)) {
                        return;
                    }
                    sleep(50);
                } else if (String.valueOf(e.getMessage()).contains("RST_STREAM")) {
                    // a stream opened as the GOAWAY was on its way is reset unprocessed (RFC 9113 6.8); the
                    // restart below checks that it had no effect, i.e. was never accepted
                    reset.add(name);
                    outcomes.computeIfAbsent("reset", k -> new AtomicInteger()).incrementAndGet();
                } else if (inHandshake(e)) {
                    // the kernel completed the TCP handshake just before the listener closed and reset the
                    // connection with it (Go's server has the same window): the TLS handshake failed, so the
                    // request never went out; the restart below checks it had no effect
                    reset.add(name);
                    outcomes.computeIfAbsent("reset in handshake", k -> new AtomicInteger()).incrementAndGet();
                } else {
                    lost.add(name + ": " + e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static boolean inHandshake(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof javax.net.ssl.SSLHandshakeException) {
                return true;
            }
        }
        return false;
    }

    private static boolean isRefused(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }

    /** A watch over HTTP/1.1 on a raw TLS socket, read to its end: "clean" only with the terminating chunk. */
    private static String http1Watch(Kubeconfig kc, CountDownLatch watching) {
        URI server = kc.server();
        try (SSLSocket socket = (SSLSocket) kc.sslContext().getSocketFactory().createSocket(server.getHost(), server.getPort())) {
            socket.setSoTimeout(120_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=600 HTTP/1.1\r\nHost: "
                    + server.getHost() + "\r\nAccept: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String status = line(in);
            if (!status.contains(" 200 ")) {
                return "bad status " + status;
            }
            boolean chunked = false;
            for (String h = line(in); !h.isEmpty(); h = line(in)) {
                chunked |= h.toLowerCase().startsWith("transfer-encoding: chunked");
            }
            watching.countDown();
            if (!chunked) {
                return "not chunked";
            }
            while (true) {
                String size = line(in);
                if (size == null) {
                    return "torn: EOF without the terminating chunk";
                }
                int n = Integer.parseInt(size.trim(), 16);
                if (n == 0) {
                    return "clean (HTTP/1.1, terminating chunk)";
                }
                in.skipNBytes(n);
                line(in);
            }
        } catch (IOException | RuntimeException e) {
            watching.countDown();
            return "torn: " + e;
        }
    }

    /** A watch over HTTP/2, read to its end: "clean" when the stream ends without an error (END_STREAM). */
    private static String http2Watch(HttpClient h2, Kubeconfig kc, CountDownLatch watching) {
        HttpRequest watch = HttpRequest.newBuilder(kc.server().resolve(
                "/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=600")).build();
        try {
            HttpResponse<InputStream> r = h2.send(watch, HttpResponse.BodyHandlers.ofInputStream());
            watching.countDown();
            if (r.version() != HttpClient.Version.HTTP_2) {
                return "not HTTP/2";
            }
            try (InputStream in = r.body()) {
                in.transferTo(OutputStream.nullOutputStream());
            }
            return "clean (HTTP/2, END_STREAM)";
        } catch (IOException e) {
            watching.countDown();
            return "torn: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            watching.countDown();
            return "interrupted";
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                return b.size() == 0 ? null : b.toString(StandardCharsets.US_ASCII);
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.US_ASCII);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
