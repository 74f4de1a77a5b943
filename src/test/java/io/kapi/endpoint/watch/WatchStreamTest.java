package io.kapi.endpoint.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.endpoint.FrameSink;
import io.kapi.endpoint.codec.ResponseTarget;
import io.kapi.endpoint.table.TableConvertor;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.Delivery;
import io.kapi.storage.cache.EventType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WatchStreamTest {

    private static final ApiResource CONFIGMAPS = new ApiResource("", "v1", "configmaps", "configmap", "ConfigMap",
            true, List.of("watch"), List.of(), List.of(), List.of());

    /** A watch that hands out what it was given, then nothing; bookmarks at revision 42. */
    private static CacheWatch scripted(Delivery... deliveries) {
        ArrayDeque<Delivery> queue = new ArrayDeque<>(List.of(deliveries));
        return new CacheWatch() {
            @Override
            public Delivery poll(long timeoutNanos) throws InterruptedException {
                Delivery d = queue.pollFirst();
                if (d == null && timeoutNanos > 0) {
                    Thread.sleep(Duration.ofNanos(timeoutNanos));
                }
                return d;
            }

            @Override
            public long bookmarkRevision() {
                return 42;
            }

            @Override
            public void close() {
            }
        };
    }

    private static List<JsonNode> stream(CacheWatch watch, Duration timeout, Duration bookmarks) throws Exception {
        return stream(watch, timeout, bookmarks, true);
    }

    private static List<JsonNode> stream(CacheWatch watch, Duration timeout, Duration bookmarks,
                                         boolean sendInitialEvents) throws Exception {
        EventEncoder encoder = new EventEncoder(CONFIGMAPS, ResponseTarget.JSON, TableConvertor.withoutSchemas(), null,
                Clock.systemUTC());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new WatchStream(watch, encoder, timeout, bookmarks, sendInitialEvents, sendInitialEvents, bytes -> { })
                .writeTo(FrameSink.of(out));
        List<JsonNode> frames = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty()) {
                frames.add(Json.MAPPER.readTree(line));
            }
        }
        return frames;
    }

    @Test
    @DisplayName("bookmarks come every interval and 2 s before the timeout, carrying only kind, apiVersion and resourceVersion")
    void periodicBookmarks() throws Exception {
        long start = System.nanoTime();
        List<JsonNode> frames = stream(scripted(), Duration.ofMillis(4600), Duration.ofMillis(1000));
        assertTrue(System.nanoTime() - start >= Duration.ofMillis(4500).toNanos(), "ends at the timeout");
        // at 1 s, 2 s and 2.6 s (timeout - 2 s); a loaded machine may merge the last two
        assertTrue(frames.size() == 2 || frames.size() == 3, frames.toString());
        for (JsonNode f : frames) {
            assertEquals("BOOKMARK", f.path("type").asText());
            assertEquals("{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"42\","
                    + "\"creationTimestamp\":null}}", f.path("object").toString());
        }
    }

    @Test
    @DisplayName("without allowWatchBookmarks no bookmark is sent, not even the initial-events-end one")
    void noBookmarks() throws Exception {
        List<JsonNode> frames = stream(scripted(new Delivery.InitialEventsEnd(7)), Duration.ofMillis(300), null);
        assertTrue(frames.isEmpty(), frames.toString());
    }

    @Test
    @DisplayName("a plain watch from \"\" (no sendInitialEvents) gets no initial-events-end bookmark")
    void noInitialEventsEndForPlainWatch() throws Exception {
        List<JsonNode> frames = stream(scripted(new Delivery.InitialEventsEnd(7)), Duration.ofMillis(300),
                Duration.ofMinutes(1), false);
        assertTrue(frames.isEmpty(), frames.toString());
    }

    @Test
    @DisplayName("a failure is one ERROR event with the Status, then the stream ends")
    void errorFrame() throws Exception {
        var object = Json.object();
        object.putObject("metadata").put("name", "c1");
        List<JsonNode> frames = stream(scripted(new Delivery.Change(EventType.ADDED, object, 5, null),
                new Delivery.Failure(new io.kapi.storage.StorageException.Compacted(1, 5))),
                Duration.ofSeconds(30), null);
        assertEquals(2, frames.size());
        assertEquals("ADDED", frames.get(0).path("type").asText());
        assertEquals("ERROR", frames.get(1).path("type").asText());
        assertEquals("Expired", frames.get(1).path("object").path("reason").asText());
        assertEquals(410, frames.get(1).path("object").path("code").asInt());
    }

    @Test
    @DisplayName("a streaming list stalled past its timeout still sends its whole initial state and the initial-events-end bookmark")
    void initialStateOutlivesTheTimeout() throws Exception {
        var a = Json.object();
        a.putObject("metadata").put("name", "a");
        var b = Json.object();
        b.putObject("metadata").put("name", "b");
        ArrayDeque<Delivery> initial = new ArrayDeque<>(List.of(new Delivery.Change(EventType.ADDED, a, 3, null),
                new Delivery.Change(EventType.ADDED, b, 4, null), new Delivery.InitialEventsEnd(9)));
        CacheWatch stalling = new CacheWatch() {
            private boolean stalled;

            @Override
            public Delivery poll(long timeoutNanos) throws InterruptedException {
                if (!stalled && initial.size() == 2) {
                    stalled = true;
                    Thread.sleep(Duration.ofMillis(600)); // a loaded machine, between two initial events
                }
                Delivery d = initial.pollFirst();
                if (d == null && timeoutNanos > 0) {
                    Thread.sleep(Duration.ofNanos(timeoutNanos));
                }
                return d;
            }

            @Override
            public long bookmarkRevision() {
                return 9;
            }

            @Override
            public void close() {
            }
        };
        List<JsonNode> frames = stream(stalling, Duration.ofMillis(200), Duration.ofMinutes(1), true);
        assertEquals(List.of("ADDED", "ADDED", "BOOKMARK"), frames.stream().map(f -> f.path("type").asText()).toList());
        assertEquals("true", frames.get(2).path("object").path("metadata").path("annotations")
                .path("k8s.io/initial-events-end").asText());
    }
}
