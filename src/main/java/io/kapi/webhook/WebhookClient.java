package io.kapi.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.machinery.Json;
import java.io.IOException;
import io.kapi.tracing.TraceScope;
import io.kapi.tracing.Tracing;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Posts a JSON review to a webhook over HTTPS, as kube-apiserver's webhook client: a URL, or a Service
 * resolved to a ready endpoint; the server's certificate checked against the endpoint's caBundle for
 * the host asked for ({@code <name>.<namespace>.svc} for a Service); {@code ?timeout=<n>s} added to the
 * URL, and the whole exchange (the answer's body too) held to that timeout, as kube's request context holds
 * it; no redirects. HTTP clients are kept per CA bundle and server name. Failures are
 * {@link CallFailure}s in Go's words.
 */
public final class WebhookClient {

    /**
     * The call did not produce a JSON answer.
     *
     * @see #answered()
     */
    public static final class CallFailure extends Exception {

        private final boolean answered;

        CallFailure(String message, boolean answered) {
            super(message, null, false, false);
            this.answered = answered;
        }

        /** Whether the webhook answered (with an error status or a body that is not JSON), or was not reached. */
        public boolean answered() {
            return answered;
        }
    }

    private record ClientKey(String ca, String serverName) {
    }

    private final ServiceResolver services;
    private final Map<ClientKey, HttpClient> clients = new ConcurrentHashMap<>();

    /** @param lookup where Services and their endpoints are read */
    public WebhookClient(ObjectLookup lookup) {
        this.services = new ServiceResolver(lookup);
    }

    /**
     * Posts {@code review} and returns the answer's JSON.
     *
     * @throws CallFailure not reached ({@code Post "<url>": dial tcp ...: connect: connection refused}, a
     *         TLS failure, a Service without endpoints), past the timeout ({@code Post "<url>": context deadline
     *         exceeded} before the headers, {@code unexpected error when reading response body. Please retry.
     *         Original error: context deadline exceeded} after them), or answered with a non-2xx status
     *         ({@code an error on the server ("...") has prevented the request from succeeding}) or not JSON
     */
    public JsonNode post(WebhookEndpoint e, ObjectNode review, Duration timeout) throws CallFailure {
        URI uri;
        String serverName;
        try {
            if (e.url() != null) {
                uri = URI.create(e.url());
                serverName = uri.getHost();
            } else {
                uri = services.resolve(e.serviceNamespace(), e.serviceName(), e.port(), e.path());
                serverName = e.serviceName() + "." + e.serviceNamespace() + ".svc";
            }
        } catch (IllegalStateException | IllegalArgumentException ex) {
            throw new CallFailure(ex.getMessage(), false);
        }
        return exchange(client(e.caBundle(), serverName), withTimeout(uri, timeout), null, review, timeout);
    }

    /**
     * The one JSON exchange of every webhook the server calls (admission, conversion, token review,
     * authorization, audit): {@code review} posted to {@code target} with the bearer {@code token} (null for
     * none), the whole exchange held to {@code timeout}, the answer's JSON returned; failures worded as Go's.
     *
     * @throws CallFailure as {@link #post(WebhookEndpoint, ObjectNode, Duration)}
     */
    static JsonNode exchange(HttpClient client, URI target, String token, JsonNode review, Duration timeout)
            throws CallFailure {
        HttpResponse<byte[]> response = send(client, target, token, review, timeout);
        if (response.statusCode() < 200 || response.statusCode() >= 300) {
            throw new CallFailure("an error on the server (\"" + new String(response.body(), StandardCharsets.UTF_8).strip()
                    + "\") has prevented the request from succeeding", true);
        }
        try {
            return Json.MAPPER.readTree(response.body());
        } catch (IOException ex) {
            throw new CallFailure(ex.getMessage(), true);
        }
    }

    /** Sends the review; the webhook's timeout holds the whole exchange, its body included. */
    private static HttpResponse<byte[]> send(HttpClient client, URI target, String token, JsonNode review,
                                             Duration timeout) throws CallFailure {
        try {
            HttpRequest.Builder req = HttpRequest.newBuilder(target)
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(review)));
            if (token != null) {
                req.header("Authorization", "Bearer " + token);
            }
            try (TraceScope span = Tracing.startClient("HTTP POST", "http.method", "POST", "http.url", target.toString())) {
                Tracing.inject(req::header);
                HttpResponse<byte[]> response = BoundedExchange.send(client, req.build(),
                        HttpResponse.BodyHandlers.ofByteArray(), timeout);
                span.attribute("http.status_code", response.statusCode());
                return response;
            }
        } catch (BoundedExchange.DeadlineExceeded ex) {
            throw new CallFailure(ex.answered()
                    ? "unexpected error when reading response body. Please retry. Original error: context deadline exceeded"
                    : "Post \"" + target + "\": context deadline exceeded", false);
        } catch (IOException ex) {
            throw new CallFailure("Post \"" + target + "\": " + CallErrors.describe(ex, target), false);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new CallFailure("Post \"" + target + "\": context canceled", false);
        }
    }

    private HttpClient client(byte[] ca, String serverName) {
        ClientKey key = new ClientKey(Arrays.toString(ca), serverName);
        return clients.computeIfAbsent(key, k -> HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .sslContext(WebhookTrust.context(ca, serverName)).connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER).build());
    }

    /** kube adds the timeout to the URL ({@code ?timeout=10s}) so the webhook knows it. */
    private static URI withTimeout(URI uri, Duration timeout) {
        String query = uri.getRawQuery();
        String t = "timeout=" + Math.max(1, timeout.toSeconds()) + "s";
        String s = uri.toString();
        return URI.create(query == null ? s + "?" + t : s.replace("?" + query, "?" + query + "&" + t));
    }
}
