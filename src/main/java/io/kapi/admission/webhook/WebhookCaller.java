package io.kapi.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Calls one webhook with an AdmissionReview over HTTPS (a URL, or a Service resolved to an endpoint) and
 * returns its {@code response}, checked as kube checks it (apiVersion and kind of the review, the uid).
 * HTTP clients are kept per CA bundle and server name. Failures are {@link CallFailure}s worded as kube's
 * {@code failed to call webhook: ...}.
 */
final class WebhookCaller {

    /** The call did not produce a usable answer. */
    static final class CallFailure extends Exception {
        CallFailure(String message) {
            super(message, null, false, false);
        }
    }

    private record ClientKey(String ca, String serverName) {
    }

    private final ServiceResolver services;
    private final Map<ClientKey, HttpClient> clients = new ConcurrentHashMap<>();

    WebhookCaller(ObjectLookup lookup) {
        this.services = new ServiceResolver(lookup);
    }

    /**
     * @param request the AdmissionRequest (with its uid)
     * @return the AdmissionResponse
     */
    ObjectNode call(Webhook hook, ObjectNode request, Duration timeout) throws CallFailure {
        Webhook.Endpoint e = hook.endpoint();
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
            throw new CallFailure("failed to call webhook: " + ex.getMessage());
        }
        String apiVersion = "admission.k8s.io/" + hook.reviewVersion();
        ObjectNode review = Json.object();
        review.put("apiVersion", apiVersion);
        review.put("kind", "AdmissionReview");
        review.set("request", request);
        URI target = withTimeout(uri, timeout);
        HttpResponse<byte[]> response = post(client(e.caBundle(), serverName), target, review, timeout);
        return check(response, apiVersion, request.path("uid").asText());
    }

    private HttpResponse<byte[]> post(HttpClient client, URI target, ObjectNode review, Duration timeout)
            throws CallFailure {
        try {
            HttpRequest req = HttpRequest.newBuilder(target).timeout(timeout)
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(review))).build();
            return client.send(req, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException ex) {
            throw new CallFailure("failed to call webhook: Post \"" + target
                    + "\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)");
        } catch (IOException ex) {
            throw new CallFailure("failed to call webhook: Post \"" + target + "\": " + describe(ex, target));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new CallFailure("failed to call webhook: Post \"" + target + "\": context canceled");
        }
    }

    private static ObjectNode check(HttpResponse<byte[]> response, String apiVersion, String uid) throws CallFailure {
        if (response.statusCode() < 200 || response.statusCode() >= 300) {
            throw new CallFailure("received invalid webhook response: an error on the server (\""
                    + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8).strip()
                    + "\") has prevented the request from succeeding");
        }
        JsonNode body;
        try {
            body = Json.MAPPER.readTree(response.body());
        } catch (IOException ex) {
            throw new CallFailure("received invalid webhook response: " + ex.getMessage());
        }
        if (!apiVersion.equals(body.path("apiVersion").asText()) || !"AdmissionReview".equals(body.path("kind").asText())) {
            throw new CallFailure("received invalid webhook response: expected webhook response of " + apiVersion
                    + ", Kind=AdmissionReview, got " + body.path("apiVersion").asText() + ", Kind="
                    + body.path("kind").asText());
        }
        if (!(body.get("response") instanceof ObjectNode answer)) {
            throw new CallFailure("received invalid webhook response: webhook response was absent");
        }
        if (apiVersion.endsWith("/v1") && !uid.equals(answer.path("uid").asText())) {
            throw new CallFailure("received invalid webhook response: expected response.uid=\"" + uid + "\", got \""
                    + answer.path("uid").asText() + "\"");
        }
        return answer;
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

    /** Go's words for a failed call: {@code dial tcp <host:port>: connect: connection refused}, TLS failures. */
    private static String describe(IOException ex, URI target) {
        Throwable root = ex;
        boolean connect = ex instanceof java.net.ConnectException;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
            connect |= root instanceof java.net.ConnectException;
        }
        String m = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        if (connect) {
            int port = target.getPort() > 0 ? target.getPort() : 443;
            return "dial tcp " + target.getHost() + ":" + port + ": connect: connection refused";
        }
        if (root instanceof java.security.cert.CertificateException || ex instanceof javax.net.ssl.SSLException) {
            return "tls: failed to verify certificate: " + m;
        }
        return m;
    }
}
