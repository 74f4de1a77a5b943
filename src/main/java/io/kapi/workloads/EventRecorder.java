package io.kapi.workloads;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.ResourceClient;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;

/**
 * client-go's legacy event recorder, as kube-controller-manager's controllers use it: a core/v1 Event
 * named {@code <object>.<nanoseconds in hex>}, {@code source.component} and {@code reportingComponent} the
 * controller's name, written in the background under the controller's identity (a failed event is only
 * logged, as kube's broadcaster drops it). An event identical to one this recorder wrote (same object, type,
 * reason and message: kube's {@code EventCorrelator} key) is not written again: the first one's {@code count}
 * goes up and its {@code lastTimestamp} moves, by a patch, as kube's recorder does (a controller that reports
 * the same failure every sync leaves one Event "x12 over 3m", not twelve).
 */
final class EventRecorder {

    private static final System.Logger LOG = System.getLogger(EventRecorder.class.getName());

    /** kube's {@code maxLruCacheEntries}. */
    private static final int CACHE = 4096;

    private final ResourceClient events;
    private final String component;
    private final Clock clock;
    private final java.util.Map<String, Seen> seen = java.util.Collections.synchronizedMap(
            new java.util.LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(java.util.Map.Entry<String, Seen> eldest) {
                    return size() > CACHE;
                }
            });

    /** An event written: its name, and how many times it happened. */
    private record Seen(String name, int count) {
    }

    EventRecorder(ResourceClient events, String component, Clock clock) {
        this.events = events;
        this.component = component;
        this.clock = clock;
    }

    void normal(ObjectNode about, String reason, String message) {
        record(about, "Normal", reason, message);
    }

    void warning(ObjectNode about, String reason, String message) {
        record(about, "Warning", reason, message);
    }

    private void record(ObjectNode about, String type, String reason, String message) {
        ObjectMeta meta = ObjectMeta.of(about);
        Instant now = clock.instant();
        long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        ObjectNode event = Json.object();
        event.put("apiVersion", "v1");
        event.put("kind", "Event");
        event.putObject("metadata").put("name", meta.name() + "." + Long.toHexString(nanos))
                .put("namespace", meta.namespace());
        ObjectNode involved = event.putObject("involvedObject");
        involved.put("kind", about.path("kind").asText());
        involved.put("namespace", meta.namespace());
        involved.put("name", meta.name());
        involved.put("uid", meta.uid());
        involved.put("apiVersion", about.path("apiVersion").asText());
        involved.put("resourceVersion", meta.resourceVersion());
        event.put("reason", reason);
        event.put("message", message);
        event.putObject("source").put("component", component);
        event.put("firstTimestamp", ObjectMeta.format(now));
        event.put("lastTimestamp", ObjectMeta.format(now));
        event.put("count", 1);
        event.put("type", type);
        event.putNull("eventTime");
        event.put("reportingComponent", component);
        event.put("reportingInstance", "");
        String key = String.join("\u0000", component, about.path("kind").asText(), meta.namespace(), meta.name(),
                meta.uid(), about.path("apiVersion").asText(), type, reason, message);
        Seen before;
        synchronized (seen) {
            before = seen.get(key);
            seen.put(key, before == null ? new Seen(event.path("metadata").path("name").asText(), 1)
                    : new Seen(before.name(), before.count() + 1));
        }
        Thread.ofVirtual().name("event-" + component).start(() -> {
            try {
                if (before != null) {
                    try {
                        synchronized (this) { // one patch at a time, each with the latest count
                            Seen latest = seen.get(key);
                            ObjectNode patch = Json.object();
                            patch.put("count", latest == null ? before.count() + 1 : latest.count());
                            patch.put("lastTimestamp", ObjectMeta.format(now));
                            patch.put("message", message);
                            events.mergePatch(meta.namespace(), before.name(), patch);
                        }
                        return;
                    } catch (ApiException e) {
                        if (e.reason() != io.kapi.machinery.StatusReason.NOT_FOUND) {
                            throw e;
                        }
                        // the first one is gone (its TTL): this one starts again
                        seen.put(key, new Seen(event.path("metadata").path("name").asText(), 1));
                    }
                }
                events.createOnly(meta.namespace(), event);
            } catch (ApiException e) {
                LOG.log(Level.DEBUG, "{0}: event {1} on {2} not written: {3}", component, reason, meta.name(),
                        e.getMessage());
            }
        });
    }
}
