package io.kapi.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The behaviour every {@link Storage} backend must show; one subclass per backend. */
abstract class StorageContract {

    static final int WATCH_QUEUE = 64;

    /** Options for tests: no automatic compaction, small watch queues. */
    static final StorageOptions TEST_OPTIONS = StorageOptions.DEFAULT
            .withCompactionCheckInterval(Duration.ZERO)
            .withWatchQueueCapacity(WATCH_QUEUE);

    protected Storage storage;

    /** Opens a fresh, empty store (a new one on each call). */
    protected abstract Storage open(StorageOptions options);

    @BeforeEach
    void openStore() {
        storage = open(TEST_OPTIONS);
    }

    @AfterEach
    void closeStore() {
        storage.close();
    }

    static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    static String text(KeyValue kv) {
        return new String(kv.value(), UTF_8);
    }

    @Test
    @DisplayName("create should assign the next revision as create and mod revision, and refuse an existing key")
    void createThenExists() {
        assertEquals(0, storage.currentRevision());
        KeyValue a = storage.create("/r/a", bytes("1"));
        assertEquals(1, a.createRevision());
        assertEquals(1, a.modRevision());
        KeyValue b = storage.create("/r/b", bytes("2"));
        assertEquals(2, b.modRevision());
        assertThrows(StorageException.KeyExists.class, () -> storage.create("/r/a", bytes("x")));
        assertEquals(2, storage.currentRevision(), "a failed write must not use a revision");
    }

    @Test
    @DisplayName("get should return the current value, or empty for a missing or deleted key")
    void getCurrent() {
        assertTrue(storage.get("/r/a").isEmpty());
        storage.create("/r/a", bytes("1"));
        KeyValue updated = storage.update("/r/a", bytes("2"), 1);
        KeyValue read = storage.get("/r/a").orElseThrow();
        assertEquals("2", text(read));
        assertEquals(1, read.createRevision());
        assertEquals(updated.modRevision(), read.modRevision());
        storage.delete("/r/a", 0);
        assertTrue(storage.get("/r/a").isEmpty());
    }

    @Test
    @DisplayName("update with a stale mod revision should fail with a conflict carrying the current value")
    void updateConflict() {
        KeyValue created = storage.create("/r/a", bytes("1"));
        KeyValue updated = storage.update("/r/a", bytes("2"), created.modRevision());
        assertEquals(created.createRevision(), updated.createRevision());
        assertEquals(2, updated.modRevision());
        var conflict = assertThrows(StorageException.Conflict.class,
                () -> storage.update("/r/a", bytes("3"), created.modRevision()));
        assertEquals(2, conflict.current().modRevision());
        assertEquals("2", text(conflict.current()));
        assertThrows(StorageException.KeyNotFound.class, () -> storage.update("/r/missing", bytes("x"), 1));
        assertEquals(2, storage.currentRevision());
    }

    @Test
    @DisplayName("delete should honour a precondition when given, and fail for a missing key")
    void deleteWithAndWithoutPrecondition() {
        KeyValue a = storage.create("/r/a", bytes("1"));
        storage.create("/r/b", bytes("2"));
        var conflict = assertThrows(StorageException.Conflict.class, () -> storage.delete("/r/a", 99));
        assertEquals(a.modRevision(), conflict.current().modRevision());
        KeyValue deleted = storage.delete("/r/a", a.modRevision());
        assertEquals("1", text(deleted));
        assertEquals(a.modRevision(), deleted.modRevision());
        assertEquals("2", text(storage.delete("/r/b", 0)));
        assertThrows(StorageException.KeyNotFound.class, () -> storage.delete("/r/a", 0));
        assertEquals(4, storage.currentRevision());
        KeyValue recreated = storage.create("/r/a", bytes("3"));
        assertEquals(5, recreated.createRevision(), "a re-created key starts a new life");
    }

