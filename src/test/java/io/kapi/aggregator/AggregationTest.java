package io.kapi.aggregator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kapi.assembly.ApiConfig;
import io.kapi.harness.ApiHarness;
import io.kapi.certs.TestCertificates;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The aggregation layer in memory (endpoint routing) against a real HTTPS backend that serves three
 * group-versions: {@code healthy.example.com/v1} answers at once, {@code trickle.example.com/v1} sends its
 * discovery headers at once and its body a space every 100 ms, {@code hang.example.com/v1} sends nothing for
 * 20 s ({@code timely.example.com/v1} is served as the healthy one). A slow backend holds one availability check, never the others, and a request its backend does not
 * answer by the deadline gets kube's 504.
 */
class AggregationTest {

    private static final String HEALTHY_LIST = "{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":"
            + "\"healthy.example.com/v1\",\"resources\":[{\"name\":\"things\",\"singularName\":\"thing\",\"namespaced\":"
            + "true,\"kind\":\"Thing\",\"verbs\":[\"get\",\"list\"]}]}";

    private static HttpsServer backend;
    private static ApiHarness api;

    @BeforeAll
    static void start() throws Exception {
        TestCertificates.Cert ca = TestCertificates.ca("aggregation-test-ca");
        backend = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        backend.setHttpsConfigurator(new HttpsConfigurator(TestCertificates.serverTls(
                TestCertificates.servingForIp(ca, "127.0.0.1"), ca)));
        backend.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        backend.createContext("/", AggregationTest::serve);
        backend.start();
        api = new ApiHarness(ApiConfig.builder().dataDir(Path.of("target/unused"))
                .aggregator(new AggregatorConfig(null, null, true)).build());
        int port = backend.getAddress().getPort();
        created(api.post("/api/v1/namespaces/default/services", "{\"metadata\":{\"name\":\"backend\"},\"spec\":{"
                + "\"ports\":[{\"name\":\"https\",\"port\":" + port + "}]}}"));
        created(api.post("/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", "{\"metadata\":{\"name\":"
                + "\"backend-1\",\"labels\":{\"kubernetes.io/service-name\":\"backend\"}},\"addressType\":\"IPv4\","
                + "\"ports\":[{\"name\":\"https\",\"port\":" + port + ",\"protocol\":\"TCP\"}],\"endpoints\":[{"
                + "\"addresses\":[\"127.0.0.1\"],\"conditions\":{\"ready\":true}}]}"));
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
        backend.stop(0);
    }

    private static void created(ApiHarness.Reply r) {
        assertEquals(201, r.code(), r.text());
    }

