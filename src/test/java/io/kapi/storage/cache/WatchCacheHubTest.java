package io.kapi.storage.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.storage.KeyValue;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageOptions;
import io.kapi.storage.backends.Storages;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WatchCacheHubTest {

    private static final ObjectDecoder DECODER = kv -> {
        ObjectNode o = Json.object();
        o.putObject("metadata").put("name", kv.key()).put("resourceVersion", Long.toString(kv.modRevision()));
        o.put("value", new String(kv.value(), StandardCharsets.UTF_8));
        return new CachedObject(kv.key(), o, kv.modRevision(), Map.of(), Map.of(), kv.value().length);
    };

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("when its storage watch falls behind, the hub resumes (or re-lists) and the cache ends equal to storage")
    void recoversFromABrokenStorageWatch() throws Exception {
        try (Storage storage = Storages.memory(StorageOptions.DEFAULT.withWatchQueueCapacity(2)
                .withCompactionCheckInterval(Duration.ZERO));
             WatchCacheHub hub = new WatchCacheHub(storage, CacheOptions.DEFAULT)) {
            ResourceCache cache = hub.register("/registry/things/", DECODER);
            storage.create("/registry/things/a", bytes("0"));
            hub.start();
            CacheWatch watch = cache.watch("/registry/things/", o -> true, storage.currentRevision(), false);
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int me = w;
                writers.add(Thread.ofVirtual().start(() -> {
                    for (int i = 0; i < 500; i++) {
                        storage.create("/registry/things/w" + me + "-" + i, bytes("v" + i));
                        if (i % 100 == 99) {
                            storage.compact(storage.currentRevision());
                        }
                    }
                }));
            }
            for (Thread t : writers) {
                t.join();
            }
            assertTrue(cache.awaitRevision(storage.currentRevision()), "the cache caught up");
            List<String> cached = cache.list("/registry/things/", null, 0, o -> true).items().stream()
                    .map(CachedObject::key).toList();
            List<String> stored = storage.range("/registry/things/", null, 0, 0).items().stream()
                    .map(KeyValue::key).toList();
            assertEquals(stored, cached);
            for (String key : stored) {
                assertEquals(key, cache.get(key).orElseThrow().key(), "a get finds what the (re-)list holds");
            }
            long last = 0;
            while (true) {
                Delivery d = watch.poll(TimeUnit.MILLISECONDS.toNanos(200));
                if (d == null || d instanceof Delivery.End) {
                    break;
                }
                long revision = ((Delivery.Change) d).revision();
                assertTrue(revision > last, "in order, no duplicate");
                last = revision;
            }
        }
    }

    @Test
    @DisplayName("a get answers each key's latest state: written, unreadable (its error), readable again, deleted")
    void getsFollowWrites() throws Exception {
        ObjectDecoder strict = kv -> {
            if (new String(kv.value(), StandardCharsets.UTF_8).equals("bad")) {
                throw new IllegalStateException("cannot read " + kv.key());
            }
            return DECODER.decode(kv);
        };
        try (Storage storage = Storages.memory(StorageOptions.DEFAULT);
             WatchCacheHub hub = new WatchCacheHub(storage, CacheOptions.DEFAULT)) {
            ResourceCache cache = hub.register("/registry/things/", strict);
            String a = "/registry/things/a";
            KeyValue written = storage.create(a, bytes("0"));
            hub.start();
            assertEquals("0", value(cache, a));
            assertTrue(cache.get("/registry/things/b").isEmpty(), "never written");
            written = storage.update(a, bytes("bad"), written.modRevision());
            assertTrue(cache.awaitRevision(written.modRevision()));
            IllegalStateException unreadable = assertThrows(IllegalStateException.class, () -> cache.get(a));
            assertEquals("cannot read " + a, unreadable.getMessage());
            assertTrue(cache.get("/registry/things/b").isEmpty(), "another key is still absent");
            written = storage.update(a, bytes("1"), written.modRevision());
            assertTrue(cache.awaitRevision(written.modRevision()));
            assertEquals("1", value(cache, a));
            storage.delete(a, written.modRevision());
            assertTrue(cache.awaitRevision(storage.currentRevision()));
            assertTrue(cache.get(a).isEmpty(), "deleted");
        }
    }

    private static String value(ResourceCache cache, String key) {
        return cache.get(key).orElseThrow().object().get("value").asText();
    }

    @Test
    @DisplayName("progress stays while no cache applies a write and moves once one has, also a write to another cache")
    void progressFollowsAppliedWrites() throws Exception {
        try (Storage storage = Storages.memory(StorageOptions.DEFAULT);
             WatchCacheHub hub = new WatchCacheHub(storage, CacheOptions.DEFAULT)) {
            ResourceCache things = hub.register("/registry/things/", DECODER);
            ResourceCache others = hub.register("/registry/others/", DECODER);
            storage.create("/registry/things/a", bytes("0"));
            hub.start();
            assertTrue(things.awaitRevision(storage.currentRevision()));
            long before = hub.progress();
            assertEquals(before, hub.progress(), "nothing written");
            storage.create("/registry/others/b", bytes("1"));
            assertTrue(others.awaitRevision(storage.currentRevision()));
            long after = hub.progress();
            assertTrue(after != before, "a write another cache applied moves it");
            assertEquals(after, hub.progress());
        }
    }

    @Test
    @DisplayName("the event window is bounded in count: older versions are 410 Expired, recent ones replay")
    void boundedWindow() throws Exception {
        try (Storage storage = Storages.memory();
             WatchCacheHub hub = new WatchCacheHub(storage, CacheOptions.DEFAULT.withEventWindow(10))) {
            ResourceCache cache = hub.register("/registry/things/", DECODER);
            hub.start();
            for (int i = 0; i < 30; i++) {
                storage.create("/registry/things/k" + i, bytes("v"));
            }
            long now = storage.currentRevision();
            assertTrue(cache.awaitRevision(now));
            try (CacheWatch old = cache.watch("/registry/things/", o -> true, 1, false)) {
                Delivery d = old.poll(0);
                assertInstanceOf(io.kapi.storage.StorageException.Compacted.class, ((Delivery.Failure) d).cause(),
                        "too old: the registry answers 410 Expired");
            }
            try (CacheWatch recent = cache.watch("/registry/things/", o -> true, now - 5, false)) {
                for (long r = now - 4; r <= now; r++) {
                    assertEquals(r, ((Delivery.Change) recent.poll(0)).revision());
                }
            }
        }
    }
}
