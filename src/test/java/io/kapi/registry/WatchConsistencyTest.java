package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.fixtures.Await;
import io.kapi.machinery.ApiException;
import io.kapi.storage.Watch;
import io.kapi.storage.WatchEvent;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.Delivery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import io.kapi.harness.StoreCalls;

/**
 * The watch consistency checker: writers create, update and delete configmaps while several watchers
 * read the cache's watch and reconnect, every few events, from the last resourceVersion they saw. Every
 * watcher must see exactly the storage's own sequence of writes: no gap, no duplicate, no reordering.
 */
class WatchConsistencyTest {

    private static final int WRITERS = 4;
    private static final int WRITES_PER_WRITER = 400;
    private static final int WATCHERS = 6;

    @Test
    @DisplayName("watchers reconnecting from their last seen resourceVersion see every write once, in order")
    void noGapNoDuplicateNoReorder() throws Exception {
        try (WatchFixture f = new WatchFixture(WatchFixture.fastOptions())) {
            long start = f.storage.currentRevision();
            List<String> truth = Collections.synchronizedList(new ArrayList<>());
            Watch reference = f.storage.watch("/registry/configmaps/", start, e -> truth.add(expected(e)));
            String startRv = Long.toString(start);
            AtomicLong target = new AtomicLong(Long.MAX_VALUE);
            List<List<String>> seen = new ArrayList<>();
            List<Thread> watchers = new ArrayList<>();
            for (int i = 0; i < WATCHERS; i++) {
                List<String> mine = new ArrayList<>();
                seen.add(mine);
                long seed = i;
                watchers.add(Thread.ofVirtual().start(() -> watchAndReconnect(f, startRv, mine, target, seed)));
            }
            CountDownLatch done = new CountDownLatch(WRITERS);
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                Thread.ofVirtual().start(() -> {
                    try {
                        write(f, writer);
                    } finally {
                        done.countDown();
                    }
                });
            }
            assertTrue(done.await(60, TimeUnit.SECONDS));
            long end = f.storage.currentRevision();
            Await.atMost(Duration.ofSeconds(60)).every(Duration.ofMillis(10)).until("the reference watch at revision " + end,
                    () -> !truth.isEmpty() && truth.getLast().startsWith(end + " "));
            target.set(Long.parseLong(truth.getLast().split(" ")[0]));
            for (Thread t : watchers) {
                t.join(30_000);
            }
            reference.close();
            assertTrue(truth.size() > WRITERS * WRITES_PER_WRITER / 4, "writes happened: " + truth.size());
            for (int i = 0; i < WATCHERS; i++) {
                assertEquals(truth, seen.get(i), "watcher " + i);
            }
        }
    }

    private static void write(WatchFixture f, int writer) {
        Random random = new Random(writer);
        for (int i = 0; i < WRITES_PER_WRITER; i++) {
            String name = "w" + writer + "-" + random.nextInt(20);
            try {
                switch (random.nextInt(3)) {
                    case 0 -> StoreCalls.create(f.configmaps, "default", WatchFixture.configMap(name), false);
                    case 1 -> {
                        ObjectNode cm = f.configmaps.get("default", name);
                        ((ObjectNode) cm.get("data")).put("k", "v" + i);
                        StoreCalls.update(f.configmaps, "default", name, cm, false);
                    }
                    default -> StoreCalls.delete(f.configmaps, "default", name, DeleteOptions.DEFAULT);
                }
            } catch (ApiException e) {
                if (e.code() != 404 && e.code() != 409) {
                    throw e;
                }
            }
        }
    }

    private static void watchAndReconnect(WatchFixture f, String fromRv, List<String> seen, AtomicLong target,
                                          long seed) {
        Random random = new Random(seed);
        String rv = fromRv;
        try {
            while (true) {
                ListOptions options = ListOptions.ALL.atResourceVersion(rv, "");
                try (CacheWatch watch = f.configmaps.watch("default", options)) {
                    int budget = 1 + random.nextInt(40);
                    while (budget-- > 0) {
                        Delivery d = watch.poll(TimeUnit.MILLISECONDS.toNanos(200));
                        if (d == null) {
                            if (Long.parseLong(rv) >= target.get()) {
                                return;
                            }
                            continue;
                        }
                        if (!(d instanceof Delivery.Change c)) {
                            throw new AssertionError("unexpected " + d);
                        }
                        seen.add(c.revision() + " " + c.type() + " " + c.object().path("metadata").path("name").asText());
                        rv = Long.toString(c.revision());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String expected(WatchEvent e) {
        return switch (e) {
            case WatchEvent.Put p -> p.revision() + " " + (p.previous() == null ? "ADDED" : "MODIFIED") + " "
                    + name(p.current().key());
            case WatchEvent.Delete d -> d.revision() + " DELETED " + name(d.previous().key());
            case WatchEvent.Error err -> throw new AssertionError(err);
            case WatchEvent.Progress progress -> throw new AssertionError(progress);
        };
    }

    private static String name(String key) {
        return key.substring(key.lastIndexOf('/') + 1);
    }
}
