package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
        try (BackgroundKubectl watch = BackgroundKubectl.start(KAPI.kubectl(), "get", "cm", "-w", "--output-watch-events")) {
            assertTrue(watch.awaitLine("EVENT"), "header");
            watch.awaitWatching();
            KAPI.kubectl().run("create", "cm", "w1", "--from-literal=k=a").assertOk();
            assertTrue(watch.awaitLine("ADDED      w1"), "added");
            KAPI.kubectl().run("label", "cm", "w1", "x=y").assertOk();
            assertTrue(watch.awaitLine("MODIFIED   w1"), "modified");
            KAPI.kubectl().run("delete", "cm", "w1").assertOk();
            assertTrue(watch.awaitLine("DELETED    w1"), "deleted");
        }
    }

    @Test
    @DisplayName("wait --for=delete returns once the object is gone")
    void waitForDelete() throws Exception {
        KAPI.kubectl().run("create", "cm", "d1", "--from-literal=k=a").assertOk();
        try (BackgroundKubectl wait = BackgroundKubectl.start(KAPI.kubectl(), "wait", "--for=delete", "cm/d1", "--timeout=60s")) {
            wait.awaitWatching();
            KAPI.kubectl().run("delete", "cm", "d1").assertOk();
            assertTrue(wait.awaitExit(Duration.ofSeconds(60)));
            assertEquals(0, wait.exitValue(), wait.stderr());
        }
    }

    @Test
    @DisplayName("wait --for=jsonpath returns once the field has the value")
    void waitForJsonPath() throws Exception {
        KAPI.kubectl().run("create", "cm", "j1", "--from-literal=k=a").assertOk();
        try (BackgroundKubectl wait = BackgroundKubectl.start(KAPI.kubectl(), "wait", "--for=jsonpath={.data.k}=b", "cm/j1",
                "--timeout=60s")) {
            wait.awaitWatching();
            KAPI.kubectl().run("patch", "cm", "j1", "-p", "{\"data\":{\"k\":\"b\"}}").assertOk();
            assertTrue(wait.awaitExit(Duration.ofSeconds(60)));
            String out = wait.stdout();
            assertEquals(0, wait.exitValue(), out);
            assertTrue(out.contains("configmap/j1 condition met"), out);
        }
    }

    @Test
    @DisplayName("wait --for=condition returns once the condition is true")
    void waitForCondition() throws Exception {
        String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p1\",\"namespace\":\"default\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}";
        KAPI.kubectl().runWithInput(pod, "create", "-f", "-").assertOk();
        try (BackgroundKubectl wait = BackgroundKubectl.start(KAPI.kubectl(), "wait", "--for=condition=Ready", "pod/p1",
                "--timeout=60s")) {
            wait.awaitWatching();
            ObjectNode current = (ObjectNode) Json.MAPPER.readTree(
                    KAPI.kubectl().run("get", "pod", "p1", "-o", "json").assertOk().stdout());
            ObjectNode status = current.putObject("status");
            status.put("phase", "Running");
            status.putArray("conditions").addObject().put("type", "Ready").put("status", "True");
            KAPI.kubectl().runWithInput(current.toString(), "replace", "--subresource=status", "-f", "-").assertOk();
            assertTrue(wait.awaitExit(Duration.ofSeconds(60)));
            assertEquals(0, wait.exitValue());
        }
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
}
