package io.kapi.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.fixtures.Await;
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

/**
 * The behaviour every {@link Storage} backend must show; one subclass per backend. Revisions are
 * compared with those the writes returned, never counted: the contract promises unique, growing
 * revisions, not consecutive ones (etcd's also move with writes elsewhere). Backends that do count
 * +1 per write say so with {@link #gapFreeRevisions()}, and the few tests of that run for them only.
 */
abstract class StorageContract {

    static final int WATCH_QUEUE = 64;

    /** Options for tests: no automatic compaction, small watch queues. */
    static final StorageOptions TEST_OPTIONS = StorageOptions.DEFAULT
            .withCompactionCheckInterval(Duration.ZERO)
            .withWatchQueueCapacity(WATCH_QUEUE);

    protected Storage storage;

    /** Opens a fresh, empty store (a new one on each call). */
    protected abstract Storage open(StorageOptions options);

    /** Whether the backend counts revisions +1 per write from 0 (memory, embedded), beyond the contract. */
    protected boolean gapFreeRevisions() {
        return false;
    }

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
        long before = storage.currentRevision();
        KeyValue a = storage.create("/registry/r/a", bytes("1"));
        assertTrue(a.createRevision() > before);
        assertEquals(a.createRevision(), a.modRevision());
        assertTrue(storage.currentRevision() >= a.modRevision(), "the current revision covers every returned write");
        KeyValue b = storage.create("/registry/r/b", bytes("2"));
        assertTrue(b.modRevision() > a.modRevision());
        assertThrows(StorageException.KeyExists.class, () -> storage.create("/registry/r/a", bytes("x")));
        KeyValue kept = storage.get("/registry/r/a").orElseThrow();
        assertEquals("1", text(kept), "a failed create changes nothing");
        assertEquals(a.modRevision(), kept.modRevision());
        if (gapFreeRevisions()) {
            assertEquals(1, a.modRevision());
            assertEquals(2, b.modRevision());
            assertEquals(2, storage.currentRevision(), "a failed write must not use a revision");
        }
    }

    @Test
    @DisplayName("get should return the current value, or empty for a missing or deleted key")
    void getCurrent() {
        assertTrue(storage.get("/registry/r/a").isEmpty());
        KeyValue created = storage.create("/registry/r/a", bytes("1"));
        KeyValue updated = storage.update("/registry/r/a", bytes("2"), created.modRevision());
        KeyValue read = storage.get("/registry/r/a").orElseThrow();
        assertEquals("2", text(read));
        assertEquals(created.createRevision(), read.createRevision());
        assertEquals(updated.modRevision(), read.modRevision());
        storage.delete("/registry/r/a", 0);
        assertTrue(storage.get("/registry/r/a").isEmpty());
    }

    @Test
    @DisplayName("update with a stale mod revision should fail with a conflict carrying the current value")
    void updateConflict() {
        KeyValue created = storage.create("/registry/r/a", bytes("1"));
        KeyValue updated = storage.update("/registry/r/a", bytes("2"), created.modRevision());
        assertEquals(created.createRevision(), updated.createRevision());
        assertTrue(updated.modRevision() > created.modRevision());
        var conflict = assertThrows(StorageException.Conflict.class,
                () -> storage.update("/registry/r/a", bytes("3"), created.modRevision()));
        assertEquals(updated.modRevision(), conflict.current().modRevision());
        assertEquals("2", text(conflict.current()));
        assertThrows(StorageException.KeyNotFound.class, () -> storage.update("/registry/r/missing", bytes("x"), 1));
        assertThrows(StorageException.KeyNotFound.class, () -> storage.update("/registry/r/missing", bytes("x"), 0),
                "an update never creates, whatever revision it expects");
        assertEquals("2", text(storage.get("/registry/r/a").orElseThrow()));
        assertTrue(storage.get("/registry/r/missing").isEmpty());
        if (gapFreeRevisions()) {
            assertEquals(2, storage.currentRevision());
        }
    }

    @Test
    @DisplayName("delete should honour a precondition when given, and fail for a missing key")
    void deleteWithAndWithoutPrecondition() {
        KeyValue a = storage.create("/registry/r/a", bytes("1"));
        storage.create("/registry/r/b", bytes("2"));
        var conflict = assertThrows(StorageException.Conflict.class, () -> storage.delete("/registry/r/a", 99));
        assertEquals(a.modRevision(), conflict.current().modRevision());
        KeyValue deleted = storage.delete("/registry/r/a", a.modRevision());
        assertEquals("1", text(deleted));
        assertEquals(a.modRevision(), deleted.modRevision());
        assertEquals("2", text(storage.delete("/registry/r/b", 0)));
        assertThrows(StorageException.KeyNotFound.class, () -> storage.delete("/registry/r/a", 0));
        assertThrows(StorageException.KeyNotFound.class, () -> storage.delete("/registry/r/a", a.modRevision()));
        KeyValue recreated = storage.create("/registry/r/a", bytes("3"));
        assertTrue(recreated.createRevision() > a.createRevision(), "a re-created key starts a new life");
        assertEquals(recreated.createRevision(), recreated.modRevision());
        if (gapFreeRevisions()) {
            assertEquals(5, recreated.createRevision());
        }
    }

    @Test
    @DisplayName("range should page by startKey and limit, counting the keys after the page, and stay in its prefix")
    void rangePaging() {
        storage.create("/registry/r/pods/", bytes("prefix-only key is in range"));
        for (String name : List.of("e", "a", "c", "b", "d")) {
            storage.create("/registry/r/pods/ns/" + name, bytes(name));
        }
        storage.create("/registry/r/pods0", bytes("outside"));
        storage.create("/registry/r/podsx/ns/a", bytes("outside"));
        storage.create("/registry/r/pod", bytes("outside"));

        RangeResult first = storage.range("/registry/r/pods/ns/", null, 2, 0);
        assertEquals(List.of("/registry/r/pods/ns/a", "/registry/r/pods/ns/b"), keys(first));
        assertTrue(first.more());
        assertEquals(3, first.remaining());
        assertEquals(storage.currentRevision(), first.revision());

        storage.create("/registry/r/pods/ns/bb", bytes("written after the first page"));
        RangeResult second = storage.range("/registry/r/pods/ns/", "/registry/r/pods/ns/b\0", 2, first.revision());
        assertEquals(List.of("/registry/r/pods/ns/c", "/registry/r/pods/ns/d"), keys(second));
        assertEquals(1, second.remaining());
        RangeResult last = storage.range("/registry/r/pods/ns/", "/registry/r/pods/ns/d\0", 2, first.revision());
        assertEquals(List.of("/registry/r/pods/ns/e"), keys(last));
        assertFalse(last.more());
        assertEquals(0, last.remaining());

        RangeResult all = storage.range("/registry/r/pods/", null, 0, 0);
        assertEquals(7, all.items().size());
        assertFalse(all.more());
        assertEquals("/registry/r/pods/", all.items().getFirst().key());
    }

    @Test
    @DisplayName("range at an old revision should see the snapshot of that revision")
    void rangeAtOldRevision() {
        KeyValue a = storage.create("/registry/r/a", bytes("a1"));
        storage.create("/registry/r/b", bytes("b1"));
        long old = storage.create("/registry/r/d", bytes("d1")).modRevision();
        storage.update("/registry/r/a", bytes("a2"), a.modRevision());
        storage.delete("/registry/r/b", 0);
        storage.create("/registry/r/c", bytes("c1"));
        storage.delete("/registry/r/d", 0);
        storage.create("/registry/r/d", bytes("d2"));
        storage.create("/registry/s/other", bytes("other"));

        RangeResult then = storage.range("/registry/r/", null, 0, old);
        assertEquals(List.of("/registry/r/a", "/registry/r/b", "/registry/r/d"), keys(then));
        assertEquals(List.of("a1", "b1", "d1"), then.items().stream().map(StorageContract::text).toList());
        assertEquals(old, then.revision());

        RangeResult pageThen = storage.range("/registry/r/", null, 1, old);
        assertEquals(List.of("/registry/r/a"), keys(pageThen));
        assertEquals(2, pageThen.remaining());
        RangeResult fromB = storage.range("/registry/r/", "/registry/r/a\0", 0, old);
        assertEquals(List.of("/registry/r/b", "/registry/r/d"), keys(fromB));

        RangeResult now = storage.range("/registry/r/", null, 0, 0);
        assertEquals(List.of("a2", "c1", "d2"), now.items().stream().map(StorageContract::text).toList());
        KeyValue d = now.items().get(2);
        assertEquals(d.modRevision(), d.createRevision());
    }

    @Test
    @DisplayName("compaction should make older revisions unreadable but keep current values")
    void compactedRevision() {
        long a1 = storage.create("/registry/r/a", bytes("a1")).modRevision();
        long b1 = storage.create("/registry/r/b", bytes("b1")).modRevision();
        long a2 = storage.update("/registry/r/a", bytes("a2"), a1).modRevision();
        assertEquals(b1, storage.delete("/registry/r/b", 0).modRevision());
        long deleted = storage.currentRevision();
        storage.create("/registry/r/c", bytes("c1"));
        storage.compact(deleted);
        assertEquals(deleted, storage.compactedRevision());

        var compacted = assertThrows(StorageException.Compacted.class,
                () -> storage.range("/registry/r/", null, 0, a2));
        assertEquals(deleted, compacted.compactedRevision());
        assertThrows(StorageException.Compacted.class, () -> storage.watch("/registry/r/", a2, event -> { }));
        assertEquals(List.of("/registry/r/a"), keys(storage.range("/registry/r/", null, 0, deleted)));
        assertEquals(List.of("/registry/r/a", "/registry/r/c"), keys(storage.range("/registry/r/", null, 0, 0)));
        assertEquals("a2", text(storage.get("/registry/r/a").orElseThrow()));

        storage.compact(a1);
        assertEquals(deleted, storage.compactedRevision(), "compaction never goes back");
    }

    @Test
    @DisplayName("watch from a revision should replay exactly the later events in order, with previous values, then live ones")
    void watchReplaysThenLive() {
        long from = storage.create("/registry/r/a", bytes("a1")).modRevision();
        long a2 = storage.update("/registry/r/a", bytes("a2"), from).modRevision();
        long b1 = storage.create("/registry/r/b", bytes("b1")).modRevision();
        storage.delete("/registry/r/a", 0);
        long deleted = storage.currentRevision();

        Recorder recorder = new Recorder();
        try (Watch ignored = storage.watch("/registry/r/", from, recorder)) {
            List<WatchEvent> replayed = recorder.next(3);
            var update = assertInstanceOf(WatchEvent.Put.class, replayed.get(0));
            assertEquals(a2, update.revision());
            assertEquals("a2", text(update.current()));
            assertEquals("a1", text(update.previous()));
            var create = assertInstanceOf(WatchEvent.Put.class, replayed.get(1));
            assertEquals(b1, create.revision());
            assertNull(create.previous());
            var delete = assertInstanceOf(WatchEvent.Delete.class, replayed.get(2));
            assertEquals(deleted, delete.revision());
            assertEquals("a2", text(delete.previous()));
            assertEquals(a2, delete.previous().modRevision());

            long b2 = storage.update("/registry/r/b", bytes("b2"), b1).modRevision();
            var live = assertInstanceOf(WatchEvent.Put.class, recorder.next());
            assertEquals(b2, live.revision());
            assertEquals("b1", text(live.previous()));
        }
    }

    @Test
    @DisplayName("a progress request should be answered after the pending events, at least at the store's revision")
    void progressAfterEvents() {
        Recorder recorder = new Recorder();
        try (Watch watch = storage.watch("/registry/r/a/", 0, recorder)) {
            long x = storage.create("/registry/r/a/x", bytes("1")).modRevision();
            storage.create("/registry/r/b/y", bytes("2"));
            storage.create("/registry/r/b/z", bytes("3"));
            long now = storage.currentRevision();
            watch.requestProgress();
            assertEquals(x, assertInstanceOf(WatchEvent.Put.class, recorder.next()).revision());
            var progress = assertInstanceOf(WatchEvent.Progress.class, recorder.next());
            assertTrue(progress.revision() >= now, "progress at " + progress.revision() + ", store at " + now);
        }
    }

    @Test
    @DisplayName("a progress request during history replay should come after the replayed events")
    void progressDuringReplay() {
        long created = storage.create("/registry/r/a/x", bytes("1")).modRevision();
        long updated = storage.update("/registry/r/a/x", bytes("2"), created).modRevision();
        long other = storage.create("/registry/r/b/y", bytes("3")).modRevision();
        Recorder recorder = new Recorder();
        try (Watch watch = storage.watch("/registry/r/a/", created, recorder)) {
            watch.requestProgress();
            assertEquals(updated, assertInstanceOf(WatchEvent.Put.class, recorder.next()).revision());
            assertTrue(assertInstanceOf(WatchEvent.Progress.class, recorder.next()).revision() >= other);
        }
    }

    @Test
    @DisplayName("progress should never vouch for a revision whose events under the prefix were not delivered yet")
    void progressNeverAheadOfEvents() throws Exception {
        storage.close();
        storage = open(TEST_OPTIONS.withWatchQueueCapacity(100_000));
        Storage roomy = storage;
        List<WatchEvent> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.Map<Long, String> written = new java.util.concurrent.ConcurrentHashMap<>();
        long start = roomy.create("/registry/r/a/first", bytes("v")).modRevision();
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread writer = Thread.ofVirtual().start(() -> {
            for (int i = 0; writing.get() && i < 2000; i++) {
                String key = (i % 2 == 0 ? "/registry/r/a/w" : "/registry/r/b/w") + i;
                written.put(roomy.create(key, bytes("v")).modRevision(), key);
            }
        });
        int progressRounds = 15;
        try (Watch watch = roomy.watch("/registry/r/a/", start, seen::add)) {
            for (int round = 0; round < progressRounds; round++) {
                long now = roomy.currentRevision();
                watch.requestProgress();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (seen.stream().noneMatch(e -> e instanceof WatchEvent.Progress p && p.revision() >= now)) {
                    assertTrue(System.nanoTime() < deadline, "no progress at " + now + " within 10 s; seen " + seen.size() + " last " + (seen.isEmpty() ? null : seen.getLast()));
                    Thread.sleep(1);
                }
            }
        } finally {
            writing.set(false);
            writer.join();
        }
        Set<Long> delivered = new TreeSet<>();
        int progresses = 0;
        for (WatchEvent e : List.copyOf(seen)) {
            if (e instanceof WatchEvent.Put put) {
                delivered.add(put.revision());
            } else if (e instanceof WatchEvent.Progress progress) {
                progresses++;
                for (var w : written.entrySet()) {
                    if (w.getValue().startsWith("/registry/r/a/") && w.getKey() <= progress.revision()) {
                        assertTrue(delivered.contains(w.getKey()), "progress " + progress.revision()
                                + " came before the event of " + w.getValue() + " at " + w.getKey());
                    }
                }
            }
        }
        assertTrue(progresses >= 1, "progress answered " + progresses + " times");
    }

    @Test
    @DisplayName("a watch of the whole key space should see writes of every prefix, and no progress fence as a write")
    void watchEverything() {
        Recorder all = new Recorder();
        try (Watch everything = storage.watch("", 0, all); Watch pods = storage.watch("/registry/r/pods/", 0, event -> { })) {
            long a = storage.create("/registry/r/pods/ns/a", bytes("1")).modRevision();
            pods.requestProgress();
            everything.requestProgress();
            long b = storage.create("/registry/r/configmaps/ns/b", bytes("2")).modRevision();
            List<Long> writes = new ArrayList<>();
            while (writes.size() < 2) {
                WatchEvent event = all.next();
                if (event instanceof WatchEvent.Progress) {
                    continue;
                }
                writes.add(event.revision());
                assertTrue(io.kapi.storage.core.Events.key(event).startsWith("/registry/r/"), "a write of Kapi's: " + event);
            }
            assertEquals(List.of(a, b), writes);
            assertEquals(List.of("/registry/r/configmaps/ns/b", "/registry/r/pods/ns/a"),
                    keys(storage.range("", null, 0, 0)), "no fence in a range");
            RangeResult page = storage.range("/registry/", null, 1, 0);
            assertEquals(List.of("/registry/r/configmaps/ns/b"), keys(page));
            assertTrue(page.more());
        }
    }

    @Test
    @DisplayName("a write larger than etcd's request limit should fail with TooLarge and change nothing")
    void tooLarge() {
        byte[] big = new byte[Storage.MAX_REQUEST_BYTES + 1];
        assertThrows(StorageException.TooLarge.class, () -> storage.create("/registry/r/big", big));
        assertTrue(storage.get("/registry/r/big").isEmpty());
        KeyValue small = storage.create("/registry/r/big", bytes("small"));
        assertThrows(StorageException.TooLarge.class, () -> storage.update("/registry/r/big", big, small.modRevision()));
        assertEquals("small", text(storage.get("/registry/r/big").orElseThrow()));
        byte[] fits = new byte[1024 * 1024];
        assertEquals(fits.length, storage.update("/registry/r/big", fits, small.modRevision()).value().length);
    }

    @Test
    @DisplayName("watch from revision 0 should deliver only future writes")
    void watchFromNow() throws InterruptedException {
        storage.create("/registry/r/a", bytes("a1"));
        Recorder recorder = new Recorder();
        try (Watch ignored = storage.watch("/registry/r/", 0, recorder)) {
            long b = storage.create("/registry/r/b", bytes("b1")).modRevision();
            assertEquals(b, recorder.next().revision());
            assertTrue(recorder.drain(50).isEmpty());
        }
    }

    @Test
    @DisplayName("watch should deliver only keys under its prefix, and nothing after close")
    void watchPrefixFiltering() throws InterruptedException {
        Recorder pods = new Recorder();
        Watch watch = storage.watch("/registry/r/pods/ns1/", 0, pods);
        long a = storage.create("/registry/r/pods/ns1/a", bytes("1")).modRevision();
        storage.create("/registry/r/pods/ns2/a", bytes("2"));
        storage.create("/registry/r/pods/ns10/a", bytes("3"));
        long b = storage.create("/registry/r/pods/ns1/b", bytes("4")).modRevision();
        List<WatchEvent> events = pods.next(2);
        assertEquals(List.of(a, b), events.stream().map(WatchEvent::revision).toList());
        watch.close();
        watch.close();
        storage.create("/registry/r/pods/ns1/c", bytes("5"));
        assertTrue(pods.drain(50).isEmpty());
    }

    @Test
    @DisplayName("a watch started during writes should see every later revision once, in order")
    void watchNoGapBetweenReplayAndLive() throws Exception {
        storage.close();
        storage = open(TEST_OPTIONS.withWatchQueueCapacity(100_000));
        Storage roomy = storage;
        List<Long> written = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int i = 0; i < 50; i++) {
            written.add(roomy.create("/registry/r/k" + i, bytes("v")).modRevision());
        }
        long from = written.get(9);
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread writer = Thread.ofVirtual().start(() -> {
            for (int i = 50; i < 400 && writing.get(); i++) {
                written.add(roomy.create("/registry/r/k" + i, bytes("v")).modRevision());
            }
        });
        Recorder recorder = new Recorder();
        Await.atMost(Duration.ofSeconds(10)).every(Duration.ofMillis(1)).until("the writer under way",
                () -> written.size() > 50);
        try (Watch ignored = roomy.watch("/registry/r/", from, recorder)) {
            writer.join();
            List<Long> expected = written.stream().filter(r -> r > from).sorted().toList();
            List<WatchEvent> events = recorder.next(expected.size());
            assertEquals(expected, events.stream().map(WatchEvent::revision).toList());
            assertTrue(recorder.drain(50).isEmpty());
        } finally {
            writing.set(false);
        }
    }

    @Test
    @DisplayName("a watch whose history is compacted during replay should end with Compacted, never skip events")
    void compactionDuringReplay() throws Exception {
        List<Long> written = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            written.add(storage.create("/registry/r/k" + i, bytes("v")).modRevision());
        }
        CountDownLatch firstSeen = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Recorder recorder = new Recorder();
        try (Watch ignored = storage.watch("/registry/r/", written.getFirst(), event -> {
            recorder.accept(event);
            firstSeen.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })) {
            await(firstSeen);
            storage.compact(written.get(59));
            release.countDown();
            int next = 1;
            while (true) {
                WatchEvent event = recorder.next();
                if (event instanceof WatchEvent.Error error) {
                    assertInstanceOf(StorageException.Compacted.class, error.cause());
                    assertEquals(written.get(next - 1), error.revision());
                    break;
                }
                assertEquals(written.get(next++), event.revision(), "no event skipped");
                if (next == written.size()) {
                    break; // the backend's replay read a consistent view (or had it all already): complete, also fine
                }
            }
        }
    }

    @Test
    @DisplayName("concurrent creates from many threads should get unique revisions, and every key")
    void concurrentCreates() throws Exception {
        int threads = 8;
        int perThread = 100;
        long before = storage.currentRevision();
        ConcurrentLinkedQueue<Long> revisions = new ConcurrentLinkedQueue<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                int thread = t;
                pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        revisions.add(storage.create("/registry/r/t" + thread + "/" + i, bytes("v")).modRevision());
                    }
                });
            }
        }
        Set<Long> unique = new TreeSet<>(revisions);
        assertEquals(threads * perThread, revisions.size());
        assertEquals(threads * perThread, unique.size(), "every write has its own revision");
        assertTrue(((TreeSet<Long>) unique).first() > before);
        assertTrue(storage.currentRevision() >= ((TreeSet<Long>) unique).last());
        assertEquals(threads * perThread, storage.range("/registry/r/", null, 0, 0).items().size());
        if (gapFreeRevisions()) {
            assertEquals(LongStream.rangeClosed(1, threads * perThread).boxed().toList(), new ArrayList<>(unique));
            assertEquals(threads * perThread, storage.currentRevision());
        }
    }

    @Test
    @DisplayName("a watcher that falls too far behind should get an error and end, while other watchers continue")
    void slowWatcherIsCutOff() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Recorder slow = new Recorder();
        Recorder fast = new Recorder();
        storage.watch("/registry/r/", 0, event -> {
            slow.accept(event);
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try (Watch ignored = storage.watch("/registry/r/", 0, fast)) {
            int writes = WATCH_QUEUE * 3;
            int chunk = WATCH_QUEUE / 2;
            for (int i = 0; i < writes; i++) {
                storage.create("/registry/r/k" + i, bytes("v"));
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
            long after = storage.create("/registry/r/after", bytes("v")).modRevision();
            assertTrue(slow.drain(50).isEmpty(), "nothing after the error");
            assertEquals(after, fast.next().revision());
        }
    }

    @Test
    @DisplayName("closing the store should end watches with an error and refuse further calls")
    void closeEndsWatches() {
        Recorder recorder = new Recorder();
        storage.watch("/registry/r/", 0, recorder);
        storage.close();
        assertInstanceOf(WatchEvent.Error.class, recorder.next());
        assertFalse(storage.healthy());
        assertThrows(StorageException.Unavailable.class, () -> storage.create("/registry/r/a", bytes("v")));
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
        storage.create("/registry/r/bin", value);
        assertArrayEquals(value, storage.get("/registry/r/bin").orElseThrow().value());
        storage.create("/registry/r/empty", new byte[0]);
        assertEquals(0, storage.get("/registry/r/empty").orElseThrow().value().length);
    }

    static List<String> keys(RangeResult result) {
        return result.items().stream().map(KeyValue::key).toList();
    }

    static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(10, TimeUnit.SECONDS));
    }
}
