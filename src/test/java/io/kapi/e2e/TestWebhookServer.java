package io.kapi.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kapi.certs.Pem;
import io.kapi.certs.TestCertificates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;

/**
 * An admission webhook server on 127.0.0.1 (a free port) over HTTPS with a CA of its own, answering
 * AdmissionReview v1 by path: {@code /label} adds the label {@code mutated=yes} with a JSONPatch,
 * {@code /deny} refuses with a message naming the object, {@code /warn} allows with a warning and an audit
 * annotation, {@code /slow} answers after 5 seconds, {@code /trickle} sends its headers at once and then its
 * body a space every 100 ms for 20 seconds (until the caller goes away); other paths answer as a test {@linkplain #answer tells
 * them} (a conversion webhook, say). Its certificate names 127.0.0.1 and {@link #SERVICE_NAME}. Every
 * review received is kept.
 */
public final class TestWebhookServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The name its certificate also carries: a Service {@code webhook} in {@code default}. */
    public static final String SERVICE_NAME = "webhook.default.svc";

    private final HttpsServer server;
    private final String caPem;
    private final Map<String, List<JsonNode>> received = new ConcurrentHashMap<>();
    private final Map<String, UnaryOperator<JsonNode>> answers = new ConcurrentHashMap<>();
    private final Map<String, List<String>> traceparents = new ConcurrentHashMap<>();

    public TestWebhookServer() throws Exception {
        TestCertificates.Cert ca = TestCertificates.ca("webhook-test-ca");
        TestCertificates.Cert serving = TestCertificates.servingForIp(ca, "127.0.0.1", SERVICE_NAME);
        caPem = Pem.encode(ca.certificate());
        SSLContext tls = TestCertificates.serverTls(serving, ca);
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    /** {@code https://127.0.0.1:<port><path>}. */
    public String url(String path) {
        return "https://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The CA's certificate, base64 of PEM, as a caBundle. */
    public String caBundle() {
        return Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.US_ASCII));
    }

    /** From now on {@code path} answers each review with what {@code answer} makes of it (the whole body). */
    public void answer(String path, UnaryOperator<JsonNode> answer) {
        answers.put(path, answer);
    }

    /** The reviews {@code path} got, in order. */
    public List<JsonNode> received(String path) {
        return received.getOrDefault(path, List.of());
    }

    /** The {@code traceparent} headers {@code path} got, in order (requests without one left out). */
    public List<String> traceparents(String path) {
        return traceparents.getOrDefault(path, List.of());
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode review = JSON.readTree(exchange.getRequestBody());
            String path = exchange.getRequestURI().getPath();
            String traceparent = exchange.getRequestHeaders().getFirst("traceparent");
            if (traceparent != null) {
                traceparents.computeIfAbsent(path, p -> new CopyOnWriteArrayList<>()).add(traceparent);
            }
            received.computeIfAbsent(path, p -> new CopyOnWriteArrayList<>()).add(review);
            UnaryOperator<JsonNode> custom = answers.get(path);
            if (path.equals("/trickle")) {
                trickle(exchange);
                return;
            }
            if (custom != null) {
                send(exchange, custom.apply(review));
                return;
            }
            JsonNode request = review.path("request");
            ObjectNode response = JSON.createObjectNode();
            response.put("uid", request.path("uid").asText());
            response.put("allowed", true);
            switch (path) {
                case "/label" -> label(request, response);
                case "/deny" -> {
                    response.put("allowed", false);
                    response.putObject("status").put("code", 403).put("message",
                            "objects named " + request.path("name").asText() + " are not welcome");
                }
                case "/warn" -> {
                    response.putArray("warnings").add("the webhook looked at " + request.path("name").asText());
                    response.putObject("auditAnnotations").put("seen", "yes");
                }
                case "/slow" -> sleep();
                default -> { }
            }
            ObjectNode answer = JSON.createObjectNode();
            answer.put("apiVersion", review.path("apiVersion").asText("admission.k8s.io/v1"));
            answer.put("kind", "AdmissionReview");
            answer.set("response", response);
            send(exchange, answer);
        }
    }

    private static void send(HttpExchange exchange, JsonNode answer) throws IOException {
        byte[] body = JSON.writeValueAsBytes(answer);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
    }

    /** Headers now, then a body that takes 20 s to come (JSON whitespace); ends early when the caller leaves. */
    private static void trickle(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        var out = exchange.getResponseBody();
        try {
            for (int i = 0; i < 200; i++) {
                out.write(' ');
                out.flush();
                Thread.sleep(100);
            }
            out.write("{}".getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // the caller gave up: what the trickle is for
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void label(JsonNode request, ObjectNode response) {
        ArrayNode patch = JSON.createArrayNode();
        if (request.path("object").path("metadata").has("labels")) {
            patch.addObject().put("op", "add").put("path", "/metadata/labels/mutated").put("value", "yes");
        } else {
            patch.addObject().put("op", "add").put("path", "/metadata/labels").putObject("value").put("mutated", "yes");
        }
        response.put("patchType", "JSONPatch");
        response.put("patch", Base64.getEncoder().encodeToString(patch.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private static void sleep() {
        try {
            Thread.sleep(5_000); // the slow webhook: longer than the 1s timeout the test gives it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