    private static void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            // timely.example.com/v1 is served as healthy.example.com/v1 is, for a test of its own
            String path = exchange.getRequestURI().getPath().replace("/timely.example.com/", "/healthy.example.com/");
            switch (path.endsWith("/timely.example.com/v1") ? "/apis/healthy.example.com/v1" : path) {
                case "/apis/healthy.example.com/v1" -> send(exchange, 200, HEALTHY_LIST);
                case "/apis/healthy.example.com/v1/namespaces/default/things" -> send(exchange, 200,
                        "{\"kind\":\"ThingList\",\"apiVersion\":\"healthy.example.com/v1\",\"items\":[]}");
                case "/apis/trickle.example.com/v1" -> trickle(exchange);
                case "/apis/hang.example.com/v1", "/apis/healthy.example.com/v1/namespaces/default/hanging" -> pause();
                default -> send(exchange, 404, "{}");
            }
        }
    }

    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    private static void trickle(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        for (int i = 0; i < 200; i++) {
            out.write(' ');
            out.flush();
            pause(100);
        }
    }

    private static void pause() {
        pause(20_000);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String apiService(String group) {
        return "{\"metadata\":{\"name\":\"v1." + group + "\"},\"spec\":{\"group\":\"" + group + "\",\"version\":\"v1\","
                + "\"groupPriorityMinimum\":1000,\"versionPriority\":15,\"insecureSkipTLSVerify\":true,"
                + "\"service\":{\"namespace\":\"default\",\"name\":\"backend\",\"port\":" + backend.getAddress().getPort()
                + "}}}";
    }

    private static <T> T until(Supplier<T> probe, Predicate<T> done, Duration within) throws InterruptedException {
        Instant end = Instant.now().plus(within);
        while (true) {
            T value = probe.get();
            if (done.test(value) || Instant.now().isAfter(end)) {
                return value;
            }
            Thread.sleep(50);
        }
    }

    /** The APIService's Available condition once its status is {@code status} (or the last one seen). */
    private static JsonNode available(String group, String status, Duration within) throws InterruptedException {
        return until(() -> {
            for (JsonNode c : api.get("/apis/apiregistration.k8s.io/v1/apiservices/v1." + group).body()
                    .path("status").path("conditions")) {
                if (c.path("type").asText().equals("Available")) {
                    return c;
                }
            }
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }, c -> c.path("status").asText().equals(status), within);
    }

    @Test
    @DisplayName("a backend that trickles or withholds its discovery answer holds one check, not the others'")
    void slowBackendsHoldOneCheck() throws Exception {
        Instant start = Instant.now();
        created(api.post("/apis/apiregistration.k8s.io/v1/apiservices", apiService("trickle.example.com")));
        created(api.post("/apis/apiregistration.k8s.io/v1/apiservices", apiService("hang.example.com")));
        created(api.post("/apis/apiregistration.k8s.io/v1/apiservices", apiService("healthy.example.com")));
        created(api.post("/apis/apiregistration.k8s.io/v1/apiservices", apiService("nosvc.example.com")
                .replace("\"name\":\"backend\"", "\"name\":\"absent\"")));

        ApiHarness.Reply unavailable = until(() -> api.get("/apis/nosvc.example.com/v1/namespaces/default/things"),
                r -> r.code() != 404, Duration.ofSeconds(3));
        assertEquals(503, unavailable.code(), unavailable.text());
        assertEquals("service unavailable\n", unavailable.text());

        JsonNode healthy = available("healthy.example.com", "True", Duration.ofSeconds(4));
        assertEquals("Passed", healthy.path("reason").asText(), healthy.toString());
        assertTrue(Duration.between(start, Instant.now()).compareTo(Duration.ofSeconds(4)) < 0,
                "the healthy APIService waited for the slow ones");
        assertEquals(200, api.get("/apis/healthy.example.com/v1/namespaces/default/things").code());
        assertTrue(until(() -> api.get("/apis/healthy.example.com/v1").text(), t -> t.contains("\"things\""),
                Duration.ofSeconds(3)).contains("\"things\""));

        JsonNode trickle = available("trickle.example.com", "True", Duration.ofSeconds(10));
        assertEquals("Passed", trickle.path("reason").asText(), trickle + " (kube looks at the status alone)");
        JsonNode hang = available("hang.example.com", "False", Duration.ofSeconds(10));
        assertEquals("FailedDiscoveryCheck", hang.path("reason").asText(), hang.toString());
        String url = "https://127.0.0.1:" + backend.getAddress().getPort() + "/apis/hang.example.com/v1";
        assertEquals("failing or missing response from " + url + ": Get \"" + url + "\": context deadline exceeded "
                + "(Client.Timeout exceeded while awaiting headers)", hang.path("message").asText());
    }

    @Test
    @DisplayName("a request its backend does not answer by the request's deadline gets kube's timeout filter's 504")
    void hangingBackendTimesOut() throws Exception {
        created(api.post("/apis/apiregistration.k8s.io/v1/apiservices", apiService("timely.example.com")));
        assertEquals("True", available("timely.example.com", "True", Duration.ofSeconds(10)).path("status").asText());
        until(() -> api.get("/apis/timely.example.com/v1/namespaces/default/things"), r -> r.code() == 200,
                Duration.ofSeconds(3));

        Instant start = Instant.now();
        ApiHarness.Reply r = api.get("/apis/timely.example.com/v1/namespaces/default/hanging?timeout=1s");
        Duration took = Duration.between(start, Instant.now());
        assertEquals(504, r.code(), r.text());
        assertEquals("{\"metadata\":{},\"status\":\"Failure\",\"message\":\"Timeout: request did not complete within "
                + "the allotted timeout\",\"reason\":\"Timeout\",\"details\":{},\"code\":504}\n", r.text());
        assertEquals("text/plain; charset=utf-8", r.header("content-type").getFirst());
        assertTrue(took.compareTo(Duration.ofSeconds(3)) < 0, "answered after " + took);
    }
}
