package io.kapi.scheduler;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.ResourceClient;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * kube-scheduler's event recorder (client-go's {@code events} package, events.k8s.io/v1): an Event named
 * {@code <pod>.<nanoseconds in hex>} with {@code reportingController} {@code default-scheduler}, the
 * {@code action} (Scheduling, Binding, Preempting), {@code regarding} the Pod and the message as
 * {@code note}; written in the background (a failure is only logged). The same event again (same Pod,
 * reason and note) becomes a {@code series} on the first one, its count and {@code lastObservedTime}
 * moved by a patch, as the events API's series are.
 */
final class SchedulerEvents {

    private static final System.Logger LOG = System.getLogger(SchedulerEvents.class.getName());
    private static final DateTimeFormatter MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final int CACHE = 4096;

    private final ResourceClient events;
    private final Clock clock;
    private final String instance;
    private final Map<String, Seen> seen = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Seen> eldest) {
            return size() > CACHE;
        }
    });

    private record Seen(String name, int count) {
    }

    SchedulerEvents(ResourceClient events, Clock clock, String instance) {
        this.events = events;
        this.clock = clock;
        this.instance = instance;
    }

    static String micro(Instant at) {
        return MICRO.format(at);
    }

    void record(ObjectNode pod, String type, String reason, String action, String note) {
        ObjectMeta meta = ObjectMeta.of(pod);
        Instant now = clock.instant();
        long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        String name = meta.name() + "." + Long.toHexString(nanos);
        String key = String.join("\u0000", meta.uid(), type, reason, action, note);
        Seen before;
        synchronized (seen) {
            before = seen.get(key);
            seen.put(key, before == null ? new Seen(name, 1) : new Seen(before.name(), before.count() + 1));
        }
        ObjectNode event = before != null ? null : event(pod, meta, name, now, type, reason, action, note);
        Thread.ofVirtual().name("scheduler-event").start(() -> {
            try {
                if (event != null) {
                    events.createOnly(meta.namespace(), event);
                    return;
                }
                ObjectNode patch = Json.object();
                patch.putObject("series").put("count", before.count() + 1).put("lastObservedTime", micro(now));
                events.mergePatch(meta.namespace(), before.name(), patch);
            } catch (ApiException e) {
                LOG.log(Level.DEBUG, "event {0} on {1} not written: {2}", reason, meta.name(), e.getMessage());
                if (event == null) {
                    seen.remove(key); // the first is gone: the next one starts again
                }
            }
        });
    }

    private ObjectNode event(ObjectNode pod, ObjectMeta meta, String name, Instant now, String type, String reason,
                             String action, String note) {
        ObjectNode event = Json.object();
        event.put("apiVersion", "events.k8s.io/v1");
        event.put("kind", "Event");
        event.putObject("metadata").put("name", name).put("namespace", meta.namespace());
        event.put("eventTime", micro(now));
        event.put("reportingController", Scheduler.NAME);
        event.put("reportingInstance", instance);
        event.put("action", action);
        event.put("reason", reason);
        ObjectNode regarding = event.putObject("regarding");
        regarding.put("kind", "Pod").put("namespace", meta.namespace()).put("name", meta.name())
                .put("uid", meta.uid()).put("apiVersion", "v1").put("resourceVersion", meta.resourceVersion());
        event.put("note", note);
        event.put("type", type);
        return event;
    }
}
