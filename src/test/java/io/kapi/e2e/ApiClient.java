package io.kapi.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;

/**
 * A plain {@link HttpClient} (HTTP/2 preferred, real TLS) talking to a Kapi server: the Java client of the
 * end-to-end tests and of the benchmark. Thread-safe.
 */
public final class ApiClient implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final URI server;
    private final HttpClient http;
    private final Map<String, String> headers;

    private ApiClient(URI server, SSLContext ssl, Map<String, String> headers) {
        this.server = server;
        this.headers = headers;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .sslContext(ssl)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** Authenticated with the kubeconfig's client certificate. */
    public static ApiClient of(Kubeconfig kubeconfig) {
        return new ApiClient(kubeconfig.server(), kubeconfig.sslContext(), Map.of());
    }

    /** Authenticated with the kubeconfig's client certificate; {@code headers} (e.g. impersonation) sent on every request. */
    public static ApiClient of(Kubeconfig kubeconfig, Map<String, String> headers) {
        return new ApiClient(kubeconfig.server(), kubeconfig.sslContext(), Map.copyOf(headers));
    }

    /** A GET whose whole response (headers too) is returned; a transport failure is thrown as unchecked. */
    public HttpResponse<String> exchange(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.resolve(path)).timeout(TIMEOUT)
                .header("Accept", "application/json").GET();
        headers.forEach(request::header);
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + path + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * A GET whose body is read to its end and dropped (a load generator's: turning a list of megabytes into a
     * string costs the client more CPU than the server spends on it); the status code is returned, a transport
     * failure is thrown as unchecked.
     */
    public int getDiscarding(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.resolve(path)).timeout(TIMEOUT)
                .header("Accept", "application/json").GET();
        headers.forEach(request::header);
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + path + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Trusting the cluster CA but presenting no client certificate; {@code headers} are sent on every request. */
    public static ApiClient anonymous(Kubeconfig kubeconfig, Map<String, String> headers) {
        return new ApiClient(kubeconfig.server(), kubeconfig.anonymousSslContext(), Map.copyOf(headers));
    }

    public Response get(String path) {
        return send("GET", path, null, null);
    }

    public Response post(String path, String json) {
        return send("POST", path, json, "application/json");
    }

    public Response put(String path, String json) {
        return send("PUT", path, json, "application/json");
    }

    public Response delete(String path) {
        return send("DELETE", path, null, null);
    }

    /** Sends one request; a transport failure (connection refused, reset) is thrown as unchecked. */
    public Response send(String method, String path, String body, String contentType) {
        return send(method, path, body, contentType, "application/json");
    }

    /** {@link #send(String, String, String, String)} with an Accept header of its own. */
    public Response send(String method, String path, String body, String contentType, String accept) {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.resolve(path))
                .timeout(TIMEOUT)
                .header("Accept", accept)
                .method(method, body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body(), response.version(),
                    response.headers().allValues("Warning"));
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * GETs a streaming response (a watch) and hands each line to {@code onLine} until the server ends the
     * stream or the calling thread is interrupted. Transport failures end it quietly.
     */
    public void stream(String path, Consumer<String> onLine) {
        HttpRequest request = HttpRequest.newBuilder(server.resolve(path)).header("Accept", "application/json").GET().build();
        try {
            HttpResponse<Stream<String>> response = http.send(request, HttpResponse.BodyHandlers.ofLines());
            try (Stream<String> lines = response.body()) {
                lines.filter(l -> !l.isBlank()).forEach(onLine);
            }
        } catch (IOException | UncheckedIOException e) {
            // stream ended
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes at once, ending open streams (a watch) instead of waiting for them. */
    public void closeNow() {
        http.shutdownNow();
    }

    @Override
    public void close() {
        http.close();
    }

    /**
     * One answer.
     *
     * @param warnings the values of the {@code Warning} headers
     */
    public record Response(int status, String body, HttpClient.Version version, List<String> warnings) {

        /** The body as JSON; fails the test with the raw body when it is not JSON. */
        public JsonNode json() {
            try {
                return Json.MAPPER.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("response " + status + " is not JSON: " + body, e);
            }
        }

        @Override
        public String toString() {
            return status + " " + (body.length() > 2000 ? body.substring(0, 2000) + "..." : body);
        }
    }
}
