package io.kapi.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.user.UserInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The backends on their own: the legacy line, batching over a stuck delegate, truncation, rotation. */
@DisplayName("audit backends")
final class BackendsTest {

    @TempDir
    Path dir;

    private static ObjectNode event(String id) {
        Event e = new Event(Level.METADATA, id, "/api/v1/namespaces/ns/pods?watch=1", "watch",
                new UserInfo("alice", "", List.of("dev", "system:authenticated")), List.of("10.0.0.1"), "kubectl",
                Instant.parse("2026-12-05T10:00:00.120000Z"), new java.util.HashMap<>(Map.of("namespace", "ns",
                "resource", "pods")));
        e.impersonatedUser = new UserInfo("bob", "", List.of("team"));
        e.responseStatus = Events.responseStatus(200, null);
        return e.snapshot(Stage.RESPONSE_COMPLETE, Instant.parse("2026-12-05T10:00:01Z"));
    }

    /** A delegate that records batches, each only once {@code open} is counted down. */
    private record Recorder(List<List<ObjectNode>> batches, CountDownLatch open) implements Backend {
        @Override
        public boolean process(List<ObjectNode> events) {
            try {
                open.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            batches.add(events);
            return true;
        }

        @Override
        public void shutdown() {
        }

        @Override
        public String name() {
            return "webhook";
        }
    }

    @Test
    @DisplayName("--audit-log-format=legacy writes kube's one-line text")
    void legacy() {
        assertEquals("2026-12-05T10:00:00.12Z AUDIT: id=\"a-1\" stage=\"ResponseComplete\" ip=\"10.0.0.1\" method=\"watch\" "
                + "user=\"alice\" groups=\"\\\"dev\\\",\\\"system:authenticated\\\"\" as=\"bob\" asgroups=\"\\\"team\\\"\" "
                + "user-agent=\"kubectl\" namespace=\"ns\" uri=\"/api/v1/namespaces/ns/pods?watch=1\" response=\"200\"",
                LogBackend.legacy(event("a-1")));
    }

    @Test
    @DisplayName("batch mode never waits for a stuck delegate: a full buffer drops, counted; shutdown hands on the rest")
    void batchDropsWhenFull() {
        AuditMetrics metrics = new AuditMetrics();
        CountDownLatch open = new CountDownLatch(1);
        Recorder stuck = new Recorder(new CopyOnWriteArrayList<>(), open);
        BufferedBackend b = new BufferedBackend(stuck,
                new BufferedBackend.Config(3, 2, Duration.ofMillis(10), 0, 1, false), metrics);
        long start = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            assertTrue(b.process(List.of(event("e" + i))));
        }
        assertTrue(System.nanoTime() - start < 1_000_000_000L, "requests were held");
        long dropped = metrics.errorTotal().getOrDefault("webhook", 0L);
        assertTrue(dropped >= 20 - 3 - 2, "dropped " + dropped);
        open.countDown();
        b.shutdown();
        int delivered = stuck.batches().stream().mapToInt(List::size).sum();
        assertEquals(20, delivered + dropped);
        assertTrue(stuck.batches().stream().allMatch(batch -> batch.size() <= 2));
    }

    @Test
    @DisplayName("truncation drops the objects of an event too large, and marks it")
    void truncation() {
        CountDownLatch open = new CountDownLatch(0);
        Recorder out = new Recorder(new CopyOnWriteArrayList<>(), open);
        ObjectNode big = event("big");
        big.putObject("requestObject").put("data", "x".repeat(5000));
        new TruncatingBackend(out, 2000, 10_000, new AuditMetrics()).process(List.of(big, event("small")));
        ObjectNode sent = out.batches().getFirst().getFirst();
        assertFalse(sent.has("requestObject"));
        assertEquals("true", sent.path("annotations").path("audit.k8s.io/truncated").asText());
        assertEquals(2, out.batches().getFirst().size());
    }

    @Test
    @DisplayName("rotation keeps --audit-log-maxbackup gzipped backups beside the log, all 0600")
    void rotation() throws IOException {
        RotatingFile file = new RotatingFile(dir.resolve("audit.log"), 1, 0, 2, true);
        byte[] chunk = ("x".repeat(600 * 1024) + "\n").getBytes();
        for (int i = 0; i < 5; i++) {
            file.write(chunk);
            sleepPastMillisecond();
        }
        file.close();
        List<String> names;
        try (Stream<Path> s = Files.list(dir)) {
            names = s.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertEquals(3, names.size(), names.toString());
        assertTrue(names.stream().filter(n -> !n.equals("audit.log"))
                .allMatch(n -> n.matches("audit-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d\\.\\d{3}\\.log\\.gz")), names.toString());
        try (Stream<Path> s = Files.list(dir)) {
            assertTrue(s.allMatch(p -> {
                try {
                    return java.nio.file.attribute.PosixFilePermissions.toString(
                            Files.getPosixFilePermissions(p)).equals("rw-------");
                } catch (IOException e) {
                    return false;
                }
            }));
        }
    }

    /** Backups are named by the millisecond: two rotations in one would collide. */
    private static void sleepPastMillisecond() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
