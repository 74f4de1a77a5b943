package io.kapi.endpoint.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.assembly.ApiAssembly;
import io.kapi.machinery.Json;
import io.kapi.assembly.ApiConfig;
import io.kapi.server.KapiServer;
import io.kapi.server.ServerConfig;
import io.kapi.server.certs.LocalPki;
import io.kapi.server.certs.ServingNames;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real kubectl on the machine against an in-process Kapi: get -w, wait, chunked lists. */
@DisplayName("kubectl watch and wait")
class KubectlWatchTest {

    @TempDir
    static Path dir;
    static ApiAssembly api;
    static KapiServer server;
    static Path kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(run(5, "version", "--client").exit == 0, "kubectl is installed");
        LocalPki pki = LocalPki.ensure(dir, ServingNames.standard("test-host", "10.96.0.1", List.of()));
        api = ApiAssembly.create(new ApiConfig(dir, "memory", List.of(), "10.96.0.0/12", "30000-32767", "127.0.0.1", 0, true));
        server = KapiServer.start(ServerConfig.of("127.0.0.1", 0, pki.tls()), api.handler(), api.checks(), api.hooks());
        kubeconfig = pki.writeKubeconfig("https://127.0.0.1:" + server.port());
        for (int i = 0; i < 100 && run(10, "get", "ns", "default").exit != 0; i++) {
            Thread.sleep(100);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
            api.close();
        }
    }

    @Test
    @DisplayName("get -w --output-watch-events shows ADDED, MODIFIED and DELETED for changes made elsewhere")
    void getWatchEvents() throws Exception {
        Process watch = kubectl("get", "cm", "-w", "--output-watch-events");
        BlockingQueue<String> lines = lines(watch);
        try {
            assertTrue(waitFor(lines, "EVENT"), "header");
            create("w1", "a");
            assertTrue(waitFor(lines, "ADDED      w1"), "added");
            replace("w1", "b");
            assertTrue(waitFor(lines, "MODIFIED   w1"), "modified");
            assertEquals(0, run(20, "delete", "cm", "w1").exit);
            assertTrue(waitFor(lines, "DELETED    w1"), "deleted");
        } finally {
            watch.destroy();
        }
    }

    @Test
    @DisplayName("wait --for=delete returns once the object is gone")
    void waitForDelete() throws Exception {
        create("d1", "a");
        Process wait = kubectl("wait", "--for=delete", "cm/d1", "--timeout=30s");
        Thread.sleep(1500);
        assertEquals(0, run(20, "delete", "cm", "d1").exit);
        assertTrue(wait.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, wait.exitValue(), new String(wait.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("wait --for=jsonpath returns once the field has the value")
    void waitForJsonPath() throws Exception {
        create("j1", "a");
        Process wait = kubectl("wait", "--for=jsonpath={.data.k}=b", "cm/j1", "--timeout=30s");
        Thread.sleep(1500);
        replace("j1", "b");
        assertTrue(wait.waitFor(30, TimeUnit.SECONDS));
        String out = new String(wait.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, wait.exitValue(), out);
        assertTrue(out.contains("configmap/j1 condition met"), out);
    }

    @Test
    @DisplayName("wait --for=condition returns once the condition is true")
    void waitForCondition() throws Exception {
        String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p1\",\"namespace\":\"default\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}";
        assertEquals(0, runWithInput(pod, "create", "-f", "-").exit);
        Process wait = kubectl("wait", "--for=condition=Ready", "pod/p1", "--timeout=30s");
        Thread.sleep(1500);
        ObjectNode current = (ObjectNode) Json.MAPPER.readTree(run(20, "get", "pod", "p1", "-o", "json").out);
        ObjectNode status = current.putObject("status");
        status.put("phase", "Running");
        status.putArray("conditions").addObject().put("type", "Ready").put("status", "True");
        String ready = current.toString();
        Result replaced = runWithInput(ready, "replace", "--subresource=status", "-f", "-");
        assertEquals(0, replaced.exit, replaced.err);
        assertTrue(wait.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, wait.exitValue());
    }

    @Test
    @DisplayName("get --chunk-size pages through every object")
    void chunkedList() throws Exception {
        for (int i = 0; i < 7; i++) {
            create("chunk-" + i, "a");
        }
        Result r = run(30, "get", "cm", "--chunk-size=2", "-o", "name");
        assertEquals(0, r.exit, r.err);
        for (int i = 0; i < 7; i++) {
            assertTrue(r.out.contains("configmap/chunk-" + i + "\n"), r.out);
        }
    }

    private static void create(String name, String value) throws Exception {
        Result r = runWithInput(configMap(name, value), "create", "-f", "-");
        assertEquals(0, r.exit, r.err);
    }

    private static void replace(String name, String value) throws Exception {
        Result r = runWithInput(configMap(name, value), "replace", "-f", "-");
        assertEquals(0, r.exit, r.err);
    }

    private static String configMap(String name, String value) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"default\"},\"data\":{\"k\":\"" + value + "\"}}";
    }

    private static boolean waitFor(BlockingQueue<String> lines, String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(200, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static BlockingQueue<String> lines(Process p) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // process ended
            }
        });
        return lines;
    }

    private static Process kubectl(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(),
                "--cache-dir", dir.resolve("kubectl-cache").toString()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).start();
    }

    private record Result(int exit, String out, String err) {
    }

    private static Result run(int seconds, String... args) throws Exception {
        return runWithInput(null, seconds, args);
    }

    private static Result runWithInput(String stdin, String... args) throws Exception {
        return runWithInput(stdin, 30, args);
    }

    private static Result runWithInput(String stdin, int seconds, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("kubectl"));
        if (kubeconfig != null) {
            cmd.addAll(List.of("--kubeconfig", kubeconfig.toString(), "--cache-dir",
                    dir.resolve("kubectl-cache").toString()));
        }
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Result(-1, Files.readString(out), "timed out");
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
