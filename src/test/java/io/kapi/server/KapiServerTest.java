package io.kapi.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.certs.LocalPki;
import io.kapi.certs.ServingNames;
import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestResponse;
import io.kapi.fixtures.Await;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.Json;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("KapiServer over real TLS on 127.0.0.1")
class KapiServerTest {

    @TempDir
    static Path dataDir;
    static LocalPki pki;
    static KapiServer server;
    static HttpClient admin;
    static HttpClient anonymous;
    static final CountDownLatch secondChunk = new CountDownLatch(1);
    static final CountDownLatch streamInterrupted = new CountDownLatch(1);
    static final CountDownLatch secondFrame = new CountDownLatch(1);
    static final AtomicInteger hookAttempts = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        pki = LocalPki.ensure(dataDir, ServingNames.standard("test-host", "10.96.0.1", List.of()));
        PostStartHook flaky = new PostStartHook() {
            public String name() {
                return "flaky";
            }

            public void run() {
                if (hookAttempts.incrementAndGet() < 2) {
                    throw new IllegalStateException("first attempt fails");
                }
            }
        };
        server = KapiServer.start(ServerConfig.of("127.0.0.1", 0, pki.tls()), KapiServerTest::handle,
                List.of(), List.of(flaky));
        admin = TestClients.admin(pki);
        anonymous = TestClients.anonymous(pki);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static RestResponse handle(io.kapi.endpoint.RestRequest request) {
        return switch (request.path()) {
            case "/whoami" -> text(request.user().name() + " " + request.user().groups() + " "
                    + request.param("q"));
            case "/upload" -> {
                try {
                    yield text("read " + request.body().readAllBytes().length);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            case "/boom" -> throw new IllegalStateException("secret detail");
            case "/stream" -> new RestResponse(200, new java.util.ArrayList<>(),
                    new RestResponse.Stream("text/plain", out -> {
                        out.frame("first\n".getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        try {
                            secondChunk.await(10, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        out.frame("second\n".getBytes(StandardCharsets.UTF_8));
                    }));
            case "/two-frames" -> new RestResponse(200, new java.util.ArrayList<>(),
                    new RestResponse.Stream("application/json", out -> {
                        out.frame("{\"n\":1}\n".getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        try {
                            secondFrame.await(120, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        out.frame("{\"n\":2}\n".getBytes(StandardCharsets.UTF_8));
                    }));
            case "/one-frame" -> new RestResponse(200, new java.util.ArrayList<>(),
                    new RestResponse.Stream("application/json",
                            out -> out.frame("{\"n\":1}\n".getBytes(StandardCharsets.UTF_8))));
            case "/until-closed" -> new RestResponse(200, new java.util.ArrayList<>(),
                    new RestResponse.Stream("application/json", out -> {
                        try {
                            out.frame("{\"n\":1}\n".getBytes(StandardCharsets.UTF_8));
                            out.flush(); // the client may have the frame, and close, before this returns
                            Thread.sleep(Duration.ofMinutes(1));
                        } catch (InterruptedException | java.io.InterruptedIOException e) {
                            streamInterrupted.countDown();
                        }
                    }));
            default -> null;
        };
    }

    private static RestResponse text(String s) {
        return RestResponse.bytes(200, "text/plain", s.getBytes(StandardCharsets.UTF_8));
    }

    private static HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(20));
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest request) throws Exception {
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @DisplayName("a client certificate authenticates as its CN with its O groups, over HTTP/2")
    void clientCertificate() throws Exception {
        HttpResponse<String> r = send(admin, get("/whoami?q=a%20b").build());
        assertEquals(200, r.statusCode());
        assertEquals(HttpClient.Version.HTTP_2, r.version());
        assertEquals("kubernetes-admin [system:masters, system:authenticated] a b", r.body());
        assertEquals("no-cache, private", r.headers().firstValue("cache-control").orElseThrow());
    }

    @Test
    @DisplayName("a request without credentials gets 401 Unauthorized as a Status")
    void unauthorized() throws Exception {
        HttpResponse<String> r = send(anonymous, get("/whoami").build());
        assertEquals(401, r.statusCode());
        assertEquals("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}\n", r.body());
        assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow());
    }

    @Test
    @DisplayName("health and version are public; a path nobody serves is 404 NotFound")
    void publicPaths() throws Exception {
        assertEquals("ok", send(anonymous, get("/livez").build()).body());
        assertEquals(200, send(anonymous, get("/version").build()).statusCode());
        HttpResponse<String> missing = send(admin, get("/nothing/here").build());
        assertEquals(404, missing.statusCode());
        assertEquals("NotFound", Json.MAPPER.readTree(missing.body()).path("reason").asText());
        assertTrue(missing.body().endsWith("}\n"), "a Status body ends with a newline, as Go's json.Encoder writes it");
    }

    @Test
    @DisplayName("idle connections are kept 90 s by default, as kube-apiserver's http.Server keeps them")
    void idleTimeoutDefault() {
        assertEquals(Duration.ofSeconds(90), ServerConfig.of("127.0.0.1", 0, pki.tls()).idleTimeout());
    }

    @Test
    @DisplayName("HTTP/2 responses take little direct memory: 500 of them not 32 MiB (each took 2 MiB, the bound of "
            + "an HTTP/1.1 response's headers, and the JDK collected fully whenever direct memory ran out)")
    void http2ResponsesTakeLittleDirectMemory() throws Exception {
        java.lang.management.BufferPoolMXBean direct = java.lang.management.ManagementFactory
                .getPlatformMXBeans(java.lang.management.BufferPoolMXBean.class).stream()
                .filter(b -> b.getName().equals("direct")).findFirst().orElseThrow();
        send(admin, get("/whoami").build());
        long before = direct.getTotalCapacity();
        long most = before;
        for (int i = 0; i < 500; i++) {
            HttpResponse<String> r = send(admin, get("/whoami").build());
            assertEquals(HttpClient.Version.HTTP_2, r.version());
            most = Math.max(most, direct.getTotalCapacity());
        }
        assertTrue(most - before < 32L << 20, "direct memory grew by " + ((most - before) >> 20) + " MiB");
    }

    @Test
    @DisplayName("an exception from the handler becomes 500 InternalError without its detail")
    void panic() throws Exception {
        HttpResponse<String> r = send(admin, get("/boom").build());
        assertEquals(500, r.statusCode());
        JsonNode status = Json.MAPPER.readTree(r.body());
        assertEquals("InternalError", status.path("reason").asText());
        assertEquals(500, status.path("code").asInt());
        assertTrue(!r.body().contains("secret detail"), r.body());
    }

    @Test
    @DisplayName("a body over 3 MiB with Content-Length is refused with 413")
    void tooLargeWithLength() throws Exception {
        byte[] big = new byte[3 * 1024 * 1024 + 1];
        HttpResponse<String> r = send(admin, get("/upload").POST(HttpRequest.BodyPublishers.ofByteArray(big)).build());
        assertEquals(413, r.statusCode());
        assertEquals("RequestEntityTooLarge", Json.MAPPER.readTree(r.body()).path("reason").asText());
    }

    @Test
    @DisplayName("HTTP/2 clients get their 413 every time: the stream is not reset before they have taken the answer in")
    void tooLargeAnsweredBeforeReset() throws Exception {
        byte[] big = new byte[3 * 1024 * 1024 + 1];
        for (int i = 0; i < 25; i++) {
            HttpResponse<String> r = send(admin, get("/upload").POST(HttpRequest.BodyPublishers.ofByteArray(big)).build());
            assertEquals(HttpClient.Version.HTTP_2, r.version());
            assertEquals(413, r.statusCode(), "attempt " + i);
        }
    }

    @Test
    @DisplayName("a streamed body over 3 MiB without Content-Length is refused with 413")
    void tooLargeStreamed() throws Exception {
        byte[] big = new byte[4 * 1024 * 1024];
        HttpResponse<String> r = send(admin, get("/upload")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))).build());
        assertEquals(413, r.statusCode());
        assertEquals("Request entity too large: limit is 3145728",
                Json.MAPPER.readTree(r.body()).path("message").asText());
    }

    @Test
    @DisplayName("a body of exactly 3 MiB is accepted")
    void limitIsInclusive() throws Exception {
        byte[] body = new byte[3 * 1024 * 1024];
        HttpResponse<String> r = send(admin, get("/upload").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
        assertEquals("read 3145728", r.body());
    }

    @Test
    @DisplayName("a streamed response reaches the client at each flush")
    void streamFlushes() throws Exception {
        HttpResponse<java.io.InputStream> r = admin.send(get("/stream").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            assertEquals("first", lines.readLine());
            secondChunk.countDown();
            assertEquals("second", lines.readLine());
            assertEquals(null, lines.readLine());
        }
    }

    @Test
    @DisplayName("readyz?verbose lists ping, log, the post-start hooks and shutdown once hooks ran")
    void readyzVerbose() throws Exception {
        HttpResponse<String> r = null;
        for (int i = 0; i < 100; i++) {
            r = send(anonymous, get("/readyz?verbose").build());
            if (r.statusCode() == 200) {
                break;
            }
            assertTrue(r.body().contains("[-]poststarthook/flaky failed: reason withheld\n"), r.body());
            Thread.sleep(50);
        }
        assertEquals(200, r.statusCode());
        assertEquals("[+]ping ok\n[+]log ok\n[+]poststarthook/flaky ok\n[+]shutdown ok\nreadyz check passed\n",
                r.body());
        assertTrue(hookAttempts.get() >= 2);
        assertEquals("text/plain; charset=utf-8", r.headers().firstValue("content-type").orElseThrow());
    }

    @Test
    @DisplayName("HTTP/1.1 clients are served too")
    void http11() throws Exception {
        HttpResponse<String> r = send(admin, get("/whoami").version(HttpClient.Version.HTTP_1_1).build());
        assertEquals(HttpClient.Version.HTTP_1_1, r.version());
        assertEquals(200, r.statusCode());
    }

    @Test
    @DisplayName("during the shutdown delay readyz fails on 'shutdown' while livez stays ok")
    void shutdownDelay() throws Exception {
        KapiServer other = KapiServer.start(ServerConfig.of("127.0.0.1", 0, pki.tls())
                .withShutdownDelay(Duration.ofSeconds(2)), r -> null, List.of(), List.of());
        Thread stopping = Thread.ofVirtual().start(other::shutdown);
        URI base = URI.create("https://127.0.0.1:" + other.port());
        HttpResponse<String> ready = null;
        for (int i = 0; i < 40; i++) {
            ready = send(anonymous, HttpRequest.newBuilder(base.resolve("/readyz?verbose")).build());
            if (ready.statusCode() == 500) {
                break;
            }
            Thread.sleep(25);
        }
        assertEquals(500, ready.statusCode());
        assertTrue(ready.body().endsWith("[-]shutdown failed: reason withheld\nreadyz check failed\n"), ready.body());
        assertEquals(200, send(anonymous, HttpRequest.newBuilder(base.resolve("/livez")).build()).statusCode());
        stopping.join();
        assertThrows(IOException.class, () -> send(anonymous, HttpRequest.newBuilder(base.resolve("/livez")).build()));
    }

    @Test
    @DisplayName("a connection opened before the listener closed is still served: its request gets an answer with Connection: close")
    void connectionOpenedBeforeListenerClosed() throws Exception {
        KapiServer other = KapiServer.start(ServerConfig.of("127.0.0.1", 0, pki.tls()), r -> null, List.of(), List.of());
        int port = other.port();
        java.net.Socket tcp = new java.net.Socket("127.0.0.1", port);
        // accepted by the server, not yet a byte sent: what a client is when its handshake is slow
        Await.atMost(Duration.ofSeconds(10)).every(Duration.ofMillis(5)).until("the connection accepted",
                () -> other.openConnections() == 1);
        Thread stopping = Thread.ofVirtual().start(other::shutdown);
        long t0 = System.nanoTime();
        while (listening(port)) {
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10), "the listener closes");
            Thread.sleep(20);
        }
        Thread.sleep(300);
        try (javax.net.ssl.SSLSocket tls = (javax.net.ssl.SSLSocket) TestClients.tls(pki, false).getSocketFactory()
                .createSocket(tcp, "127.0.0.1", port, true)) {
            javax.net.ssl.SSLParameters params = tls.getSSLParameters();
            params.setApplicationProtocols(new String[] {"http/1.1"});
            tls.setSSLParameters(params);
            tls.setSoTimeout(10_000);
            tls.startHandshake();
            tls.getOutputStream().write("GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            tls.getOutputStream().flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(tls.getInputStream(), StandardCharsets.US_ASCII));
            assertEquals("HTTP/1.1 200 OK", in.readLine());
            List<String> headers = new java.util.ArrayList<>();
            for (String h = in.readLine(); h != null && !h.isEmpty(); h = in.readLine()) {
                headers.add(h.toLowerCase(java.util.Locale.ROOT));
            }
            assertTrue(headers.contains("connection: close"), headers.toString());
        }
        stopping.join(Duration.ofSeconds(20));
        assertTrue(!stopping.isAlive(), "shutdown returns");
    }

    private static boolean listening(int port) {
        try (java.net.Socket probe = new java.net.Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    @DisplayName("a streamed response over WebSocket: one message per frame; the client closing stops the writer")
    void webSocketStream() throws Exception {
        java.util.concurrent.BlockingQueue<String> messages = new java.util.concurrent.LinkedBlockingQueue<>();
        java.net.http.WebSocket ws = admin.newWebSocketBuilder().subprotocols("base64.channel.k8s.io", "channel.k8s.io")
                .buildAsync(URI.create("wss://127.0.0.1:" + server.port() + "/until-closed"),
                        new java.net.http.WebSocket.Listener() {
                            @Override
                            public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket w,
                                                                                  CharSequence data, boolean last) {
                                messages.add(data.toString());
                                w.request(1);
                                return null;
                            }
                        }).get(20, TimeUnit.SECONDS);
        assertEquals("base64.channel.k8s.io", ws.getSubprotocol(), "the first offered subprotocol");
        assertEquals("{\"n\":1}\n", messages.poll(20, TimeUnit.SECONDS));
        ws.sendClose(java.net.http.WebSocket.NORMAL_CLOSURE, "bye").get(20, TimeUnit.SECONDS);
        assertTrue(streamInterrupted.await(20, TimeUnit.SECONDS), "the stream's writer was stopped");
    }

    @Test
    @DisplayName("over HTTP/1.1 a flushed chunk ends with its CRLF at once, not in front of the next chunk")
    void wholeChunks() throws Exception {
        javax.net.ssl.SSLSocketFactory tls = TestClients.tls(pki, true).getSocketFactory();
        try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) tls.createSocket("127.0.0.1", server.port())) {
            socket.setSoTimeout(15_000);
            socket.getOutputStream().write(("GET /two-frames HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            java.io.InputStream in = socket.getInputStream();
            String head = readUntil(in, "\r\n\r\n");
            assertTrue(head.startsWith("HTTP/1.1 200") && head.toLowerCase(java.util.Locale.ROOT)
                    .contains("transfer-encoding: chunked"), head);
            // urllib3 reads size, data and CRLF before it hands a chunk on: all three must come now
            assertEquals("8\r\n{\"n\":1}\n\r\n", readUntil(in, "}\n\r\n"));
            secondFrame.countDown();
            assertEquals("8\r\n{\"n\":2}\n\r\n", readUntil(in, "}\n\r\n"));
            assertEquals("0\r\n\r\n", readUntil(in, "0\r\n\r\n"));
            socket.getOutputStream().write(("GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            assertTrue(readUntil(in, "\r\n\r\n").startsWith("HTTP/1.1 200"), "the connection is still good");
        }
    }

    /** What the server answers {@code request}, sent raw over TLS: the status line and headers. */
    private static String rawHead(String request) throws Exception {
        javax.net.ssl.SSLSocketFactory tls = TestClients.tls(pki, true).getSocketFactory();
        try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) tls.createSocket("127.0.0.1", server.port())) {
            socket.setSoTimeout(15_000);
            socket.startHandshake();
            // written beside the read: a server that refuses a request before it has all of it (431) answers
            // and closes while the client may still be writing, which then fails with a broken pipe
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
                } catch (IOException ignored) {
                    // the answer, read below, tells what happened
                }
            });
            try {
                return readUntil(socket.getInputStream(), "\r\n\r\n");
            } finally {
                writer.join();
            }
        }
    }

    @Test
    @DisplayName("an HTTP/0.9 request line, or one of another major version, is 400 as Go's server answers it, not 505")
    void http09() throws Exception {
        for (String line : List.of("GET /livez\r\n\r\n", "GET /livez HTTP/0.9\r\n\r\n", "GET /livez HTTP/2.0\r\n\r\n",
                "GET /livez HTTP/3.0\r\nHost: x\r\n\r\n")) {
            String head = rawHead(line);
            assertTrue(head.startsWith("HTTP/1.1 400 "), line.strip() + " -> " + head);
        }
    }

    @Test
    @DisplayName("a WebSocket upgrade offering a 30,000-character subprotocol is switched and the subprotocol echoed, as Go's")
    void longWebSocketProtocol() throws Exception {
        String protocol = "v4." + "a".repeat(30_000);
        String head = rawHead("GET /one-frame HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Protocol: " + protocol + "\r\n\r\n");
        assertTrue(head.startsWith("HTTP/1.1 101 "), head.substring(0, Math.min(head.length(), 300)));
        assertTrue(head.toLowerCase(java.util.Locale.ROOT).contains("sec-websocket-protocol: " + protocol + "\r\n"), head.substring(0, Math.min(head.length(), 300)));
    }

    @Test
    @DisplayName("request headers up to Go's 1 MiB are read; more is 431 Request Header Fields Too Large")
    void headerLimit() throws Exception {
        String big = "x".repeat(900 * 1024);
        assertTrue(rawHead("GET /livez HTTP/1.1\r\nHost: x\r\nX-Big: " + big + "\r\n\r\n").startsWith("HTTP/1.1 200 "));
        String head = rawHead("GET /livez HTTP/1.1\r\nHost: x\r\nX-Big: " + big + big + "\r\n\r\n");
        assertTrue(head.startsWith("HTTP/1.1 431 "), head);
    }

    /** Reads until the text read ends with {@code end}; fails at end of stream or after the socket timeout. */
    private static String readUntil(java.io.InputStream in, String end) throws IOException {
        StringBuilder text = new StringBuilder();
        while (!text.toString().endsWith(end)) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("end of stream after " + text);
            }
            text.append((char) b);
        }
        return text.toString();
    }

    @Test
    @DisplayName("a quiet streamed response outlives the idle timeout")
    void quietStream() throws Exception {
        RestHandler slow = r -> new RestResponse(200, new java.util.ArrayList<>(), new RestResponse.Stream("text/plain",
                out -> {
                    out.frame("one\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    try {
                        Thread.sleep(3000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    out.frame("two\n".getBytes(StandardCharsets.UTF_8));
                }));
        try (KapiServer other = KapiServer.start(ServerConfig.of("127.0.0.1", 0, pki.tls())
                .withIdleTimeout(Duration.ofMillis(1000)), slow, List.of(), List.of())) {
            for (HttpClient.Version version : HttpClient.Version.values()) {
                HttpResponse<String> r = send(admin, HttpRequest.newBuilder(
                        URI.create("https://127.0.0.1:" + other.port() + "/watch")).version(version).build());
                assertEquals("one\ntwo\n", r.body(), version.toString());
            }
        }
    }

    @Test
    @DisplayName("starting on a port in use fails at once with a clear error")
    void portInUse() {
        IOException e = assertThrows(IOException.class, () -> KapiServer.start(
                ServerConfig.of("127.0.0.1", server.port(), pki.tls()), r -> null, List.of(), List.of()));
        assertTrue(e.getMessage().contains("cannot listen on 127.0.0.1:" + server.port()), e.getMessage());
    }
}
