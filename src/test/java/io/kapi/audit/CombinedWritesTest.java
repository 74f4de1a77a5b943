package io.kapi.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("audit log writes")
class CombinedWritesTest {

    @Test
    @DisplayName("every line of many concurrent writers is written once, whole, before its writer returns")
    void concurrentWriters() throws Exception {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        AtomicInteger calls = new AtomicInteger();
        CombinedWrites writes = new CombinedWrites(data -> {
            calls.incrementAndGet();
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            synchronized (file) {
                file.write(data);
            }
        });
        var returned = ConcurrentHashMap.<String>newKeySet();
        List<Future<?>> done = new ArrayList<>();
        try (var threads = Executors.newFixedThreadPool(8)) {
            for (int t = 0; t < 8; t++) {
                int id = t;
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        String line = "writer-" + id + "-line-" + i + "\n";
                        writes.write(line.getBytes(StandardCharsets.UTF_8));
                        synchronized (file) {
                            assertTrue(file.toString(StandardCharsets.UTF_8).contains(line), "written before returning");
                        }
                        returned.add(line);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        List<String> lines = Arrays.asList(file.toString(StandardCharsets.UTF_8).split("\n"));
        assertEquals(1600, lines.size());
        assertEquals(1600, lines.stream().distinct().count());
        assertEquals(1600, returned.size());
        assertTrue(calls.get() < 1600, "writes combined: " + calls.get() + " calls");
    }

    @Test
    @DisplayName("a failed write fails the callers whose lines it held, and the next write goes on")
    void failures() throws Exception {
        AtomicInteger attempt = new AtomicInteger();
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        CombinedWrites writes = new CombinedWrites(data -> {
            if (attempt.incrementAndGet() == 1) {
                throw new IOException("disk full");
            }
            file.write(data);
        });
        assertThrows(IOException.class, () -> writes.write("lost\n".getBytes(StandardCharsets.UTF_8)));
        writes.write("kept\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("kept\n", file.toString(StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("time stamps are kube's MicroTime, the same as a formatter's")
    void microTime() {
        DateTimeFormatter reference = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
                .withZone(ZoneOffset.UTC);
        for (Instant t : List.of(Instant.EPOCH, Instant.parse("2026-12-06T01:02:03.000004Z"),
                Instant.parse("2026-12-06T01:02:03.999999999Z"), Instant.parse("1999-12-31T23:59:59.5Z"),
                Instant.parse("2026-12-06T01:02:04.123456Z"), Instant.now())) {
            assertEquals(reference.format(t), MicroTimestamp.format(t), t.toString());
        }
    }
}
