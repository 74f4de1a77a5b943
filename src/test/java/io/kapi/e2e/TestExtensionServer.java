package io.kapi.e2e;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kapi.certs.Pem;
import io.kapi.certs.TestCertificates;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/**
 * A minimal aggregated API server on 127.0.0.1 (a free port) over HTTPS with a CA of its own, serving
 * {@code wardle.example.com/v1alpha1}: its APIResourceList (flunders, namespaced, short name {@code fl}; the
 * same for any other group-version asked for, so that one server can back several APIServices), a
 * list of one flunder per namespace ({@code GET .../namespaces/<ns>/flunders}), a create that echoes the
 * body with 201, a watch that sends one ADDED event and ends, a flunder named {@code slow} that is not answered
 * for 20 s, and the group-version's OpenAPI v3 and v2 documents. Its certificate names 127.0.0.1,
 * {@code localhost} and {@link #SERVICE_NAME}. Every request's method, path, query and headers are kept.
 */
final class TestExtensionServer implements AutoCloseable {

    static final String GROUP_VERSION = "wardle.example.com/v1alpha1";
    /** The name its certificate carries for a Service {@code wardle} in {@code default}. */
    static final String SERVICE_NAME = "wardle.default.svc";

    private static final String OPENAPI = """
            {"openapi":"3.0.0","info":{"title":"wardle","version":"v1alpha1"},"paths":{
             "/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders/{name}":{"get":{
              "responses":{"200":{"description":"OK","content":{"application/json":{"schema":{
               "$ref":"#/components/schemas/com.example.wardle.v1alpha1.Flunder"}}}}},
              "x-kubernetes-action":"get",
              "x-kubernetes-group-version-kind":{"group":"wardle.example.com","kind":"Flunder","version":"v1alpha1"}}}},
             "components":{"schemas":{
             "com.example.wardle.v1alpha1.Flunder":{"type":"object","description":"A Flunder is a test kind.",
              "properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},
               "spec":{"type":"object","description":"What the flunder wants.",
                "properties":{"reference":{"type":"string","description":"The flunder it refers to."}}}},
              "x-kubernetes-group-version-kind":[{"group":"wardle.example.com","kind":"Flunder","version":"v1alpha1"}]}}}}
            """;

    /**
     * Its OpenAPI v2 document: the flunder paths and kind, a definition named as one of kube's with other
     * content (which the merge must rename), and a path outside its group (which the merge must leave out).
     */
    private static final String SWAGGER = """
            {"swagger":"2.0","info":{"title":"wardle","version":"v1alpha1"},"paths":{
             "/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders/{name}":{"get":{
              "description":"read the specified Flunder","operationId":"readWardleV1alpha1NamespacedFlunder",
              "responses":{"200":{"description":"OK","schema":{"$ref":"#/definitions/com.example.wardle.v1alpha1.Flunder"}}},
              "x-kubernetes-action":"get",
              "x-kubernetes-group-version-kind":{"group":"wardle.example.com","kind":"Flunder","version":"v1alpha1"}}},
             "/apis/other.example.com/v1/things":{"get":{"responses":{"200":{"description":"OK"}}}}},
             "definitions":{
             "com.example.wardle.v1alpha1.Flunder":{"type":"object","description":"A Flunder is a test kind.",
              "properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},
               "metadata":{"$ref":"#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"},
               "spec":{"type":"object","description":"What the flunder wants (v2).",
                "properties":{"reference":{"type":"string","description":"The flunder it refers to."}}}},
              "x-kubernetes-group-version-kind":[{"group":"wardle.example.com","kind":"Flunder","version":"v1alpha1"}]},
             "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta":{"type":"object","description":"wardle's own ObjectMeta",
              "properties":{"name":{"type":"string"}}}}}
            """;

    /** One request as the server saw it. */
    record Seen(String method, String path, String query, Map<String, List<String>> headers, String body) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst()).findFirst().orElse(null);
        }

        List<String> all(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream()).toList();
        }
    }

    private final HttpsServer server;
    private final String caPem;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    TestExtensionServer() throws Exception {
        TestCertificates.Cert ca = TestCertificates.ca("wardle-test-ca");
        TestCertificates.Cert serving = TestCertificates.servingForIp(ca, "127.0.0.1", "localhost", SERVICE_NAME);
        caPem = Pem.encode(ca.certificate());
        SSLContext tls = TestCertificates.serverTls(serving, ca);
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** The CA's certificate, base64 of PEM, as an APIService's caBundle. */
    String caBundle() {
        return Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.US_ASCII));
    }

    /** The requests for {@code path} seen so far, in order. */
    List<Seen> seen(String path) {
        return seen.stream().filter(s -> s.path().equals(path)).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String query = exchange.getRequestURI().getRawQuery();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.add(new Seen(exchange.getRequestMethod(), path, query, Map.copyOf(exchange.getRequestHeaders()), body));
            String base = "/apis/" + GROUP_VERSION;
            if (path.matches(base + "/namespaces/[^/]+/flunders/slow")) {
                sleep(); // a backend that never answers in time
            } else if (path.equals("/openapi/v3/apis/" + GROUP_VERSION)) {
                send(exchange, 200, OPENAPI);
            } else if (path.equals("/openapi/v2")) {
                send(exchange, 200, SWAGGER);
            } else if (path.matches("/apis/[^/]+/[^/]+")) {
                send(exchange, 200, resourceList(path.substring("/apis/".length())));
            } else if (path.matches(base + "/namespaces/[^/]+/flunders") && exchange.getRequestMethod().equals("POST")) {
                send(exchange, 201, body);
            } else if (path.matches(base + "/namespaces/[^/]+/flunders") && query != null && query.contains("watch=true")) {
                watch(exchange, path.split("/")[5]);
            } else if (path.matches(base + "/namespaces/[^/]+/flunders")) {
                send(exchange, 200, "{\"kind\":\"FlunderList\",\"apiVersion\":\"" + GROUP_VERSION + "\",\"metadata\":"
                        + "{\"resourceVersion\":\"7\"},\"items\":[" + flunder(path.split("/")[5]) + "]}");
            } else {
                send(exchange, 404, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"NotFound\","
                        + "\"code\":404,\"message\":\"the server could not find the requested resource\"}");
            }
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(20_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String resourceList(String groupVersion) {
        return "{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":\"" + groupVersion + "\","
                + "\"resources\":[{\"name\":\"flunders\",\"singularName\":\"flunder\",\"namespaced\":true,"
                + "\"kind\":\"Flunder\",\"verbs\":[\"create\",\"get\",\"list\",\"watch\"],\"shortNames\":[\"fl\"]},"
                + "{\"name\":\"flunders/status\",\"singularName\":\"\",\"namespaced\":true,\"kind\":\"Flunder\","
                + "\"verbs\":[\"get\",\"update\"]}]}";
    }

    private static String flunder(String namespace) {
        return "{\"apiVersion\":\"" + GROUP_VERSION + "\",\"kind\":\"Flunder\",\"metadata\":{\"name\":\"first\","
                + "\"namespace\":\"" + namespace + "\",\"resourceVersion\":\"7\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"}}";
    }

    private static void watch(HttpExchange exchange, String namespace) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        out.write(("{\"type\":\"ADDED\",\"object\":" + flunder(namespace) + "}\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
