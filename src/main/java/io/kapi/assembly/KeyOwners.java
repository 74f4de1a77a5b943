package io.kapi.assembly;

import io.kapi.metrics.StorageMetrics;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.storage.ObservedStorage.Owner;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Which group and resource a storage key belongs to, for the storage metrics' labels: kube's layout puts
 * a resource's objects under {@code /registry/<resource>/} or {@code /registry/<group>/<resource>/} (a
 * group's name has a dot, a resource's never), and the registry says which resource serves each prefix.
 * Keys of no served resource (the server's own: {@code masterleases}, {@code ranges}) are labelled by their
 * first segments, which only the server writes, so the label values stay bounded.
 */
final class KeyOwners implements Function<String, Owner> {

    private static final String ROOT = "/registry/";

    private volatile Registry registry;
    private volatile Map<String, Owner> byPrefix = Map.of();
    private volatile long modelVersion = -1;

    void bind(Registry served) {
        this.registry = served;
    }

    @Override
    public Owner apply(String key) {
        String prefix = prefix(key);
        Owner owner = prefixes().get(prefix);
        if (owner != null) {
            return owner;
        }
        String[] parts = prefix.substring(ROOT.length()).split("/");
        return parts.length >= 2 ? new Owner(parts[0], parts[1]) : new Owner("", parts.length == 1 ? parts[0] : "");
    }

    /** Records what the watch caches do in {@code metrics}, each cache under its resource's labels. */
    io.kapi.storage.cache.CacheObserver cacheMetrics(io.kapi.metrics.WatchMetrics metrics) {
        return new io.kapi.storage.cache.CacheObserver() {
            @Override
            public void initialized(String prefix, long revision) {
                Owner owner = apply(prefix);
                metrics.initialized(owner.group(), owner.resource(), revision);
            }

            @Override
            public void applied(String prefix, long revision) {
                Owner owner = apply(prefix);
                metrics.cached(owner.group(), owner.resource(), revision);
            }

            @Override
            public void readWaited(String prefix, long startNanos) {
                Owner owner = apply(prefix);
                metrics.readWaited(owner.group(), owner.resource(), startNanos);
            }

            @Override
            public void watcherCutOff(String prefix) {
                Owner owner = apply(prefix);
                metrics.terminated(owner.group(), owner.resource());
            }
        };
    }

    /** The object counts of the started watch caches, by group and resource. */
    void objectCounts(StorageMetrics.ObjectCount counts) {
        Registry served = registry;
        if (served == null) {
            return;
        }
        Map<String, Owner> owners = prefixes();
        served.caches().sizes().forEach((prefix, size) -> {
            Owner owner = owners.get(prefix);
            if (owner != null) {
                counts.count(size, owner.group(), owner.resource());
            }
        });
    }

    /** {@code /registry/<a>/} or, when {@code a} is a group, {@code /registry/<a>/<b>/}. */
    private static String prefix(String key) {
        if (!key.startsWith(ROOT)) {
            return ROOT;
        }
        int first = key.indexOf('/', ROOT.length());
        if (first < 0) {
            return key + "/";
        }
        String segment = key.substring(ROOT.length(), first);
        if (!segment.contains(".")) {
            return key.substring(0, first + 1);
        }
        int second = key.indexOf('/', first + 1);
        return second < 0 ? key + "/" : key.substring(0, second + 1);
    }

    private Map<String, Owner> prefixes() {
        Registry served = registry;
        if (served == null) {
            return byPrefix;
        }
        long version = served.model().version();
        if (version != modelVersion) {
            Map<String, Owner> map = new HashMap<>();
            for (ResourceStore store : served.stores()) {
                var api = store.definition().api();
                map.putIfAbsent(store.definition().keys().prefix(), new Owner(api.group(), api.name()));
            }
            byPrefix = Map.copyOf(map);
            modelVersion = version;
        }
        return byPrefix;
    }
}
