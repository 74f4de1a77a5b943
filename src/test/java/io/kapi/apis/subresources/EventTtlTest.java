package io.kapi.apis.subresources;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.groups.BuiltinBehaviours;
import io.kapi.harness.StoreCalls;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.registry.ListOptions;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.registry.StoreServices;
import io.kapi.storage.Storage;
import io.kapi.storage.backends.Storages;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EventTtlTest {

    private Storage storage;
    private Registry registry;
    private ResourceStore core;
    private ResourceStore events;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

    static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @BeforeEach
    void setUp() {
        storage = Storages.memory();
        ResourceTable table = ResourceTable.builtin();
        registry = new Registry(table.resources(), storage, new BuiltinBehaviours(),
                StoreServices.minimal((r, o) -> List.of(), clock));
        StoreCalls.systemNamespaces(registry);
        core = registry.store(table.find("", "v1", "events").orElseThrow()).orElseThrow();
        events = registry.store(table.find("events.k8s.io", "v1", "events").orElseThrow()).orElseThrow();
    }

    @AfterEach
    void tearDown() {
        storage.close();
    }

    private static ObjectNode event(String apiVersion, String name) {
        ObjectNode e = Json.object();
        e.put("apiVersion", apiVersion);
        e.put("kind", "Event");
        e.putObject("metadata").put("name", name);
        e.putObject("involvedObject").put("kind", "Pod").put("name", "p").put("namespace", "default");
        e.putObject("regarding").put("kind", "Pod").put("name", "p").put("namespace", "default");
        e.put("reason", "Test");
        e.put("type", "Normal");
        e.put("eventTime", "2026-01-01T00:00:00.000000Z");
        // the reporting controller is `reportingComponent` in core/v1 and `reportingController` in events.k8s.io/v1
        e.put(apiVersion.equals("v1") ? "reportingComponent" : "reportingController", "test");
        e.put("reportingInstance", "test-1");
        e.put("action", "Testing");
        return e;
    }

    private int count(ResourceStore store) {
        return store.list("default", ListOptions.ALL).items().size();
    }

    @Test
    @DisplayName("events of both groups (one resource) are deleted once their last write is older than the TTL")
    void expires() {
        EventTtl ttl = new EventTtl(registry, Duration.ofMinutes(10), Duration.ofSeconds(1), clock);
        StoreCalls.create(core, "default", event("v1", "a"), false);
        StoreCalls.create(events, "default", event("events.k8s.io/v1", "b"), false);
        assertEquals(0, ttl.sweep());
        clock.advance(Duration.ofMinutes(6));
        ObjectNode rewritten = core.get("default", "a");
        rewritten.put("count", 2);
        StoreCalls.update(core, "default", "a", rewritten, false);
        assertEquals(0, ttl.sweep());
        clock.advance(Duration.ofMinutes(5));
        assertEquals(1, ttl.sweep());
        // core and events.k8s.io events are one resource: both groups list what is left, "a"
        assertEquals(List.of("a"), names(core));
        assertEquals(List.of("a"), names(events));
        clock.advance(Duration.ofMinutes(6));
        assertEquals(1, ttl.sweep());
        assertEquals(0, count(core));
        assertEquals(0, count(events));
    }

    private static List<String> names(ResourceStore store) {
        return store.list("default", ListOptions.ALL).items().stream()
                .map(e -> e.path("metadata").path("name").asText()).toList();
    }

    @Test
    @DisplayName("after a restart, events are dated by their own newest timestamp")
    void datesExisting() {
        ObjectNode old = event("v1", "old");
        old.put("lastTimestamp", "2026-01-01T00:00:00Z");
        StoreCalls.create(core, "default", old, false);
        clock.advance(Duration.ofMinutes(61));
        StoreCalls.create(core, "default", event("v1", "fresh"), false);
        EventTtl restarted = new EventTtl(registry, Duration.ofHours(1), Duration.ofSeconds(1), clock);
        assertEquals(1, restarted.sweep());
        assertEquals(List.of("fresh"), core.list("default", ListOptions.ALL).items().stream()
                .map(e -> e.path("metadata").path("name").asText()).toList());
        assertEquals(Duration.ofSeconds(15), EventTtl.defaultInterval(Duration.ofMinutes(1)));
        assertEquals(Duration.ofMinutes(1), EventTtl.defaultInterval(Duration.ofHours(1)));
    }
}
