package io.kapi.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.informers.EventHandler;
import io.kapi.informers.Informer;
import io.kapi.informers.QueueController;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.StatusReason;
import io.kapi.registry.DeleteOptions;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The kubelets of every simulated node at once: one Pod informer (the server's shared one) and one work
 * queue, each Pod handled as the kubelet of its node would, through the API as {@code system:node:<name>}
 * (so the Node authorizer and NodeRestriction judge each write). {@link PodStages} decides; this writes
 * the status (a merge patch guarded by the Pod's UID and resourceVersion, retried on conflict as the
 * informer catches up), deletes a Pod whose containers have stopped (grace 0, UID precondition, as
 * kubelet's status manager does) and looks again when a stage is due.
 */
final class Kubelet implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Kubelet.class.getName());
    static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    private static final Duration SLACK = Duration.ofMillis(20);

    private final Map<String, SimulatedNode> nodes;
    private final Informer pods;
    private final PodStages stages;
    private final Clock clock;
    private final QueueController controller;

    Kubelet(Map<String, SimulatedNode> nodes, SharedInformers informers, PodStages stages, Clock clock) {
        this.nodes = nodes;
        this.pods = informers.informer(PODS);
        this.stages = stages;
        this.clock = clock;
        this.controller = new QueueController("simulated-kubelet", 4, this::sync);
        pods.addHandler(new EventHandler() {
            @Override
            public void onAdd(ObjectNode pod) {
                offer(pod);
            }

            @Override
            public void onUpdate(ObjectNode before, ObjectNode after) {
                offer(after);
            }

            @Override
            public void onDelete(ObjectNode pod) {
                SimulatedNode node = nodes.get(nodeName(pod));
                if (node != null) {
                    node.addresses().release(pod.path("metadata").path("uid").asText());
                    node.resources().release(pod.path("metadata").path("uid").asText());
                }
            }
        });
    }

    void start() {
        controller.start();
    }

    /** Looks at every Pod bound to {@code node} (a node just taken over). */
    void resync(String node) {
        for (ObjectNode pod : pods.list("")) {
            if (nodeName(pod).equals(node)) {
                controller.enqueue(pod);
            }
        }
    }

    private void offer(ObjectNode pod) {
        if (nodes.containsKey(nodeName(pod))) {
            controller.enqueue(pod);
        }
    }

    private static String nodeName(JsonNode pod) {
        return pod.path("spec").path("nodeName").asText("");
    }

    private void sync(String key) {
        ObjectNode pod = pods.get(QueueController.namespace(key), QueueController.name(key)).orElse(null);
        if (pod == null) {
            return;
        }
        SimulatedNode node = nodes.get(nodeName(pod));
        if (node == null) {
            return;
        }
        Instant now = clock.instant();
        if (!admitted(node, pod, now)) {
            return;
        }
        PodStages.Step step = stages.next(pod, placement(node, pod), now);
        String namespace = pod.path("metadata").path("namespace").asText();
        String name = pod.path("metadata").path("name").asText();
        String uid = pod.path("metadata").path("uid").asText();
        var client = node.client().resource(PODS);
        if (step.status() != null && !Trees.covers(pod.path("status"), step.status())) {
            ObjectNode patch = Json.object();
            patch.putObject("metadata").put("uid", uid)
                    .put("resourceVersion", pod.path("metadata").path("resourceVersion").asText());
            patch.set("status", step.status());
            client.patch(namespace, name, "status", "application/merge-patch+json", Map.of(), patch);
            String phase = step.status().path("phase").asText();
            if (phase.equals("Succeeded") || phase.equals("Failed")) {
                node.addresses().release(uid);
                node.resources().release(uid);
            }
        }
        if (step.delete()) {
            try {
                client.delete(namespace, name, new DeleteOptions(uid, null, false, null, 0L));
            } catch (ApiException e) {
                if (e.reason() != StatusReason.NOT_FOUND && e.reason() != StatusReason.CONFLICT) {
                    throw e;
                }
                LOG.log(Level.DEBUG, "Pod {0} was gone or replaced before its kubelet deleted it", key);
            }
        }
        if (step.recheckAt() != null) {
            controller.queue().addAfter(key, Duration.between(now, step.recheckAt()).plus(SLACK));
        }
    }

    /**
     * kubelet's admission of a new Pod against its node's allocatable: false when the Pod does not fit (it is
     * then Failed, as kubelet's {@code rejectPod} leaves it) or has ended.
     */
    private static boolean admitted(SimulatedNode node, ObjectNode pod, Instant now) {
        JsonNode status = pod.path("status");
        String phase = status.path("phase").asText("Pending");
        String uid = pod.path("metadata").path("uid").asText();
        if (phase.equals("Succeeded") || phase.equals("Failed")) {
            node.resources().release(uid);
            return true;
        }
        if (status.hasNonNull("startTime") || pod.path("metadata").hasNonNull("deletionTimestamp")) {
            node.resources().hold(uid, pod);
            return true;
        }
        NodeResources.Rejection rejected = node.resources().admit(uid, pod);
        if (rejected == null) {
            return true;
        }
        ObjectNode patch = Json.object();
        patch.putObject("metadata").put("uid", uid)
                .put("resourceVersion", pod.path("metadata").path("resourceVersion").asText());
        patch.putObject("status").put("phase", "Failed").put("reason", rejected.reason())
                .put("message", rejected.message()).put("startTime", io.kapi.machinery.ObjectMeta.format(now));
        node.client().resource(PODS).patch(pod.path("metadata").path("namespace").asText(),
                pod.path("metadata").path("name").asText(), "status", "application/merge-patch+json", Map.of(), patch);
        return false;
    }

    private static PodStages.Placement placement(SimulatedNode node, JsonNode pod) {
        if (pod.path("spec").path("hostNetwork").asBoolean(false)) {
            return new PodStages.Placement(node.hostIp(), node.hostIp());
        }
        String uid = pod.path("metadata").path("uid").asText();
        String ip = pod.path("status").path("podIP").asText("");
        if (!ip.isEmpty()) {
            node.addresses().hold(uid, ip);
            return new PodStages.Placement(node.hostIp(), ip);
        }
        String phase = pod.path("status").path("phase").asText("Pending");
        boolean done = phase.equals("Succeeded") || phase.equals("Failed");
        return new PodStages.Placement(node.hostIp(), done ? null : node.addresses().assign(uid));
    }

    @Override
    public void close() {
        controller.close();
    }
}
