package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** kubectl's watch-based commands against a real Kapi: get -w, wait, chunked lists, raw watch frames. */
@DisplayName("kubectl watch and wait")
final class WatchIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    @Test
    @DisplayName("get -w --output-watch-events shows ADDED, MODIFIED and DELETED for changes made in another shell")
    void getWatchEvents() throws Exception {
        Process watch = background("get", "cm", "-w", "--output-watch-events");
        BlockingQueue<String> lines = lines(watch);
        try {
            assertTrue(waitFor(lines, "EVENT"), "header");
            KAPI.kubectl().run("create", "cm", "w1", "--from-literal=k=a").assertOk();
            assertTrue(waitFor(lines, "ADDED      w1"), "added");
            KAPI.kubectl().run("label", "cm", "w1", "x=y").assertOk();
            assertTrue(waitFor(lines, "MODIFIED   w1"), "modified");
            KAPI.kubectl().run("delete", "cm", "w1").assertOk();
            assertTrue(waitFor(lines, "DELETED    w1"), "deleted");
        } finally {
            watch.destroy();
        }
    }

    @Test
    @DisplayName("wait --for=delete returns once the object is gone")
    void waitForDelete() throws Exception {
        KAPI.kubectl().run("create", "cm", "d1", "--from-literal=k=a").assertOk();
        Process wait = background("wait", "--for=delete", "cm/d1", "--timeout=60s");
        Thread.sleep(1500);
        KAPI.kubectl().run("delete", "cm", "d1").assertOk();
        assertTrue(wait.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, wait.exitValue(), new String(wait.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("wait --for=jsonpath returns once the field has the value")
    void waitForJsonPath() throws Exception {
        KAPI.kubectl().run("create", "cm", "j1", "--from-literal=k=a").assertOk();
        Process wait = background("wait", "--for=jsonpath={.data.k}=b", "cm/j1", "--timeout=60s");
        Thread.sleep(1500);
        KAPI.kubectl().run("patch", "cm", "j1", "-p", "{\"data\":{\"k\":\"b\"}}").assertOk();
        assertTrue(wait.waitFor(60, TimeUnit.SECONDS));
        String out = new String(wait.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, wait.exitValue(), out);
        assertTrue(out.contains("configmap/j1 condition met"), out);
    }

    @Test
    @DisplayName("wait --for=condition returns once the condition is true")
    void waitForCondition() throws Exception {
        String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p1\",\"namespace\":\"default\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}";
        KAPI.kubectl().runWithInput(pod, "create", "-f", "-").assertOk();
        Process wait = background("wait", "--for=condition=Ready", "pod/p1", "--timeout=60s");
        Thread.sleep(1500);
        ObjectNode current = (ObjectNode) Json.MAPPER.readTree(
                KAPI.kubectl().run("get", "pod", "p1", "-o", "json").assertOk().stdout());
        ObjectNode status = current.putObject("status");
        status.put("phase", "Running");
        status.putArray("conditions").addObject().put("type", "Ready").put("status", "True");
        KAPI.kubectl().runWithInput(current.toString(), "replace", "--subresource=status", "-f", "-").assertOk();
        assertTrue(wait.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, wait.exitValue());
    }

    @Test
    @DisplayName("get --chunk-size pages through every object")
    void chunkedList() {
        for (int i = 0; i < 7; i++) {
            KAPI.kubectl().run("create", "cm", "chunk-" + i).assertOk();
        }
        String out = KAPI.kubectl().run("get", "cm", "--chunk-size=2", "-o", "name").assertOk().stdout();
        for (int i = 0; i < 7; i++) {
            assertTrue(out.contains("configmap/chunk-" + i + "\n"), out);
        }
    }

    @Test
    @DisplayName("a raw watch streams WatchEvent frames and a streaming list ends its initial state with a bookmark")
    void rawWatchList() throws Exception {
        KAPI.kubectl().run("create", "cm", "raw1").assertOk();
        String out = KAPI.kubectl().run("get", "--raw", "/api/v1/namespaces/default/configmaps?watch=true"
                + "&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=2")
                .assertOk().stdout();
        List<JsonNode> frames = new ArrayList<>();
        for (String line : out.split("\n")) {
            frames.add(Json.MAPPER.readTree(line));
        }
        // the initial state (raw1 among it), then the bookmark that ends it; live events of the
        // namespace, if any came within the 2 s, may follow it
        int end = -1;
        for (int i = 0; i < frames.size() && end < 0; i++) {
            if (frames.get(i).path("object").path("metadata").path("annotations")
                    .path("k8s.io/initial-events-end").asText().equals("true")) {
                end = i;
            }
        }
        assertTrue(end > 0, "an initial-events-end bookmark after the initial state: " + out);
        assertEquals("BOOKMARK", frames.get(end).path("type").asText(), out);
        List<JsonNode> initial = frames.subList(0, end);
        assertTrue(initial.stream().allMatch(f -> f.path("type").asText().equals("ADDED")), out);
        assertTrue(initial.stream().anyMatch(f -> f.path("object").path("metadata").path("name").asText()
                .equals("raw1")), out);
    }

    private static Process background(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", KAPI.kapi().kubeconfigPath().toString()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).start();
    }

    private static BlockingQueue<String> lines(Process p) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        return lines;
    }

    private static boolean waitFor(BlockingQueue<String> lines, String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(200, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
