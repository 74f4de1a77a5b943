package io.kapi.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.certs.LocalPki;
import io.kapi.certs.ServingNames;
import io.kapi.endpoint.RestResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slow and greedy clients against a real TLS listener with short limits (2 s header and body timeouts, 8
 * connections per client): slowloris headers, stalled handshakes and trickled bodies are cut off in time,
 * a client past its connection limit is refused, and other clients are served meanwhile. The attackers
 * connect from 127.0.0.2, the well-behaved client from 127.0.0.1.
 */
@DisplayName("slow clients are cut off, others are served")
class SlowClientTest {

    private static final Duration LIMIT = Duration.ofSeconds(2);
    private static final long GRACE_MILLIS = 4_000;

    @TempDir
    static Path dataDir;
    static LocalPki pki;
    static KapiServer server;
    static SSLContext admin;

    @BeforeAll
    static void start() throws Exception {
        pki = LocalPki.ensure(dataDir, ServingNames.standard("test-host", "10.96.0.1", List.of()));
        ServerConfig config = ServerConfig.of("127.0.0.1", 0, pki.tls())
                .withRequestTimeout(LIMIT)
                .withLimits(new ServerConfig.ClientLimits(LIMIT, 8, 250));
        server = KapiServer.start(config, SlowClientTest::echo, List.of(), List.of());
        admin = adminContext();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static RestResponse echo(io.kapi.endpoint.RestRequest request) {
        try {
            byte[] body = request.body().readAllBytes();
            return RestResponse.bytes(200, "text/plain", ("read " + body.length).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static SSLContext adminContext() throws Exception {
        return TestClients.presenting(pki, io.kapi.certs.Pem.privateKey(pki.adminKeyPem()), pki.adminCertificate());
    }

    /** A TLS connection from {@code from}, handshake done (HTTP/1.1: no ALPN). */
    private static SSLSocket tls(String from) throws IOException {
        Socket raw = new Socket();
        raw.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
        raw.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
        SSLSocket s = (SSLSocket) admin.getSocketFactory().createSocket(raw, "127.0.0.1", server.port(), true);
        s.setSoTimeout(30_000);
        s.startHandshake();
        return s;
    }

    /** Whether the server closed {@code s} (read sees EOF or a reset) within {@code millis}. */
    private static boolean closedWithin(Socket s, long millis) {
        try {
            s.setSoTimeout((int) millis);
            InputStream in = s.getInputStream();
            while (in.read() >= 0) {
                // a response to what was sent, then the close
            }
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static HttpResponse<String> probe() throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(admin).version(HttpClient.Version.HTTP_2).build();
        return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/probe"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @DisplayName("headers trickled a line at a time are cut off after the header timeout; others are served")
    void slowloris() throws Exception {
        List<SSLSocket> loris = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            SSLSocket s = tls("127.0.0.2");
            s.getOutputStream().write("GET /x HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            loris.add(s);
        }
        long t0 = System.nanoTime();
        Thread trickle = Thread.ofVirtual().start(() -> {
            for (int k = 0; k < 40; k++) {
                for (SSLSocket s : loris) {
                    try {
                        s.getOutputStream().write(("X-" + k + ": y\r\n").getBytes(StandardCharsets.US_ASCII));
                        s.getOutputStream().flush();
                    } catch (IOException closed) {
                        // the server gave up on it
                    }
                }
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        assertEquals(200, probe().statusCode(), "a well-behaved client is served meanwhile");
        for (SSLSocket s : loris) {
            assertTrue(closedWithin(s, LIMIT.toMillis() + GRACE_MILLIS), "a slowloris connection was left open");
        }
        long took = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(took >= LIMIT.toMillis() - 500, "closed after the timeout, not before: " + took + " ms");
        trickle.interrupt();
    }

    @Test
    @DisplayName("a TLS handshake that never finishes is cut off after the header timeout")
    void stalledHandshake() throws Exception {
        try (Socket raw = new Socket()) {
            raw.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
            raw.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
            OutputStream out = raw.getOutputStream();
            out.write(new byte[] {0x16, 0x03, 0x01}); // the start of a ClientHello record, and no more
            out.flush();
            assertTrue(closedWithin(raw, LIMIT.toMillis() + GRACE_MILLIS));
        }
    }

    @Test
    @DisplayName("a body sent a byte at a time is answered 504 after the body timeout")
    void slowBody() throws Exception {
        try (SSLSocket s = tls("127.0.0.2")) {
            OutputStream out = s.getOutputStream();
            out.write(("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.ofVirtual().start(() -> {
                for (int i = 0; i < 1000; i++) {
                    try {
                        out.write('a');
                        out.flush();
                        Thread.sleep(100);
                    } catch (IOException | InterruptedException e) {
                        return;
                    }
                }
            });
            s.setSoTimeout((int) (LIMIT.toMillis() + GRACE_MILLIS));
            String status = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertEquals("HTTP/1.1 504", status);
        }
    }

    @Test
    @DisplayName("a body that stops arriving is answered 504 at the request timeout")
    void stalledBody() throws Exception {
        try (SSLSocket s = tls("127.0.0.2")) {
            OutputStream out = s.getOutputStream();
            out.write(("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"a\":").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long started = System.nanoTime();
            s.setSoTimeout((int) (LIMIT.toMillis() + GRACE_MILLIS));
            String head = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertEquals("HTTP/1.1 504", head);
            long took = (System.nanoTime() - started) / 1_000_000;
            assertTrue(took >= LIMIT.toMillis() - 500, "answered at the deadline, not before: " + took + " ms");
        }
    }

    @Test
    @DisplayName("a client past its connection limit is refused; another client is not")
    void connectionsPerClient() throws Exception {
        List<SSLSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                held.add(tls("127.0.0.3"));
            }
            boolean refused;
            try (SSLSocket extra = tls("127.0.0.3")) {
                extra.getOutputStream().write("GET /x HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                refused = closedWithin(extra, 5_000);
            } catch (IOException e) {
                refused = true;
            }
            assertTrue(refused, "the ninth connection from one address is closed");
            assertEquals(200, probe().statusCode(), "another address is served");
        } finally {
            for (SSLSocket s : held) {
                s.close();
            }
        }
    }

    @Test
    @DisplayName("closed connections stop counting: a client that opened and closed more than its limit is still served")
    void closedConnectionsAreUncounted() throws Exception {
        for (int i = 0; i < 20; i++) {
            try (SSLSocket s = tls("127.0.0.4")) {
                s.getOutputStream().write("GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                assertTrue(new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)
                        .startsWith("HTTP/1.1 200"), "connection " + i + " served");
            }
        }
    }
}