    @Test
    @DisplayName("range should page by startKey and limit, counting the keys after the page, and stay in its prefix")
    void rangePaging() {
        storage.create("/r/pods/", bytes("prefix-only key is in range"));
        for (String name : List.of("e", "a", "c", "b", "d")) {
            storage.create("/r/pods/ns/" + name, bytes(name));
        }
        storage.create("/r/pods0", bytes("outside"));
        storage.create("/r/podsx/ns/a", bytes("outside"));
        storage.create("/r/pod", bytes("outside"));

        RangeResult first = storage.range("/r/pods/ns/", null, 2, 0);
        assertEquals(List.of("/r/pods/ns/a", "/r/pods/ns/b"), keys(first));
        assertTrue(first.more());
        assertEquals(3, first.remaining());
        assertEquals(storage.currentRevision(), first.revision());

        storage.create("/r/pods/ns/bb", bytes("written after the first page"));
        RangeResult second = storage.range("/r/pods/ns/", "/r/pods/ns/b\0", 2, first.revision());
        assertEquals(List.of("/r/pods/ns/c", "/r/pods/ns/d"), keys(second));
        assertEquals(1, second.remaining());
        RangeResult last = storage.range("/r/pods/ns/", "/r/pods/ns/d\0", 2, first.revision());
        assertEquals(List.of("/r/pods/ns/e"), keys(last));
        assertFalse(last.more());
        assertEquals(0, last.remaining());

        RangeResult all = storage.range("/r/pods/", null, 0, 0);
        assertEquals(7, all.items().size());
        assertFalse(all.more());
        assertEquals("/r/pods/", all.items().getFirst().key());
    }

    @Test
    @DisplayName("range at an old revision should see the snapshot of that revision")
    void rangeAtOldRevision() {
        storage.create("/r/a", bytes("a1"));
        storage.create("/r/b", bytes("b1"));
        storage.create("/r/d", bytes("d1"));
        long old = storage.currentRevision();
        storage.update("/r/a", bytes("a2"), 1);
        storage.delete("/r/b", 0);
        storage.create("/r/c", bytes("c1"));
        storage.delete("/r/d", 0);
        storage.create("/r/d", bytes("d2"));
        storage.create("/s/other", bytes("other"));

        RangeResult then = storage.range("/r/", null, 0, old);
        assertEquals(List.of("/r/a", "/r/b", "/r/d"), keys(then));
        assertEquals(List.of("a1", "b1", "d1"), then.items().stream().map(StorageContract::text).toList());
        assertEquals(old, then.revision());

        RangeResult pageThen = storage.range("/r/", null, 1, old);
        assertEquals(List.of("/r/a"), keys(pageThen));
        assertEquals(2, pageThen.remaining());
        RangeResult fromB = storage.range("/r/", "/r/a\0", 0, old);
        assertEquals(List.of("/r/b", "/r/d"), keys(fromB));

        RangeResult now = storage.range("/r/", null, 0, 0);
        assertEquals(List.of("a2", "c1", "d2"), now.items().stream().map(StorageContract::text).toList());
        KeyValue d = now.items().get(2);
        assertEquals(d.modRevision(), d.createRevision());
    }

    @Test
    @DisplayName("compaction should make older revisions unreadable but keep current values")
    void compactedRevision() {
        storage.create("/r/a", bytes("a1"));
        storage.create("/r/b", bytes("b1"));
        storage.update("/r/a", bytes("a2"), 1);
        storage.delete("/r/b", 0);
        storage.create("/r/c", bytes("c1"));
        storage.compact(4);
        assertEquals(4, storage.compactedRevision());

        var compacted = assertThrows(StorageException.Compacted.class, () -> storage.range("/r/", null, 0, 3));
        assertEquals(4, compacted.compactedRevision());
        assertThrows(StorageException.Compacted.class, () -> storage.watch("/r/", 3, event -> { }));
        assertEquals(List.of("/r/a"), keys(storage.range("/r/", null, 0, 4)));
        assertEquals(List.of("/r/a", "/r/c"), keys(storage.range("/r/", null, 0, 0)));
        assertEquals("a2", text(storage.get("/r/a").orElseThrow()));

        storage.compact(2);
        assertEquals(4, storage.compactedRevision(), "compaction never goes back");
    }

    @Test
    @DisplayName("watch from a revision should replay exactly the later events in order, with previous values, then live ones")
    void watchReplaysThenLive() {
        storage.create("/r/a", bytes("a1"));
        long from = storage.currentRevision();
        storage.update("/r/a", bytes("a2"), 1);
        storage.create("/r/b", bytes("b1"));
        storage.delete("/r/a", 0);

        Recorder recorder = new Recorder();
        try (Watch ignored = storage.watch("/r/", from, recorder)) {
            List<WatchEvent> replayed = recorder.next(3);
            var update = assertInstanceOf(WatchEvent.Put.class, replayed.get(0));
            assertEquals(2, update.revision());
            assertEquals("a2", text(update.current()));
            assertEquals("a1", text(update.previous()));
            var create = assertInstanceOf(WatchEvent.Put.class, replayed.get(1));
            assertEquals(3, create.revision());
            assertNull(create.previous());
            var delete = assertInstanceOf(WatchEvent.Delete.class, replayed.get(2));
            assertEquals(4, delete.revision());
            assertEquals("a2", text(delete.previous()));
            assertEquals(2, delete.previous().modRevision());

            storage.update("/r/b", bytes("b2"), 3);
            var live = assertInstanceOf(WatchEvent.Put.class, recorder.next());
            assertEquals(5, live.revision());
            assertEquals("b1", text(live.previous()));
        }
    }

