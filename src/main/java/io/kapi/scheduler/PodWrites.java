package io.kapi.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.ResourceClient;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.DeleteOptions;
import java.time.Clock;
import java.util.Map;

/**
 * What the scheduler writes to Pods, each through the API as {@code system:kube-scheduler} may:
 * a binding ({@code POST pods/<name>/binding}, kube's DefaultBinder), the {@code PodScheduled=False}
 * condition and {@code nominatedNodeName} by a strategic merge patch of {@code pods/status} (kube's
 * {@code updatePod}, skipped when nothing changes), and a preemption victim's {@code DisruptionTarget}
 * condition before its deletion.
 */
final class PodWrites {

    static final String STRATEGIC = "application/strategic-merge-patch+json";

    private final ResourceClient pods;
    private final Clock clock;

    PodWrites(ResourceClient pods, Clock clock) {
        this.pods = pods;
        this.clock = clock;
    }

    void bind(PodInfo pod, String node) {
        ObjectNode binding = Json.object();
        binding.put("apiVersion", "v1");
        binding.put("kind", "Binding");
        binding.putObject("metadata").put("name", pod.name()).put("namespace", pod.namespace()).put("uid", pod.uid());
        binding.putObject("target").put("kind", "Node").put("name", node);
        pods.create(pod.namespace(), pod.name(), "binding", binding);
    }

    /**
     * PodScheduled=False, reason Unschedulable, with {@code message}; {@code nominated} the Node preemption
     * freed (null: left as is, "" cleared). Nothing is written when the condition and nomination are already so.
     */
    void unschedulable(ObjectNode pod, String message, String nominated) {
        JsonNode status = pod.path("status");
        JsonNode current = condition(status, "PodScheduled");
        boolean same = current != null && current.path("status").asText().equals("False")
                && current.path("reason").asText().equals("Unschedulable")
                && current.path("message").asText().equals(message);
        String before = status.path("nominatedNodeName").asText("");
        boolean nominationSame = nominated == null || nominated.equals(before);
        if (same && nominationSame) {
            return;
        }
        ObjectNode patch = Json.object();
        ObjectNode s = patch.putObject("status");
        if (!same) {
            ObjectNode c = s.putArray("conditions").addObject();
            c.put("type", "PodScheduled").put("status", "False");
            c.putNull("lastProbeTime");
            c.put("lastTransitionTime", current != null && current.path("status").asText().equals("False")
                    ? current.path("lastTransitionTime").asText() : ObjectMeta.format(clock.instant()));
            c.put("reason", "Unschedulable").put("message", message);
        }
        if (!nominationSame) {
            if (nominated.isEmpty()) {
                s.putNull("nominatedNodeName");
            } else {
                s.put("nominatedNodeName", nominated);
            }
        }
        ObjectMeta meta = ObjectMeta.of(pod);
        pods.patch(meta.namespace(), meta.name(), "status", STRATEGIC, Map.of(), patch);
    }

    /** kube's {@code PrepareCandidate}: DisruptionTarget=True (PreemptionByScheduler), then the deletion. */
    void evict(PodInfo victim) {
        if (condition(victim.pod().path("status"), "DisruptionTarget") == null) {
            ObjectNode patch = Json.object();
            ObjectNode c = patch.putObject("status").putArray("conditions").addObject();
            c.put("type", "DisruptionTarget").put("status", "True");
            c.put("lastTransitionTime", ObjectMeta.format(clock.instant()));
            c.put("reason", "PreemptionByScheduler");
            c.put("message", Scheduler.NAME
                    + ": preempting to accommodate a higher priority pod");
            pods.patch(victim.namespace(), victim.name(), "status", STRATEGIC, Map.of(), patch);
        }
        pods.delete(victim.namespace(), victim.name(), DeleteOptions.DEFAULT);
    }

    static JsonNode condition(JsonNode status, String type) {
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c;
            }
        }
        return null;
    }
}
