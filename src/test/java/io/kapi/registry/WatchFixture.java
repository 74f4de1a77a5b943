package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.groups.BuiltinBehaviours;
import io.kapi.harness.StoreCalls;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.storage.Storage;
import io.kapi.storage.backends.Storages;
import io.kapi.storage.cache.CacheOptions;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.Delivery;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A registry over an in-memory store with configmaps and namespaces, and helpers to drive watches. */
final class WatchFixture implements AutoCloseable {

    private static final List<String> VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");
    static final ApiResource NAMESPACES = new ApiResource("", "v1", "namespaces", "namespace", "Namespace",
            false, VERBS, List.of("ns"), List.of(), List.of());
    static final ApiResource CONFIGMAPS = new ApiResource("", "v1", "configmaps", "configmap", "ConfigMap",
            true, VERBS, List.of("cm"), List.of(), List.of());

    final Storage storage;
    final Registry registry;
    final ResourceStore configmaps;

    WatchFixture(CacheOptions options) {
        storage = Storages.memory();
        registry = new Registry(List.of(NAMESPACES, CONFIGMAPS), storage, new BuiltinBehaviours(),
                StoreServices.minimal((resource, object) -> List.of(), Clock.systemUTC()),
                lookup -> io.kapi.admission.AdmissionChain.NONE, new ReadPath.WatchCache(options));
        StoreCalls.systemNamespaces(registry);
        registry.caches().start();
        configmaps = registry.store(CONFIGMAPS).orElseThrow();
    }

    static CacheOptions fastOptions() {
        return CacheOptions.DEFAULT.withFreshnessWait(Duration.ofMillis(200));
    }

    static ObjectNode configMap(String name, Map<String, String> labels) {
        ObjectNode cm = Json.object();
        cm.put("apiVersion", "v1");
        cm.put("kind", "ConfigMap");
        ObjectNode meta = cm.putObject("metadata");
        meta.put("name", name);
        ObjectNode l = meta.putObject("labels");
        labels.forEach(l::put);
        cm.putObject("data").put("k", "v");
        return cm;
    }

    static ObjectNode configMap(String name) {
        return configMap(name, Map.of());
    }

    /** Polls until {@code count} deliveries came or {@code wait} passed. */
    static List<Delivery> take(CacheWatch watch, int count, Duration wait) throws InterruptedException {
        List<Delivery> out = new ArrayList<>();
        long deadline = System.nanoTime() + wait.toNanos();
        while (out.size() < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            Delivery d = watch.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
            if (d != null) {
                out.add(d);
                if (d instanceof Delivery.End || d instanceof Delivery.Failure) {
                    break;
                }
            }
        }
        return out;
    }

    /** "ADDED c1" for a change, the class name otherwise. */
    static String describe(Delivery d) {
        return d instanceof Delivery.Change c
                ? c.type() + " " + c.object().path("metadata").path("name").asText()
                : d.getClass().getSimpleName();
    }

    @Override
    public void close() {
        registry.close();
        storage.close();
    }
}
