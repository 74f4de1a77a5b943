package io.kapi.storage;

import io.kapi.storage.backends.Storages;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("memory storage snapshot and restore")
final class SnapshotsTest {

    private Storage storage;
    private Snapshots snapshots;

    @BeforeEach
    void open() {
        storage = Storages.memory(StorageOptions.DEFAULT.withCompactionCheckInterval(Duration.ZERO));
        snapshots = Storages.snapshots(storage).orElseThrow();
    }

    @AfterEach
    void close() {
        storage.close();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    private Map<String, String> contents() {
        Map<String, String> all = new TreeMap<>();
        storage.range("", null, 0, 0).items().forEach(kv -> all.put(kv.key(), new String(kv.value(), UTF_8)));
        return all;
    }

    /** a=1, b=2, c=3, then a snapshot; then b changed, c deleted, d created. */
    private KeySpace snapshotThenChange() {
        storage.create("/registry/x/a", bytes("1"));
        KeyValue b = storage.create("/registry/x/b", bytes("2"));
        KeyValue c = storage.create("/registry/x/c", bytes("3"));
        KeySpace snapshot = snapshots.snapshot();
        storage.update("/registry/x/b", bytes("2'"), b.modRevision());
        storage.delete("/registry/x/c", c.modRevision());
        storage.create("/registry/x/d", bytes("4"));
        return snapshot;
    }

    @Test
    @DisplayName("restore should bring back every key's value, writing only the difference as new revisions")
    void restoreWritesTheDifference() {
        KeySpace snapshot = snapshotThenChange();
        KeyValue untouched = storage.get("/registry/x/a").orElseThrow();
        long before = storage.currentRevision();

        Snapshots.Restored restored = snapshots.restore(snapshot);

        assertEquals(Map.of("/registry/x/a", "1", "/registry/x/b", "2", "/registry/x/c", "3"), contents());
        assertEquals(new Snapshots.Restored(before + 3, 1, 1, 1), restored);
        assertEquals(before + 3, storage.currentRevision());
        assertEquals(untouched, storage.get("/registry/x/a").orElseThrow(), "an equal key is not written");
        KeyValue c = storage.get("/registry/x/c").orElseThrow();
        assertTrue(c.createRevision() > before && c.modRevision() == c.createRevision(), "c is created anew: " + c);
        assertTrue(storage.get("/registry/x/b").orElseThrow().modRevision() > before, "b's version grows");
        assertEquals(3, snapshot.size());
    }

    @Test
    @DisplayName("an open watch should see the restore as ordinary events in key order, with previous values")
    void watchSeesRestore() {
        KeySpace snapshot = snapshotThenChange();
        long before = storage.currentRevision();
        Recorder events = new Recorder();
        try (Watch ignored = storage.watch("/registry/x/", 0, events)) {
            snapshots.restore(snapshot);
            List<WatchEvent> got = events.next(3);
            WatchEvent.Put b = assertInstanceOf(WatchEvent.Put.class, got.get(0));
            assertEquals("/registry/x/b", b.current().key());
            assertEquals("2", new String(b.current().value(), UTF_8));
            assertEquals("2'", new String(b.previous().value(), UTF_8));
            WatchEvent.Put c = assertInstanceOf(WatchEvent.Put.class, got.get(1));
            assertEquals("/registry/x/c", c.current().key());
            assertNull(c.previous(), "c was absent: an ADDED event");
            WatchEvent.Delete d = assertInstanceOf(WatchEvent.Delete.class, got.get(2));
            assertEquals("/registry/x/d", d.previous().key());
            assertEquals(List.of(before + 1, before + 2, before + 3), got.stream().map(WatchEvent::revision).toList());
        }
    }

    @Test
    @DisplayName("a watch from before the restore should replay it, and old revisions should stay readable")
    void historyKeepsBothSides() {
        KeySpace snapshot = snapshotThenChange();
        long before = storage.currentRevision();
        snapshots.restore(snapshot);

        Recorder replay = new Recorder();
        try (Watch ignored = storage.watch("/registry/x/", before, replay)) {
            assertEquals(List.of(before + 1, before + 2, before + 3),
                    replay.next(3).stream().map(WatchEvent::revision).toList());
        }
        List<String> then = storage.range("/registry/x/", null, 0, before).items().stream().map(KeyValue::key).toList();
        assertEquals(List.of("/registry/x/a", "/registry/x/b", "/registry/x/d"), then);
    }

    @Test
    @DisplayName("a compare-and-swap with a modRevision from before the restore should conflict")
    void staleWriteConflicts() {
        storage.create("/registry/x/a", bytes("1"));
        KeySpace snapshot = snapshots.snapshot();
        KeyValue changed = storage.update("/registry/x/a", bytes("2"), storage.get("/registry/x/a").orElseThrow().modRevision());
        snapshots.restore(snapshot);
        assertThrows(StorageException.Conflict.class,
                () -> storage.update("/registry/x/a", bytes("3"), changed.modRevision()));
    }

    @Test
    @DisplayName("restoring an unchanged store should write nothing, and an empty snapshot should delete everything")
    void noOpAndEmpty() {
        KeySpace empty = snapshots.snapshot();
        assertEquals(0, empty.revision());
        storage.create("/registry/x/a", bytes("1"));
        KeySpace one = snapshots.snapshot();
        long revision = storage.currentRevision();
        assertEquals(new Snapshots.Restored(revision, 0, 0, 0), snapshots.restore(one));
        assertEquals(1, snapshots.restore(empty).deleted());
        assertEquals(Map.of(), contents());
    }

    @Test
    @DisplayName("a range at the current revision should see all of a restore or none of it")
    void atomicForReaders() throws Exception {
        for (int i = 0; i < 200; i++) {
            storage.create("/registry/x/k" + i, bytes("old"));
        }
        KeySpace snapshot = snapshots.snapshot();
        for (KeyValue kv : storage.range("/registry/x/", null, 0, 0).items()) {
            storage.update(kv.key(), bytes("new"), kv.modRevision());
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> mixed = new AtomicReference<>();
        CountDownLatch reading = new CountDownLatch(1);
        Thread reader = Thread.ofPlatform().start(() -> {
            while (!stop.get()) {
                List<String> values = storage.range("/registry/x/", null, 0, 0).items().stream()
                        .map(kv -> new String(kv.value(), UTF_8)).distinct().toList();
                if (values.size() != 1) {
                    mixed.set("a read saw " + values);
                }
                reading.countDown();
            }
        });
        assertTrue(reading.await(10, TimeUnit.SECONDS));
        snapshots.restore(snapshot);
        stop.set(true);
        reader.join(10_000);
        assertNull(mixed.get());
        assertEquals(List.of("old"), storage.range("/registry/x/", null, 0, 0).items().stream()
                .map(kv -> new String(kv.value(), UTF_8)).distinct().toList());
    }

    @Test
    @DisplayName("writers racing a restore should wait for it and then apply on the restored state")
    void concurrentWriters() throws Exception {
        storage.create("/registry/x/counter", bytes("0"));
        KeySpace snapshot = snapshots.snapshot();
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int n = t;
            writers.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 50; i++) {
                    storage.create("/registry/y/w" + n + "-" + i, bytes("v"));
                }
            }));
        }
        Snapshots.Restored restored = snapshots.restore(snapshot);
        for (Thread w : writers) {
            w.join(30_000);
        }
        int left = storage.range("/registry/y/", null, 0, 0).items().size();
        assertEquals(200 - restored.deleted(), left, "writes after the restore survive; those before it are undone");
        assertEquals("0", new String(storage.get("/registry/x/counter").orElseThrow().value(), UTF_8));
    }

    @Test
    @DisplayName("a closed store should refuse a restore; the durable backends do not offer snapshots")
    void unavailable(@TempDir Path dir) {
        KeySpace snapshot = snapshots.snapshot();
        storage.close();
        assertThrows(StorageException.Unavailable.class, () -> snapshots.restore(snapshot));
        try (Storage embedded = Storages.embedded(dir)) {
            assertFalse(Storages.snapshots(embedded).isPresent());
        }
    }

    @Test
    @DisplayName("a scoped restore should leave keys outside the scope alone, present now or in the snapshot")
    void scoped() {
        storage.create("/registry/x/a", bytes("1"));
        KeyValue beat = storage.create("/registry/beat/me", bytes("t1"));
        storage.create("/registry/beat/old", bytes("t1"));
        KeySpace snapshot = snapshots.snapshot();
        storage.delete("/registry/x/a", 0);
        storage.update("/registry/beat/me", bytes("t2"), beat.modRevision());
        storage.delete("/registry/beat/old", 0);
        storage.create("/registry/beat/new", bytes("t2"));

        Snapshots.Restored restored = snapshots.restore(snapshot, key -> !key.startsWith("/registry/beat/"));

        assertEquals(1, restored.writes());
        assertEquals(Map.of("/registry/x/a", "1", "/registry/beat/me", "t2", "/registry/beat/new", "t2"), contents());
    }

    @Test
    @DisplayName("a key space must be in key order")
    void keyOrder() {
        assertThrows(IllegalArgumentException.class, () -> new KeySpace(2, List.of(
                new KeyValue("/b", bytes("1"), 1, 1), new KeyValue("/a", bytes("2"), 2, 2))));
    }
}
