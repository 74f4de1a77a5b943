package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.groups.BuiltinBehaviours;
import io.kapi.harness.StoreCalls;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.storage.Storage;
import io.kapi.storage.backends.Storages;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.Delivery;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The watch cache of a resource served in two versions: one cache, each event converted once per version. */
class ConvertedWatchTest {

    private Storage storage;
    private Registry registry;
    private ResourceStore v1;
    private ResourceStore v2;

    @BeforeEach
    void setUp() {
        ResourceTable table = ResourceTable.builtin();
        ApiResource hpaV1 = table.find("autoscaling", "v1", "horizontalpodautoscalers").orElseThrow();
        ApiResource hpaV2 = table.find("autoscaling", "v2", "horizontalpodautoscalers").orElseThrow();
        storage = Storages.memory();
        registry = new Registry(List.of(table.find("", "v1", "namespaces").orElseThrow(), hpaV1, hpaV2), storage,
                new BuiltinBehaviours(), StoreServices.minimal((r, o) -> List.of(), Clock.systemUTC()),
                lookup -> io.kapi.admission.AdmissionChain.NONE, new ReadPath.WatchCache(WatchFixture.fastOptions()));
        StoreCalls.systemNamespaces(registry);
        registry.caches().start();
        v1 = registry.store(hpaV1).orElseThrow();
        v2 = registry.store(hpaV2).orElseThrow();
    }

    @AfterEach
    void tearDown() {
        registry.close();
        storage.close();
    }

    private static ObjectNode hpa(String name) {
        ObjectNode o = Json.object().put("apiVersion", "autoscaling/v2").put("kind", "HorizontalPodAutoscaler");
        o.putObject("metadata").put("name", name);
        ObjectNode spec = o.putObject("spec").put("maxReplicas", 3);
        spec.putObject("scaleTargetRef").put("kind", "Deployment").put("name", "web");
        return o;
    }

    @Test
    @DisplayName("two versions share one cache; watchers of one version share each event's converted object and frames")
    void convertedOncePerVersion() throws Exception {
        assertEquals(List.of("/registry/horizontalpodautoscalers/"), registry.caches().prefixes().stream()
                .filter(p -> p.contains("horizontal")).toList());
        String rv = v2.list("default", ListOptions.ALL).resourceVersion();
        ListOptions from = ListOptions.ALL.atResourceVersion(rv, "");
        try (CacheWatch a = v1.watch("default", from); CacheWatch b = v1.watch("default", from);
             CacheWatch c = v2.watch("default", from)) {
            StoreCalls.create(v2, "default", hpa("w"), false);
            Delivery.Change first = change(a);
            Delivery.Change second = change(b);
            Delivery.Change other = change(c);
            assertEquals("autoscaling/v1", first.object().path("apiVersion").asText());
            assertEquals(80, first.object().path("spec").path("targetCPUUtilizationPercentage").asInt());
            assertSame(first.object(), second.object(), "converted once for both v1 watchers");
            assertSame(first.frames(), second.frames(), "and encoded once for them");
            assertEquals("autoscaling/v2", other.object().path("apiVersion").asText());
            assertNotSame(first.frames(), other.frames());
        }
    }

    @Test
    @DisplayName("a delete reaches watchers of each version as the last state in their version")
    void deletedInEachVersion() throws Exception {
        StoreCalls.create(v1, "default", hpa("d"), false);
        String rv = v2.list("default", ListOptions.ALL).resourceVersion();
        ListOptions from = ListOptions.ALL.atResourceVersion(rv, "");
        try (CacheWatch a = v1.watch("default", from); CacheWatch c = v2.watch("default", from)) {
            StoreCalls.delete(v2, "default", "d", DeleteOptions.DEFAULT);
            Delivery.Change inV1 = change(a);
            Delivery.Change inV2 = change(c);
            assertEquals("DELETED", inV1.type().name());
            assertEquals("autoscaling/v1", inV1.object().path("apiVersion").asText());
            assertTrue(inV2.object().path("spec").has("metrics"));
            assertEquals(inV1.object().path("metadata").path("resourceVersion"),
                    inV2.object().path("metadata").path("resourceVersion"));
        }
    }

    private static Delivery.Change change(CacheWatch watch) throws InterruptedException {
        for (Delivery d : WatchFixture.take(watch, 1, Duration.ofSeconds(10))) {
            if (d instanceof Delivery.Change c) {
                return c;
            }
        }
        throw new AssertionError("no event");
    }
}