    @Test
    @DisplayName("a progress request should be answered after the pending events, at least at the store's revision")
    void progressAfterEvents() {
        Recorder recorder = new Recorder();
        try (Watch watch = storage.watch("/r/a/", 0, recorder)) {
            storage.create("/r/a/x", bytes("1"));
            storage.create("/r/b/y", bytes("2"));
            storage.create("/r/b/z", bytes("3"));
            watch.requestProgress();
            assertEquals(1, assertInstanceOf(WatchEvent.Put.class, recorder.next()).revision());
            var progress = assertInstanceOf(WatchEvent.Progress.class, recorder.next());
            assertTrue(progress.revision() >= 3, "progress at " + progress.revision());
        }
    }

    @Test
    @DisplayName("a progress request during history replay should come after the replayed events")
    void progressDuringReplay() {
        storage.create("/r/a/x", bytes("1"));
        storage.update("/r/a/x", bytes("2"), 1);
        storage.create("/r/b/y", bytes("3"));
        Recorder recorder = new Recorder();
        try (Watch watch = storage.watch("/r/a/", 1, recorder)) {
            watch.requestProgress();
            assertEquals(2, assertInstanceOf(WatchEvent.Put.class, recorder.next()).revision());
            assertTrue(assertInstanceOf(WatchEvent.Progress.class, recorder.next()).revision() >= 3);
        }
    }

    @Test
    @DisplayName("watch from revision 0 should deliver only future writes")
    void watchFromNow() throws InterruptedException {
        storage.create("/r/a", bytes("a1"));
        Recorder recorder = new Recorder();
        try (Watch ignored = storage.watch("/r/", 0, recorder)) {
            storage.create("/r/b", bytes("b1"));
            assertEquals(2, recorder.next().revision());
            assertTrue(recorder.drain(50).isEmpty());
        }
    }

    @Test
    @DisplayName("watch should deliver only keys under its prefix, and nothing after close")
    void watchPrefixFiltering() throws InterruptedException {
        Recorder pods = new Recorder();
        Watch watch = storage.watch("/r/pods/ns1/", 0, pods);
        storage.create("/r/pods/ns1/a", bytes("1"));
        storage.create("/r/pods/ns2/a", bytes("2"));
        storage.create("/r/pods/ns10/a", bytes("3"));
        storage.create("/r/pods/ns1/b", bytes("4"));
        List<WatchEvent> events = pods.next(2);
        assertEquals(List.of(1L, 4L), events.stream().map(WatchEvent::revision).toList());
        watch.close();
        watch.close();
        storage.create("/r/pods/ns1/c", bytes("5"));
        assertTrue(pods.drain(50).isEmpty());
    }

