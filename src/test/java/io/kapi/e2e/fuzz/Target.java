package io.kapi.e2e.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.e2e.Kubeconfig;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.net.ssl.SSLSocket;

/**
 * The server a {@link Family} attacks: requests as the admin (the kubeconfig's client certificate) or with a
 * bearer token of the family's choosing (no client certificate), each answered or judged a hang after
 * {@code hangSeconds}.
 */
final class Target {

    private final Kubeconfig kubeconfig;
    private final int hangSeconds;
    private final HttpClient admin;
    private final HttpClient bearer;

    Target(Kubeconfig kubeconfig, int hangSeconds) {
        this.kubeconfig = kubeconfig;
        this.hangSeconds = hangSeconds;
        this.admin = HttpClient.newBuilder().sslContext(kubeconfig.sslContext())
                .connectTimeout(Duration.ofSeconds(hangSeconds)).build();
        this.bearer = HttpClient.newBuilder().sslContext(kubeconfig.anonymousSslContext())
                .connectTimeout(Duration.ofSeconds(hangSeconds)).build();
    }

    /** An answer: its status ({@code hang} when none came in time, {@code unsendable} when the client refused). */
    record Answer(String outcome, byte[] body, long millis) {
        Answer(String outcome, byte[] body) {
            this(outcome, body, 0);
        }

        Answer timed(long t0) {
            return new Answer(outcome, body, (System.nanoTime() - t0) / 1_000_000);
        }

        int status() {
            return outcome.matches("\\d{3}") ? Integer.parseInt(outcome) : -1;
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        JsonNode json() {
            try {
                return Json.MAPPER.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException("not JSON: " + text(), e);
            }
        }
    }

    /** As the admin, JSON in and out. */
    Answer admin(String method, String path, String json) throws InterruptedException {
        return send(admin, method, path, Map.of("Content-Type", "application/json"),
                json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8));
    }

    /** As the admin, with the given headers. */
    Answer admin(String method, String path, Map<String, String> headers, byte[] body) throws InterruptedException {
        return send(admin, method, path, headers, body);
    }

    /** With {@code Authorization: Bearer token} (or no credential at all when {@code token} is null). */
    Answer as(String token, String method, String path, Map<String, String> headers, String body)
            throws InterruptedException {
        Map<String, String> all = new LinkedHashMap<>(headers);
        if (token != null) {
            all.put("Authorization", "Bearer " + token);
        }
        if (body != null) {
            all.putIfAbsent("Content-Type", "application/json");
        }
        return send(bearer, method, path, all, body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8));
    }

    private Answer send(HttpClient client, String method, String path, Map<String, String> headers, byte[] body)
            throws InterruptedException {
        long t0 = System.nanoTime();
        return exchange(client, method, path, headers, body).timed(t0);
    }

    private Answer exchange(HttpClient client, String method, String path, Map<String, String> headers, byte[] body)
            throws InterruptedException {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(kubeconfig.server().resolve(path))
                    .timeout(Duration.ofSeconds(hangSeconds))
                    .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            headers.forEach(b::header);
            HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(String.valueOf(r.statusCode()), r.body());
        } catch (HttpTimeoutException e) {
            return new Answer("hang", new byte[0]);
        } catch (IOException e) {
            return new Answer("transport", e.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return new Answer("unsendable", new byte[0]); // a header value the HTTP client will not send
        }
    }

    /**
     * As the admin, a GET answered when its headers come (a watch streams on): the status, and for a 504 the
     * start of its body, which tells its cause.
     */
    Answer headers(String path, String accept) throws InterruptedException {
        long t0 = System.nanoTime();
        return head(path, accept).timed(t0);
    }

    private Answer head(String path, String accept) throws InterruptedException {
        try {
            HttpRequest request = HttpRequest.newBuilder(kubeconfig.server().resolve(path))
                    .timeout(Duration.ofSeconds(hangSeconds)).header("Accept", accept).GET().build();
            HttpResponse<InputStream> r = admin.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = r.body()) {
                return new Answer(String.valueOf(r.statusCode()),
                        r.statusCode() >= 400 ? in.readNBytes(4096) : new byte[0]);
            }
        } catch (HttpTimeoutException e) {
            return new Answer("hang", new byte[0]);
        } catch (IOException e) {
            return new Answer("transport", e.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return new Answer("unsendable", new byte[0]);
        }
    }

    /**
     * HTTP/1.1 on a raw TLS socket, as the admin: the request line and headers as given (for what the HTTP
     * client will not send, such as {@code Upgrade}); the answer's status line's code, then the socket is closed.
     */
    Answer raw(String method, String path, Map<String, String> headers) throws IOException {
        long t0 = System.nanoTime();
        return rawExchange(method, path, headers).timed(t0);
    }

    private Answer rawExchange(String method, String path, Map<String, String> headers) throws IOException {
        SSLSocket s = (SSLSocket) kubeconfig.sslContext().getSocketFactory()
                .createSocket(kubeconfig.server().getHost(), kubeconfig.server().getPort());
        try {
            s.setSoTimeout(hangSeconds * 1000);
            StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            head.append("\r\n");
            OutputStream out = s.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] status = in.readNBytes(12);
            if (status.length < 12) {
                return new Answer("closed", status);
            }
            String code = new String(status, 9, 3, StandardCharsets.US_ASCII);
            return new Answer(code.matches("\\d{3}") ? code : "not-http", status);
        } catch (java.net.SocketTimeoutException e) {
            return new Answer("hang", new byte[0]);
        } finally {
            closeNow(s);
        }
    }

    /**
     * Closes without waiting: closing a TLS socket first reads what is still coming, until the read timeout, so
     * a watch that streams on held the close for the whole hang limit (30 s), and its answer was counted slow.
     */
    private static void closeNow(SSLSocket s) {
        try {
            s.setSoLinger(true, 0);
            s.setSoTimeout(1);
            s.close();
        } catch (IOException e) {
            // closed either way: what the server still sends is not this request's answer
        }
    }
}
