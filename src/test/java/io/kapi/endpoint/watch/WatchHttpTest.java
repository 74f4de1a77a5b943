package io.kapi.endpoint.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.assembly.ApiAssembly;
import io.kapi.assembly.ApiConfig;
import io.kapi.certs.LocalPki;
import io.kapi.certs.Pem;
import io.kapi.certs.ServingNames;
import io.kapi.certs.TlsMaterial;
import io.kapi.fixtures.Await;
import io.kapi.machinery.Json;
import io.kapi.server.KapiServer;
import io.kapi.server.ServerConfig;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("watch over HTTPS: HTTP/2, HTTP/1.1 and WebSocket")
class WatchHttpTest {

    @TempDir
    static Path dir;
    static ApiAssembly api;
    static KapiServer server;
    static HttpClient client;
    static SSLContext tls;
    static X509TrustManager trust;
    static int counter;

    @BeforeAll
    static void start() throws Exception {
        LocalPki pki = LocalPki.ensure(dir, ServingNames.standard("test-host", "10.96.0.1", List.of()));
        api = ApiAssembly.create(ApiConfig.builder().dataDir(dir).securePort(0).standalone(true).build());
        server = KapiServer.start(ServerConfig.of("127.0.0.1", 0, pki.tls()), api.handler(), api.checks(), api.hooks());
        client = adminClient(pki);
        // the standalone controllers write kube-root-ca.crt into default: wait for it, so that the
        // configmap events the tests watch for are their own
        Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(50)).until("kube-root-ca.crt in default",
                () -> get("/api/v1/namespaces/default/configmaps/kube-root-ca.crt").statusCode() == 200);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        api.close();
    }

    @Test
    @DisplayName("each event reaches the client when it happens, over HTTP/2 and HTTP/1.1")
    void eventsArriveAsTheyHappen() throws Exception {
        for (HttpClient.Version version : List.of(HttpClient.Version.HTTP_2, HttpClient.Version.HTTP_1_1)) {
            String rv = get("/api/v1/namespaces/default/configmaps").body().isEmpty() ? "" : listRv();
            HttpResponse<InputStream> r = client.send(request("/api/v1/namespaces/default/configmaps?watch=true&resourceVersion="
                    + rv + "&timeoutSeconds=4").version(version).build(), HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(version, r.version());
            assertEquals(200, r.statusCode());
            assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow());
            try (BufferedReader lines = reader(r)) {
                for (int i = 0; i < 3; i++) {
                    String name = createConfigMap();
                    JsonNode event = Json.MAPPER.readTree(lines.readLine());
                    assertEquals("ADDED", event.path("type").asText());
                    assertEquals(name, event.path("object").path("metadata").path("name").asText());
                    assertEquals("ConfigMap", event.path("object").path("kind").asText());
                }
            }
        }
    }

    @Test
    @DisplayName("a protobuf watch streams length-prefixed WatchEvent frames of kubectl-style changes, over HTTP/2 and HTTP/1.1")
    void protobufWatch() throws Exception {
        for (HttpClient.Version version : List.of(HttpClient.Version.HTTP_2, HttpClient.Version.HTTP_1_1)) {
            String name = "pb-" + (counter++);
            HttpResponse<InputStream> r = client.send(request("/api/v1/namespaces/default/configmaps?watch=true"
                    + "&fieldSelector=metadata.name%3D" + name + "&timeoutSeconds=5")
                    .header("Accept", "application/vnd.kubernetes.protobuf;stream=watch,application/json")
                    .version(version).build(), HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(version, r.version());
            assertEquals("application/vnd.kubernetes.protobuf;stream=watch",
                    r.headers().firstValue("content-type").orElseThrow());
            try (java.io.DataInputStream frames = new java.io.DataInputStream(r.body())) {
                createNamed(name);
                assertEquals(200, client.send(request("/api/v1/namespaces/default/configmaps/" + name)
                        .header("Content-Type", "application/merge-patch+json")
                        .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"data\":{\"k\":\"v\"}}")).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode());
                assertEquals(200, client.send(request("/api/v1/namespaces/default/configmaps/" + name).DELETE().build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode());
                for (String type : List.of("ADDED", "MODIFIED", "DELETED")) {
                    byte[] frame = new byte[frames.readInt()];
                    frames.readFully(frame);
                    io.kubernetes.client.proto.Meta.WatchEvent event = io.kubernetes.client.proto.Meta.WatchEvent.parseFrom(frame);
                    assertEquals(type, event.getType());
                    byte[] object = event.getObject().getRaw().toByteArray();
                    io.kubernetes.client.proto.V1.ConfigMap cm = io.kubernetes.client.proto.V1.ConfigMap.parseFrom(
                            io.kubernetes.client.proto.Runtime.Unknown.parseFrom(
                                    java.util.Arrays.copyOfRange(object, 4, object.length)).getRaw());
                    assertEquals(name, cm.getMetadata().getName());
                    assertEquals(type.equals("ADDED") ? 0 : 1, cm.getDataCount(), type);
                }
            }
        }
    }

    @Test
    @DisplayName("the official Java client's ProtoClient gets, lists, creates and deletes in protobuf; its HTTP client watches")
    void officialProtoClient() throws Exception {
        okhttp3.OkHttpClient http = new okhttp3.OkHttpClient.Builder()
                .sslSocketFactory(tls.getSocketFactory(), trust)
                .readTimeout(Duration.ofSeconds(20)).build();
        io.kubernetes.client.openapi.ApiClient apiClient = new io.kubernetes.client.openapi.ApiClient(http);
        apiClient.setBasePath("https://127.0.0.1:" + server.port());
        io.kubernetes.client.ProtoClient proto = new io.kubernetes.client.ProtoClient(apiClient);

        var namespaces = proto.<io.kubernetes.client.proto.V1.NamespaceList>list(
                io.kubernetes.client.proto.V1.NamespaceList.newBuilder(), "/api/v1/namespaces");
        assertTrue(namespaces.object.getItemsList().stream().anyMatch(n -> n.getMetadata().getName().equals("kube-system")),
                String.valueOf(namespaces));
        var ns = proto.<io.kubernetes.client.proto.V1.Namespace>get(
                io.kubernetes.client.proto.V1.Namespace.newBuilder(), "/api/v1/namespaces/default");
        assertEquals("default", ns.object.getMetadata().getName());
        assertEquals("Active", ns.object.getStatus().getPhase());

        String rv = listRv();
        // the resource read in protobuf: objects written from now on are served from their stored values
        var before = proto.<io.kubernetes.client.proto.V1.ConfigMapList>list(
                io.kubernetes.client.proto.V1.ConfigMapList.newBuilder(), "/api/v1/namespaces/default/configmaps");
        assertNull(before.status, String.valueOf(before.status));
        String name = "proto-client-" + (counter++);
        io.kubernetes.client.proto.V1.ConfigMap cm = io.kubernetes.client.proto.V1.ConfigMap.newBuilder()
                .setMetadata(io.kubernetes.client.proto.Meta.ObjectMeta.newBuilder().setName(name))
                .putData("k", "v").build();
        var created = proto.create(cm, "/api/v1/namespaces/default/configmaps", "v1", "ConfigMap");
        assertEquals(name, created.object.getMetadata().getName(), String.valueOf(created));
        assertTrue(created.object.getMetadata().hasUid());
        var read = proto.<io.kubernetes.client.proto.V1.ConfigMap>get(
                io.kubernetes.client.proto.V1.ConfigMap.newBuilder(), "/api/v1/namespaces/default/configmaps/" + name);
        assertEquals(created.object.getMetadata().getResourceVersion(), read.object.getMetadata().getResourceVersion());
        assertEquals(created.object.getMetadata().getUid(), read.object.getMetadata().getUid());
        assertEquals(Map.of("k", "v"), read.object.getDataMap());
        var missing = proto.<io.kubernetes.client.proto.V1.ConfigMap>get(
                io.kubernetes.client.proto.V1.ConfigMap.newBuilder(), "/api/v1/namespaces/default/configmaps/none");
        assertEquals(404, missing.status.getCode());
        assertEquals("NotFound", missing.status.getReason());
        var deleted = proto.delete(io.kubernetes.client.proto.V1.ConfigMap.newBuilder(),
                "/api/v1/namespaces/default/configmaps/" + name);
        assertEquals("Success", deleted.status.getStatus());

        okhttp3.Request watch = new okhttp3.Request.Builder()
                .url(apiClient.getBasePath() + "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=2"
                        + "&fieldSelector=metadata.name%3D" + name + "&resourceVersion=" + rv)
                .header("Accept", "application/vnd.kubernetes.protobuf;stream=watch").build();
        try (okhttp3.Response response = http.newCall(watch).execute()) {
            java.io.DataInputStream frames = new java.io.DataInputStream(response.body().byteStream());
            List<String> types = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                byte[] frame = new byte[frames.readInt()];
                frames.readFully(frame);
                types.add(io.kubernetes.client.proto.Meta.WatchEvent.parseFrom(frame).getType());
            }
            assertEquals(List.of("ADDED", "DELETED"), types);
        }
    }

    @Test
    @DisplayName("sendInitialEvents streams the state, then the bookmark annotated initial-events-end, and ends at timeoutSeconds")
    void watchList() throws Exception {
        String name = createConfigMap();
        long started = System.nanoTime();
        HttpResponse<String> r = get("/api/v1/namespaces/default/configmaps?watch=1&sendInitialEvents=true"
                + "&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1");
        assertTrue(System.nanoTime() - started >= Duration.ofMillis(900).toNanos(), "ended by the timeout");
        List<JsonNode> events = new ArrayList<>();
        for (String line : r.body().split("\n")) {
            events.add(Json.MAPPER.readTree(line));
        }
        assertTrue(events.stream().anyMatch(e -> e.path("type").asText().equals("ADDED")
                && e.path("object").path("metadata").path("name").asText().equals(name)));
        JsonNode bookmark = events.getLast();
        assertEquals("BOOKMARK", bookmark.path("type").asText(), r.body());
        assertEquals("true", bookmark.path("object").path("metadata").path("annotations")
                .path("k8s.io/initial-events-end").asText());
        assertEquals(listRv(), bookmark.path("object").path("metadata").path("resourceVersion").asText());
    }

    @Test
    @DisplayName("a Table watch sends the column definitions with its first event only")
    void tableWatch() throws Exception {
        createConfigMap();
        createConfigMap();
        HttpResponse<String> r = client.send(request("/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1")
                .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        String[] lines = r.body().split("\n");
        assertTrue(lines.length >= 2, r.body());
        JsonNode first = Json.MAPPER.readTree(lines[0]).path("object");
        JsonNode second = Json.MAPPER.readTree(lines[1]).path("object");
        assertEquals("Table", first.path("kind").asText());
        assertFalse(first.path("columnDefinitions").isEmpty());
        assertTrue(second.path("columnDefinitions").isEmpty(), second.toString());
        assertEquals(1, second.path("rows").size());
    }

    @Test
    @DisplayName("many watches share one HTTP/2 connection and all get the event")
    void manyWatchesOneConnection() throws Exception {
        String rv = listRv();
        List<BufferedReader> readers = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            HttpResponse<InputStream> r = client.send(request("/api/v1/watch/namespaces/default/configmaps?resourceVersion="
                    + rv + "&timeoutSeconds=4").build(), HttpResponse.BodyHandlers.ofInputStream());
            readers.add(reader(r));
        }
        String name = createConfigMap();
        for (BufferedReader reader : readers) {
            JsonNode event = Json.MAPPER.readTree(reader.readLine());
            assertEquals(name, event.path("object").path("metadata").path("name").asText());
            reader.close();
        }
    }

    @Test
    @DisplayName("bad watch options are answered with a Status before any stream: 422 Invalid")
    void badOptions() throws Exception {
        HttpResponse<String> r = get("/api/v1/configmaps?watch=true&resourceVersion=1&resourceVersionMatch=NotOlderThan");
        assertEquals(422, r.statusCode());
        JsonNode status = Json.MAPPER.readTree(r.body());
        assertEquals("ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "
                + "is forbidden for watch unless sendInitialEvents is provided", status.path("message").asText());
    }

    @Test
    @DisplayName("a named watch path watches that object only")
    void namedWatch() throws Exception {
        String rv = listRv();
        String name = "named-" + (counter++);
        HttpResponse<InputStream> r = client.send(request("/api/v1/watch/namespaces/default/configmaps/" + name
                + "?resourceVersion=" + rv + "&timeoutSeconds=4").build(), HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader lines = reader(r)) {
            createConfigMap();
            createNamed(name);
            JsonNode event = Json.MAPPER.readTree(lines.readLine());
            assertEquals(name, event.path("object").path("metadata").path("name").asText());
        }
    }

    @Test
    @DisplayName("over WebSocket each event is one text message, with the subprotocol the client offered")
    void webSocketWatch() throws Exception {
        String rv = listRv();
        Messages messages = new Messages();
        WebSocket ws = client.newWebSocketBuilder().subprotocols("v4.channel.k8s.io")
                .buildAsync(wsUri("/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=" + rv
                        + "&timeoutSeconds=20"), messages).get(20, TimeUnit.SECONDS);
        try {
            assertEquals("v4.channel.k8s.io", ws.getSubprotocol());
            for (int i = 0; i < 3; i++) {
                String name = createConfigMap();
                JsonNode event = Json.MAPPER.readTree(messages.next());
                assertEquals("ADDED", event.path("type").asText());
                assertEquals(name, event.path("object").path("metadata").path("name").asText());
            }
        } finally {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "");
        }
    }

    @Test
    @DisplayName("over WebSocket a streaming list ends its initial state with the bookmark, and the server closes with 1000 at timeoutSeconds")
    void webSocketWatchListAndClose() throws Exception {
        String name = createConfigMap();
        Messages messages = new Messages();
        client.newWebSocketBuilder().buildAsync(wsUri("/api/v1/namespaces/default/configmaps?watch=True"
                + "&sendInitialEvents=True&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=True&timeoutSeconds=1"),
                messages).get(20, TimeUnit.SECONDS);
        List<JsonNode> events = new ArrayList<>();
        for (String m; (m = messages.next()) != null; ) {
            events.add(Json.MAPPER.readTree(m));
        }
        assertEquals(WebSocket.NORMAL_CLOSURE, messages.closed.get(20, TimeUnit.SECONDS));
        assertTrue(events.stream().anyMatch(e -> e.path("type").asText().equals("ADDED")
                && e.path("object").path("metadata").path("name").asText().equals(name)), events.toString());
        JsonNode bookmark = events.stream().filter(e -> e.path("type").asText().equals("BOOKMARK")).findFirst().orElseThrow();
        assertEquals("true", bookmark.path("object").path("metadata").path("annotations")
                .path("k8s.io/initial-events-end").asText());
    }

    @Test
    @DisplayName("a WebSocket watch the server refuses gets its Status as a plain HTTP answer, no upgrade")
    void webSocketBadOptions() throws Exception {
        CompletableFuture<WebSocket> open = client.newWebSocketBuilder().buildAsync(
                wsUri("/api/v1/configmaps?watch=true&resourceVersion=1&resourceVersionMatch=NotOlderThan"), new Messages());
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> open.get(20, TimeUnit.SECONDS));
        WebSocketHandshakeException refused = (WebSocketHandshakeException) e.getCause();
        assertEquals(422, refused.getResponse().statusCode());
    }

    /** What a WebSocket client received: each whole text message, then null once the server closed. */
    private static final class Messages implements WebSocket.Listener {
        private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();
        private final StringBuilder partial = new StringBuilder();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                queue.add(partial.toString());
                partial.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            closed.complete(statusCode);
            queue.add("");
            return null;
        }

        /** The next message, null after the close; fails after 20 s without one. */
        String next() throws InterruptedException {
            String m = queue.poll(20, TimeUnit.SECONDS);
            assertTrue(m != null, "no message within 20 s");
            return m.isEmpty() ? null : m;
        }
    }

    private static URI wsUri(String path) {
        return URI.create("wss://127.0.0.1:" + server.port() + path);
    }

    private static String listRv() throws Exception {
        return Json.MAPPER.readTree(get("/api/v1/namespaces/default/configmaps").body())
                .path("metadata").path("resourceVersion").asText();
    }

    private static String createConfigMap() throws Exception {
        return createNamed("cm-" + (counter++));
    }

    private static String createNamed(String name) throws Exception {
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"}}";
        HttpResponse<String> r = client.send(request("/api/v1/namespaces/default/configmaps")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        return name;
    }

    private static BufferedReader reader(HttpResponse<InputStream> r) {
        return new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8));
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + path)).timeout(Duration.ofSeconds(20));
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return client.send(request(path).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpClient adminClient(LocalPki pki) throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(TlsMaterial.trustStore(List.of(pki.ca())));
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("admin", Pem.privateKey(pki.adminKeyPem()), new char[0],
                new X509Certificate[] {pki.adminCertificate()});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, new char[0]);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        tls = context;
        trust = (X509TrustManager) tmf.getTrustManagers()[0];
        return HttpClient.newBuilder().sslContext(context).version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }
}
