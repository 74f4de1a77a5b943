package io.kapi.cli;

import io.kapi.certs.Pem;
import io.kapi.certs.TlsMaterial;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The training run behind {@code bin/kapi}'s ahead-of-time cache (JDK 25, {@code -XX:AOTCacheOutput}):
 * starts a real server on a free loopback port in the data directory it is given, makes the requests
 * clients make first (discovery, OpenAPI, list, create, get, patch, apply, Table, watch over HTTP and
 * WebSocket), and exits, so that the JVM stores the classes it loaded and linked, and their profiles,
 * for every later start. Not for users: {@code bin/kapi} runs it once per build.
 */
public final class AotTraining {

    private static final Duration WAIT = Duration.ofSeconds(120);
    /** How long the training's load runs: long enough for the request paths to reach the optimizing compiler. */
    private static final Duration LOAD = Duration.ofSeconds(Long.getLong("kapi.aot.loadSeconds", 12));
    private static final int LOAD_CLIENTS = 4;

    private AotTraining() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]).toAbsolutePath();
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Thread server = Thread.ofPlatform().daemon().start(() -> Main.run(List.of("--data-dir=" + dir,
                "--secure-port=" + port, "--bind-address=127.0.0.1"), new PrintStream(OutputStream.nullOutputStream()),
                System.err));
        HttpClient client = awaitReady(dir, port, server);
        exercise(client, "https://127.0.0.1:" + port);
        load(client, "https://127.0.0.1:" + port, LOAD);
        System.exit(server.isAlive() ? 0 : 1); // the server's shutdown hook stops it; the JVM then writes the cache
    }

    /** Waits for /readyz; a server that failed to start ends the training at once (exit 1), not at the deadline. */
    private static HttpClient awaitReady(Path dir, int port, Thread server) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!Files.exists(dir.resolve("admin.kubeconfig"))) {
            exitIfDead(server);
            pause(deadline);
        }
        HttpClient client = HttpClient.newBuilder().sslContext(admin(dir)).connectTimeout(Duration.ofSeconds(5)).build();
        URI readyz = URI.create("https://127.0.0.1:" + port + "/readyz");
        while (true) {
            try {
                if (client.send(HttpRequest.newBuilder(readyz).build(), HttpResponse.BodyHandlers.ofString())
                        .body().equals("ok")) {
                    return client;
                }
            } catch (IOException e) {
                // not listening yet
            }
            exitIfDead(server);
            pause(deadline);
        }
    }

    private static void exitIfDead(Thread server) {
        if (!server.isAlive()) {
            System.err.println("AotTraining: the server did not start");
            System.exit(1);
        }
    }

    private static void exercise(HttpClient client, String base) throws Exception {
        String cms = "/api/v1/namespaces/default/configmaps";
        for (String path : List.of("/version", "/api", "/apis", "/api/v1", "/apis/apps/v1", "/openapi/v3",
                "/openapi/v3/api/v1", "/openapi/v2", "/api/v1/namespaces", "/apis/apiregistration.k8s.io/v1/apiservices")) {
            send(client, base + path, "GET", null, null, "application/json");
        }
        send(client, base + cms, "POST", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"aot\"},"
                + "\"data\":{\"k\":\"v\"}}", "application/json", "application/json");
        send(client, base + cms + "/aot", "GET", null, null, "application/json");
        send(client, base + cms + "/aot", "PATCH", "{\"data\":{\"k\":\"w\"}}", "application/merge-patch+json",
                "application/json");
        send(client, base + cms + "/aot?fieldManager=aot&force=true", "PATCH", "apiVersion: v1\nkind: ConfigMap\n"
                + "metadata: {name: aot}\ndata: {k: x}\n", "application/apply-patch+yaml", "application/json");
        send(client, base + cms, "GET", null, null, "application/json;as=Table;v=v1;g=meta.k8s.io,application/json");
        send(client, base + "/apis/apps/v1/namespaces/default/deployments", "POST", "{\"apiVersion\":\"apps/v1\","
                + "\"kind\":\"Deployment\",\"metadata\":{\"name\":\"aot\"},\"spec\":{\"selector\":{\"matchLabels\":"
                + "{\"a\":\"b\"}},\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"containers\":"
                + "[{\"name\":\"c\",\"image\":\"busybox\"}]}}}}", "application/json", "application/json");
        send(client, base + cms + "?watch=true&timeoutSeconds=1", "GET", null, null, "application/json");
        WebSocket ws = client.newWebSocketBuilder().buildAsync(URI.create(base.replace("https:", "wss:") + cms
                + "?watch=true&timeoutSeconds=1"), new WebSocket.Listener() { }).get(30, TimeUnit.SECONDS);
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);
        send(client, base + cms + "/aot", "DELETE", null, null, "application/json");
    }

    /**
     * Load as a server meets it after a start: clients in closed loops of raw {@code /version}, gets, creates,
     * merge patches, server-side applies, lists and deletes of configmaps and pods, for {@code length}; the
     * cache then holds these paths' profiles (JEP 515), so that a server started with it compiles them at once
     * instead of after tens of seconds of its own load.
     */
    private static void load(HttpClient client, String base, Duration length) throws Exception {
        long deadline = System.nanoTime() + length.toNanos();
        List<Thread> clients = new java.util.ArrayList<>();
        for (int c = 0; c < LOAD_CLIENTS; c++) {
            int id = c;
            clients.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; System.nanoTime() < deadline; i++) {
                        cycle(client, base, id + "-" + i);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (Thread t : clients) {
            t.join();
        }
    }

    private static void cycle(HttpClient client, String base, String n) throws Exception {
        String cms = base + "/api/v1/namespaces/default/configmaps";
        String pods = base + "/api/v1/namespaces/default/pods";
        String json = "application/json";
        send(client, base + "/version", "GET", null, null, json);
        send(client, cms, "POST", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"l-" + n
                + "\",\"labels\":{\"a\":\"b\"}},\"data\":{\"k\":\"v\"}}", json, json);
        send(client, cms + "/l-" + n, "GET", null, null, json);
        send(client, cms + "/l-" + n, "PATCH", "{\"data\":{\"k\":\"w\"}}", "application/merge-patch+json", json);
        send(client, cms + "/l-" + n + "?fieldManager=load&force=true", "PATCH", "{\"apiVersion\":\"v1\","
                + "\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"l-" + n + "\"},\"data\":{\"x\":\"y\"}}",
                "application/apply-patch+yaml", json);
        send(client, pods, "POST", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p-" + n
                + "\",\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\","
                + "\"ports\":[{\"containerPort\":80}],\"resources\":{\"requests\":{\"cpu\":\"100m\"}}}]}}", json, json);
        send(client, pods + "/p-" + n, "GET", null, null, "application/vnd.kubernetes.protobuf,application/json");
        send(client, cms + "?labelSelector=a%3Db&limit=50", "GET", null, null, json);
        send(client, cms + "/l-" + n, "DELETE", null, null, json);
        send(client, pods + "/p-" + n + "?gracePeriodSeconds=0", "DELETE", null, null, json);
    }

    private static void send(HttpClient client, String url, String method, String body, String contentType,
                             String accept) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Accept", accept)
                .timeout(WAIT).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        client.send(request.build(), HttpResponse.BodyHandlers.discarding());
    }

    private static SSLContext admin(Path dir) throws Exception {
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(TlsMaterial.trustStore(Pem.certificates(Files.readString(dir.resolve("ca.crt")))));
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("admin", Pem.privateKey(Files.readString(dir.resolve("admin.key"))), new char[0],
                Pem.certificates(Files.readString(dir.resolve("admin.crt"))).toArray(X509Certificate[]::new));
        KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        km.init(keys, new char[0]);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(km.getKeyManagers(), trust.getTrustManagers(), null);
        return context;
    }

    private static void pause(long deadline) throws InterruptedException {
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("the training server did not become ready in " + WAIT);
        }
        Thread.sleep(50);
    }
}