    @Test
    @DisplayName("a watch started during writes should see every later revision once, in order")
    void watchNoGapBetweenReplayAndLive() throws Exception {
        storage.close();
        storage = open(TEST_OPTIONS.withWatchQueueCapacity(100_000));
        Storage roomy = storage;
        for (int i = 0; i < 50; i++) {
            roomy.create("/r/k" + i, bytes("v"));
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread writer = Thread.ofVirtual().start(() -> {
            for (int i = 50; i < 400 && writing.get(); i++) {
                roomy.create("/r/k" + i, bytes("v"));
            }
        });
        Recorder recorder = new Recorder();
        Thread.sleep(2);
        try (Watch ignored = roomy.watch("/r/", 10, recorder)) {
            writer.join();
            long last = roomy.currentRevision();
            List<WatchEvent> events = recorder.next((int) (last - 10));
            assertEquals(LongStream.rangeClosed(11, last).boxed().toList(),
                    events.stream().map(WatchEvent::revision).toList());
            assertTrue(recorder.drain(50).isEmpty());
        } finally {
            writing.set(false);
        }
    }

    @Test
    @DisplayName("a watch whose history is compacted during replay should end with Compacted, never skip events")
    void compactionDuringReplay() throws Exception {
        for (int i = 0; i < 100; i++) {
            storage.create("/r/k" + i, bytes("v"));
        }
        CountDownLatch firstSeen = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Recorder recorder = new Recorder();
        try (Watch ignored = storage.watch("/r/", 1, event -> {
            recorder.accept(event);
            firstSeen.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })) {
            await(firstSeen);
            storage.compact(60);
            release.countDown();
            long expected = 2;
            while (true) {
                WatchEvent event = recorder.next();
                if (event instanceof WatchEvent.Error error) {
                    assertInstanceOf(StorageException.Compacted.class, error.cause());
                    assertEquals(expected - 1, error.revision());
                    break;
                }
                assertEquals(expected++, event.revision(), "no event skipped");
                if (expected == 101) {
                    break; // the backend's replay read a consistent view: complete, also fine
                }
            }
        }
    }

    @Test
    @DisplayName("concurrent creates from many threads should get unique, gap-free revisions")
    void concurrentCreates() throws Exception {
        int threads = 8;
        int perThread = 100;
        ConcurrentLinkedQueue<Long> revisions = new ConcurrentLinkedQueue<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                int thread = t;
                pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        revisions.add(storage.create("/r/t" + thread + "/" + i, bytes("v")).modRevision());
                    }
                });
            }
        }
        Set<Long> unique = new TreeSet<>(revisions);
        assertEquals(threads * perThread, revisions.size());
        assertEquals(LongStream.rangeClosed(1, threads * perThread).boxed().toList(), new ArrayList<>(unique));
        assertEquals(threads * perThread, storage.currentRevision());
        assertEquals(threads * perThread, storage.range("/r/", null, 0, 0).items().size());
    }

    @Test
    @DisplayName("a watcher that falls too far behind should get an error and end, while other watchers continue")
    void slowWatcherIsCutOff() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Recorder slow = new Recorder();
        Recorder fast = new Recorder();
        storage.watch("/r/", 0, event -> {
            slow.accept(event);
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try (Watch ignored = storage.watch("/r/", 0, fast)) {
            int writes = WATCH_QUEUE * 3;
            int chunk = WATCH_QUEUE / 2;
            for (int i = 0; i < writes; i++) {
                storage.create("/r/k" + i, bytes("v"));
                if (i % chunk == chunk - 1) {
                    assertEquals(chunk, fast.next(chunk).size(), "the fast watcher gets every event");
                }
            }
            release.countDown();
            List<WatchEvent> got = new ArrayList<>();
            WatchEvent event;
            do {
                event = slow.next();
                got.add(event);
            } while (!(event instanceof WatchEvent.Error));
            var error = (WatchEvent.Error) event;
            assertInstanceOf(StorageException.Unavailable.class, error.cause());
            assertTrue(got.size() < writes, "the slow watcher was cut off");
            assertEquals(got.get(got.size() - 2).revision(), error.revision(), "error carries last delivered revision");
            storage.create("/r/after", bytes("v"));
            assertTrue(slow.drain(50).isEmpty(), "nothing after the error");
            assertEquals(writes + 1, fast.next().revision());
        }
    }

    @Test
    @DisplayName("closing the store should end watches with an error and refuse further calls")
    void closeEndsWatches() {
        Recorder recorder = new Recorder();
        storage.watch("/r/", 0, recorder);
        storage.close();
        assertInstanceOf(WatchEvent.Error.class, recorder.next());
        assertFalse(storage.healthy());
        assertThrows(StorageException.Unavailable.class, () -> storage.create("/r/a", bytes("v")));
    }

    @Test
    @DisplayName("a healthy store should report healthy")
    void healthy() {
        assertTrue(storage.healthy());
    }

    @Test
    @DisplayName("values should round-trip byte for byte")
    void valuesRoundTrip() {
        byte[] value = new byte[300];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) i;
        }
        storage.create("/r/bin", value);
        assertArrayEquals(value, storage.get("/r/bin").orElseThrow().value());
        storage.create("/r/empty", new byte[0]);
        assertEquals(0, storage.get("/r/empty").orElseThrow().value().length);
    }

    static List<String> keys(RangeResult result) {
        return result.items().stream().map(KeyValue::key).toList();
    }

    static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(10, TimeUnit.SECONDS));
    }
}
