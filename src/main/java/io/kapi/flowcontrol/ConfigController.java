package io.kapi.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.ResourceClient;
import io.kapi.health.PostStartHook;
import io.kapi.informers.EventHandler;
import io.kapi.informers.Informer;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * kube's APF config consumer: follows the FlowSchemas and PriorityLevelConfigurations through the
 * shared informers and hands each new set to the dispatcher, so a change takes effect at once, without a
 * restart; and keeps each FlowSchema's {@code Dangling} condition as kube writes it (status True, reason
 * {@code NotFound} when its priority level does not exist; False, {@code Found} when it does).
 *
 * <p>Changes are coalesced: the informers' threads only mark the configuration stale; one worker
 * rebuilds it from the informers' current objects and writes the conditions that changed.
 */
final class ConfigController implements PostStartHook, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ConfigController.class.getName());
    private static final Duration FIRST_CONFIGURATION = Duration.ofSeconds(30);

    private final PriorityAndFairness dispatcher;
    private final Informer flowSchemas;
    private final Informer priorityLevels;
    private final ResourceClient statusWriter;
    private final AtomicBoolean stale = new AtomicBoolean();
    /** Counted down by the first configuration made from both informers' lists. */
    private final CountDownLatch listed = new CountDownLatch(1);
    private final ExecutorService worker = Executors.newSingleThreadExecutor(
            Thread.ofVirtual().name("apf-config-consumer").factory());

    /** @param statusWriter the FlowSchemas as the server's loopback identity writes them; null to write no status */
    ConfigController(PriorityAndFairness dispatcher, Informer flowSchemas, Informer priorityLevels,
                     ResourceClient statusWriter) {
        this.dispatcher = dispatcher;
        this.flowSchemas = flowSchemas;
        this.priorityLevels = priorityLevels;
        this.statusWriter = statusWriter;
        EventHandler changed = EventHandler.onAnyChange(o -> changed());
        flowSchemas.addHandler(changed);
        priorityLevels.addHandler(changed);
        changed();
    }

    /**
     * kube-apiserver's post-start hook {@code priority-and-fairness-config-consumer}: ready once the dispatcher
     * runs on a configuration made from the listed FlowSchemas and PriorityLevelConfigurations (before, requests
     * are classified by what the informers had seen so far).
     */
    @Override
    public String name() {
        return "priority-and-fairness-config-consumer";
    }

    @Override
    public void run() throws InterruptedException {
        if (!flowSchemas.awaitSynced(FIRST_CONFIGURATION) || !priorityLevels.awaitSynced(FIRST_CONFIGURATION)) {
            throw new IllegalStateException("the flow-control informers have not listed yet");
        }
        changed();
        if (!listed.await(FIRST_CONFIGURATION.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new IllegalStateException("no flow-control configuration from the listed objects yet");
        }
    }

    private void changed() {
        if (stale.compareAndSet(false, true)) {
            try {
                worker.execute(this::sync);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                // shutting down
            }
        }
    }

    /** Rebuilds the configuration from the informers' objects. */
    void sync() {
        stale.set(false);
        try {
            List<ObjectNode> schemaObjects = flowSchemas.list("");
            List<FlowSchema> schemas = new ArrayList<>();
            schemaObjects.forEach(o -> schemas.add(FlowSchema.parse(o)));
            List<PriorityLevel> levels = new ArrayList<>();
            priorityLevels.list("").forEach(o -> levels.add(PriorityLevel.parse(o)));
            boolean synced = flowSchemas.synced() && priorityLevels.synced();
            Set<String> dangling = dispatcher.configure(schemas, levels);
            if (synced) {
                listed.countDown();
            }
            if (statusWriter != null && synced) {
                for (ObjectNode fs : schemaObjects) {
                    writeDangling(fs, dangling.contains(ObjectMeta.of(fs).name()));
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Cannot apply the flow-control configuration", e);
        }
    }

    private void writeDangling(ObjectNode fs, boolean missing) {
        String status = missing ? "True" : "False";
        for (JsonNode c : fs.path("status").path("conditions")) {
            if ("Dangling".equals(c.path("type").asText()) && status.equals(c.path("status").asText())) {
                return;
            }
        }
        String level = fs.path("spec").path("priorityLevelConfiguration").path("name").asText();
        ObjectNode updated = fs.deepCopy();
        ArrayNode conditions = Json.MAPPER.createArrayNode();
        for (JsonNode c : fs.path("status").path("conditions")) {
            if (!"Dangling".equals(c.path("type").asText())) {
                conditions.add(c);
            }
        }
        ObjectNode condition = conditions.addObject();
        condition.put("type", "Dangling");
        condition.put("status", status);
        condition.put("lastTransitionTime", ObjectMeta.format(Instant.now()));
        condition.put("reason", missing ? "NotFound" : "Found");
        condition.put("message", "This FlowSchema references the PriorityLevelConfiguration object named \""
                + level + (missing ? "\" but there is no such object" : "\" and it exists"));
        updated.withObjectProperty("status").set("conditions", conditions);
        try {
            statusWriter.update(updated, "status");
        } catch (ApiException e) {
            // changed or deleted meanwhile: its informer event brings the next sync
            LOG.log(Level.DEBUG, "FlowSchema {0}: status not written: {1}", ObjectMeta.of(fs).name(), e.getMessage());
        }
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
