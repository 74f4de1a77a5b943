package io.kapi.apis.subresources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.health.PostStartHook;
import io.kapi.informers.PassController;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.ListOptions;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.registry.SystemWrites;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Expires events (core/v1 and events.k8s.io/v1: one resource) {@code --event-ttl} after their last write, as
 * kube-apiserver does with an etcd lease attached on every write of an event. Kapi's storage has no
 * leases, so a sweeper notes when it first sees each resourceVersion of an event and deletes events
 * whose last write is older than the TTL (with that resourceVersion as precondition, so a rewrite in
 * between keeps the event). Events already stored when the server starts are dated by their newest
 * own timestamp (lastTimestamp, eventTime, series, managedFields, creationTimestamp).
 *
 * <p>A sweep runs every interval from its post-start hook until {@link #close()} (a {@link PassController}
 * resyncing, the one mechanism of the server's loops); it is apiserver behaviour, so it runs whether or
 * not Kapi is standalone.
 */
public final class EventTtl implements PostStartHook, AutoCloseable {

    private final List<ResourceStore> stores;
    private final Duration ttl;
    private final Duration interval;
    private final Clock clock;
    /** store name + key → (resourceVersion, when that version was first seen). */
    private final Map<String, Seen> seen = new HashMap<>();
    private boolean firstPass = true;
    private final PassController sweeps;

    private record Seen(String resourceVersion, Instant at) {
    }

    public EventTtl(Registry registry, Duration ttl, Clock clock) {
        this(registry, ttl, defaultInterval(ttl), clock);
    }

    EventTtl(Registry registry, Duration ttl, Duration interval, Clock clock) {
        // one store per storage prefix: core and events.k8s.io events are one resource, stored once
        this.stores = java.util.stream.Stream.of(registry.resource("", "v1", "events"),
                        registry.resource("events.k8s.io", "v1", "events"))
                .flatMap(java.util.Optional::stream).map(registry::store).flatMap(java.util.Optional::stream)
                .filter(distinctPrefixes()).toList();
        this.ttl = ttl;
        this.interval = interval;
        this.clock = clock;
        this.sweeps = new PassController("event-ttl", Duration.ZERO, this::sweep).resyncEvery(interval);
    }

    private static java.util.function.Predicate<ResourceStore> distinctPrefixes() {
        Set<String> seen = new HashSet<>();
        return store -> seen.add(store.definition().keys().prefix());
    }

    /** A quarter of the TTL, between one second and one minute. */
    static Duration defaultInterval(Duration ttl) {
        Duration quarter = ttl.dividedBy(4);
        return quarter.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1)
                : quarter.compareTo(Duration.ofMinutes(1)) > 0 ? Duration.ofMinutes(1) : quarter;
    }

    @Override
    public String name() {
        return "start-kapi-event-ttl";
    }

    @Override
    public void run() {
        sweeps.start();
    }

    /** One pass: notes new versions and deletes expired events; returns how many were deleted. */
    public synchronized int sweep() {
        Instant now = clock.instant();
        Set<String> present = new HashSet<>();
        int deleted = 0;
        for (ResourceStore store : stores) {
            for (ObjectNode event : store.list("", ListOptions.ALL).items()) {
                ObjectMeta meta = ObjectMeta.of(event);
                String key = store.resource().group() + "/" + meta.namespace() + "/" + meta.name();
                present.add(key);
                Seen previous = seen.get(key);
                if (previous == null || !previous.resourceVersion().equals(meta.resourceVersion())) {
                    Instant written = firstPass ? min(newestTimestamp(event), now) : now;
                    previous = new Seen(meta.resourceVersion(), written);
                    seen.put(key, previous);
                }
                if (previous.at().plus(ttl).isAfter(now)) {
                    continue;
                }
                if (delete(store, meta)) {
                    deleted++;
                    seen.remove(key);
                }
            }
        }
        seen.keySet().retainAll(present);
        firstPass = false;
        return deleted;
    }

    private static boolean delete(ResourceStore store, ObjectMeta meta) {
        try {
            SystemWrites.delete(store, meta.namespace(), meta.name(),
                    new DeleteOptions(null, meta.resourceVersion(), false, null, 0L));
            return true;
        } catch (ApiException e) {
            if (e.lostRace()) {
                return false;
            }
            throw e;
        }
    }

    /** The newest of the times an event carries, as an estimate of its last write. */
    static Instant newestTimestamp(ObjectNode event) {
        Instant newest = Instant.EPOCH;
        JsonNode meta = event.path("metadata");
        for (JsonNode t : List.of(meta.path("creationTimestamp"), event.path("lastTimestamp"),
                event.path("firstTimestamp"), event.path("eventTime"), event.path("deprecatedLastTimestamp"),
                event.path("series").path("lastObservedTime"))) {
            newest = max(newest, parse(t));
        }
        for (JsonNode entry : meta.path("managedFields")) {
            newest = max(newest, parse(entry.path("time")));
        }
        return newest;
    }

    private static Instant parse(JsonNode time) {
        if (!time.isTextual() || time.asText().isEmpty()) {
            return Instant.EPOCH;
        }
        try {
            return Instant.parse(time.asText());
        } catch (DateTimeParseException e) {
            return Instant.EPOCH;
        }
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    @Override
    public void close() {
        sweeps.close();
    }
}
