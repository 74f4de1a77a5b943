package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.AdmissionChain;
import io.kapi.apis.groups.BuiltinBehaviours;
import io.kapi.fixtures.Await;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.StoreCalls;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.request.RequestContext;
import io.kapi.request.Verb;
import io.kapi.storage.KeyValue;
import io.kapi.storage.RangeResult;
import io.kapi.storage.Storage;
import io.kapi.storage.Watch;
import io.kapi.storage.WatchEvent;
import io.kapi.storage.backends.Storages;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Updates start from the watch cache's copy of the object, as kube's GuaranteedUpdate does; these
 * cases hold the cache's events back so that its copy is stale, and check that nothing is decided on it:
 * the stale copy loses the compare-and-swap, and errors and no-ops are decided on storage's state.
 */
class CachedUpdateStartTest {

    private static final ApiResource NAMESPACES = new ApiResource("", "v1", "namespaces", "namespace", "Namespace",
            false, List.of("create", "get", "list", "update", "patch", "watch"), List.of(), List.of(), List.of());
    private static final ApiResource CONFIGMAPS = new ApiResource("", "v1", "configmaps", "configmap", "ConfigMap",
            true, List.of("create", "get", "list", "update", "patch", "watch"), List.of(), List.of(), List.of());

    private LaggingStorage storage;
    private ResourceStore configmaps;

    @BeforeEach
    void setUp() {
        storage = new LaggingStorage(Storages.memory());
        Registry registry = new Registry(List.of(NAMESPACES, CONFIGMAPS), storage, new BuiltinBehaviours(),
                StoreServices.minimal((resource, object) -> List.of(), Clock.systemUTC()),
                lookup -> AdmissionChain.NONE, io.kapi.registry.ReadPath.WATCH_CACHE);
        StoreCalls.systemNamespaces(registry);
        configmaps = registry.store(CONFIGMAPS).orElseThrow();
        ObjectNode cm = Json.object();
        cm.putObject("metadata").put("name", "c");
        cm.putObject("data").put("k", "1");
        StoreCalls.create(configmaps, "default", cm, false);
        configmaps.list("default", ListOptions.ALL);
        awaitCached("1");
    }

    @AfterEach
    void tearDown() {
        storage.release();
        storage.close();
    }

    private void awaitCached(String value) {
        Await.atMost(Duration.ofSeconds(10)).every(Duration.ofMillis(1)).until("the cache to show k=" + value,
                () -> configmaps.get("default", "c", "0").path("data").path("k").asText().equals(value));
    }

    private ObjectNode update(Transform transform) {
        RequestContext ctx = RequestContext.internal(ApiHarness.ADMIN, Verb.UPDATE).withWriteOptions(false, null, null);
        return configmaps.update(ctx, "default", "c", transform, Write.internal()).object();
    }

    /** Writes k=value while the cache's events are held back; returns the new resourceVersion. */
    private String writeBehindTheCache(String value) {
        storage.hold();
        return ObjectMeta.of(update(cm -> {
            cm.with("data").put("k", value);
            return cm;
        })).resourceVersion();
    }

    @Test
    @DisplayName("a precondition on the latest resourceVersion passes though the cache holds an older one")
    void preconditionOnLatest() {
        String latest = writeBehindTheCache("2");
        assertEquals("1", configmaps.get("default", "c", "0").path("data").path("k").asText(), "the cache is stale");
        ObjectNode updated = update(cm -> {
            ObjectMeta.of(cm).resourceVersion(latest);
            cm.with("data").put("other", "x");
            return cm;
        });
        assertEquals("2", updated.path("data").path("k").asText(), "the write kept storage's k");
        assertEquals("x", updated.path("data").path("other").asText());
    }

    @Test
    @DisplayName("an update that equals the stale cached copy still writes: storage holds something else")
    void noOpOnStaleCopyIsNotANoOp() {
        String latest = writeBehindTheCache("2");
        ObjectNode updated = update(cm -> {
            cm.with("data").put("k", "1");
            return cm;
        });
        assertEquals("1", updated.path("data").path("k").asText());
        assertNotEquals(latest, ObjectMeta.of(updated).resourceVersion(), "a new revision was written");
        assertEquals("1", configmaps.get("default", "c").path("data").path("k").asText());
    }

    @Test
    @DisplayName("an update that changes nothing on a current cache copy stores nothing")
    void noOpOnCurrentCopy() {
        String before = ObjectMeta.of(configmaps.get("default", "c")).resourceVersion();
        ObjectNode updated = update(cm -> cm);
        assertEquals(before, ObjectMeta.of(updated).resourceVersion());
    }

    /** A storage whose watch events can be held back, so a watch cache over it falls behind on purpose. */
    private static final class LaggingStorage implements Storage {
        private final Storage inner;
        private final List<Runnable> held = new ArrayList<>();
        private boolean holding;

        LaggingStorage(Storage inner) {
            this.inner = inner;
        }

        synchronized void hold() {
            holding = true;
        }

        void release() {
            List<Runnable> out;
            synchronized (this) {
                holding = false;
                out = List.copyOf(held);
                held.clear();
            }
            out.forEach(Runnable::run);
        }

        @Override
        public Watch watch(String prefix, long fromRevision, Consumer<WatchEvent> listener) {
            return inner.watch(prefix, fromRevision, event -> {
                synchronized (this) {
                    if (holding) {
                        held.add(() -> listener.accept(event));
                        return;
                    }
                }
                listener.accept(event);
            });
        }

        @Override public long currentRevision() { return inner.currentRevision(); }
        @Override public KeyValue create(String key, byte[] value) { return inner.create(key, value); }
        @Override public Optional<KeyValue> get(String key) { return inner.get(key); }
        @Override public RangeResult range(String prefix, String startKey, int limit, long revision) {
            return inner.range(prefix, startKey, limit, revision);
        }
        @Override public KeyValue update(String key, byte[] value, long expected) { return inner.update(key, value, expected); }
        @Override public KeyValue delete(String key, long expected) { return inner.delete(key, expected); }
        @Override public void compact(long revision) { inner.compact(revision); }
        @Override public long compactedRevision() { return inner.compactedRevision(); }
        @Override public boolean healthy() { return inner.healthy(); }
        @Override public void close() { inner.close(); }
    }
}
