package io.kapi.storage;

import io.kapi.storage.backends.Storages;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("embedded (RocksDB) storage durability")
final class EmbeddedDurabilityTest {
    private static final StorageOptions OPTIONS = StorageOptions.DEFAULT.withCompactionCheckInterval(Duration.ZERO);

    @TempDir
    Path dir;

    @Test
    @DisplayName("reopening should keep values, revision, compacted revision and history")
    void reopenKeepsDataAndRevision() {
        try (Storage storage = Storages.embedded(dir, OPTIONS)) {
            storage.create("/r/a", "a1".getBytes(UTF_8));
            storage.create("/r/b", "b1".getBytes(UTF_8));
            storage.create("/r/c", "c1".getBytes(UTF_8));
            storage.update("/r/a", "a2".getBytes(UTF_8), 1);
            storage.delete("/r/b", 0);
            storage.compact(2);
        }
        try (Storage storage = Storages.embedded(dir, OPTIONS)) {
            assertEquals(5, storage.currentRevision());
            assertEquals(2, storage.compactedRevision());
            assertEquals("a2", new String(storage.get("/r/a").orElseThrow().value(), UTF_8));
            assertFalse(storage.get("/r/b").isPresent());
            assertEquals(List.of("/r/a", "/r/b", "/r/c"), StorageContract.keys(storage.range("/r/", null, 0, 3)));
            assertThrows(StorageException.Compacted.class, () -> storage.range("/r/", null, 0, 1));

            Recorder recorder = new Recorder();
            try (Watch ignored = storage.watch("/r/", 3, recorder)) {
                assertEquals(4, recorder.next().revision());
                assertInstanceOf(WatchEvent.Delete.class, recorder.next());
                KeyValue d = storage.create("/r/d", "d1".getBytes(UTF_8));
                assertEquals(6, d.modRevision(), "revisions continue after a restart");
                assertEquals(6, recorder.next().revision());
            }
        }
    }

    @Test
    @DisplayName("opening a directory already open should fail with Unavailable")
    void secondOpenFails() {
        try (Storage ignored = Storages.embedded(dir, OPTIONS)) {
            assertThrows(StorageException.Unavailable.class, () -> Storages.embedded(dir, OPTIONS));
        }
    }

    @Test
    @DisplayName("a server killed after opening its store leaves no copy of RocksDB's library, in its directory or the JVM's temporary one")
    void killedServerLeavesNoLibraryCopy() throws Exception {
        Path store = dir.resolve("data").resolve("store");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Process child = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
                KillTarget.class.getName(), store.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), UTF_8))) {
            assertTrue(out.readLine().startsWith("ready"), "child opened its store");
            assertTrue(out.readLine().startsWith("/kill/"), "child writes");
        } finally {
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no deleteOnExit
            assertTrue(child.waitFor(10, TimeUnit.SECONDS));
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "nothing in the JVM's temporary directory");
        }
        try (Stream<Path> left = Files.list(store.getParent())) {
            assertEquals(List.of(store), left.toList(), "only the store beside the store");
        }
    }

    @Test
    @DisplayName("after kill -9 mid-write, every acknowledged create should be there and revisions continue")
    void killNineKeepsAcknowledgedWrites() throws Exception {
        Process child = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                KillTarget.class.getName(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        Thread.ofVirtual().start(() -> { // never hang the build on a stuck child
            try {
                if (!child.waitFor(60, TimeUnit.SECONDS)) {
                    child.toHandle().destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Map<String, Long> acknowledged = new LinkedHashMap<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), UTF_8))) {
            assertTrue(out.readLine().startsWith("ready"), "child started");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            String line;
            while ((line = out.readLine()) != null) {
                String[] parts = line.split(" ");
                acknowledged.put(parts[0], Long.parseLong(parts[1]));
                if (acknowledged.size() == 2000 || System.nanoTime() > deadline) {
                    // SIGKILL (not Process.destroyForcibly, which also closes our end of the pipe):
                    // no shutdown hook, no close, writes in flight
                    child.toHandle().destroyForcibly();
                    break;
                }
            }
            while ((line = out.readLine()) != null) { // acknowledged before the kill, still in the pipe
                String[] parts = line.split(" ");
                if (parts.length == 2) {
                    acknowledged.put(parts[0], Long.parseLong(parts[1]));
                }
            }
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(10, TimeUnit.SECONDS));
        }
        assertTrue(acknowledged.size() >= 100, "child acknowledged writes before the kill: " + acknowledged.size());

        try (Storage storage = Storages.embedded(dir, OPTIONS)) {
            long highest = acknowledged.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            assertTrue(storage.currentRevision() >= highest,
                    "revision " + storage.currentRevision() + " < acknowledged " + highest);
            for (Map.Entry<String, Long> ack : acknowledged.entrySet()) {
                KeyValue kv = storage.get(ack.getKey()).orElseThrow(() -> new AssertionError("lost " + ack.getKey()));
                assertEquals(ack.getValue(), kv.modRevision(), ack.getKey());
            }
            long next = storage.create("/after/restart", new byte[0]).modRevision();
            assertEquals(storage.currentRevision(), next);
            assertTrue(next > highest);
            assertEquals(next, storage.range("/", null, 0, 0).items().size(), "every revision is one create");
        }
    }
}
