package io.kapi.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A Pod's conditions as kubelet's status manager writes them: the conditions others own (readiness gates'
 * types, {@code DisruptionTarget}) first, as they are, then kubelet's own in its order
 * ({@code PodReadyToStartContainers}, {@code Initialized}, {@code Ready}, {@code ContainersReady},
 * {@code PodScheduled}) with the reasons and messages of kube's {@code status/generate.go}. A condition keeps
 * its {@code lastTransitionTime} while its status stays the same.
 */
final class PodConditions {

    /** kubelet's {@code PodConditionByKubelet}. */
    private static final Set<String> KUBELET_OWNED = Set.of("PodScheduled", "Ready", "Initialized",
            "ContainersReady", "PodReadyToStartContainers", "PodResizePending", "PodResizeInProgress");

    private PodConditions() {
    }

    static ArrayNode of(JsonNode pod, String phase, List<ObjectNode> init, List<ObjectNode> regular, Instant now) {
        JsonNode current = pod.path("status").path("conditions");
        ArrayNode out = Json.object().arrayNode();
        for (JsonNode c : current) {
            if (!KUBELET_OWNED.contains(c.path("type").asText())) {
                out.add(c.deepCopy());
            }
        }
        boolean terminal = phase.equals("Succeeded") || phase.equals("Failed");
        String ending = phase.equals("Succeeded") ? "PodCompleted" : "PodFailed";
        out.add(condition(pod, current, "PodReadyToStartContainers", !terminal, null, null, now));

        List<String> incomplete = new ArrayList<>();
        for (ObjectNode s : init) {
            boolean sidecar = s.path("state").has("running") || s.path("started").asBoolean(false);
            boolean done = s.path("state").path("terminated").path("exitCode").asInt(-1) == 0;
            if (!done && !(sidecar && s.path("started").asBoolean(false))) {
                incomplete.add(s.path("name").asText());
            }
        }
        if (phase.equals("Succeeded")) {
            out.add(condition(pod, current, "Initialized", true, "PodCompleted", null, now));
        } else if (incomplete.isEmpty() || !regular.isEmpty()) {
            out.add(condition(pod, current, "Initialized", true, null, null, now));
        } else {
            out.add(condition(pod, current, "Initialized", false, "ContainersNotInitialized",
                    "containers with incomplete status: " + goList(incomplete), now));
        }

        List<String> unready = new ArrayList<>();
        for (ObjectNode s : init) {
            if (s.path("state").has("running") && !s.path("ready").asBoolean(false)) {
                unready.add(s.path("name").asText());
            }
        }
        for (ObjectNode s : regular) {
            if (!s.path("ready").asBoolean(false)) {
                unready.add(s.path("name").asText());
            }
        }
        ObjectNode containersReady;
        ObjectNode ready;
        if (terminal) {
            containersReady = condition(pod, current, "ContainersReady", false, ending, null, now);
            ready = condition(pod, current, "Ready", false, ending, null, now);
        } else if (!unready.isEmpty()) {
            String message = "containers with unready status: " + goList(unready);
            containersReady = condition(pod, current, "ContainersReady", false, "ContainersNotReady", message, now);
            ready = condition(pod, current, "Ready", false, "ContainersNotReady", message, now);
        } else {
            containersReady = condition(pod, current, "ContainersReady", true, null, null, now);
            List<String> gates = new ArrayList<>();
            for (JsonNode g : pod.path("spec").path("readinessGates")) {
                String type = g.path("conditionType").asText();
                JsonNode c = find(current, type);
                if (c == null) {
                    gates.add("corresponding condition of pod readiness gate \"%s\" does not exist.".formatted(type));
                } else if (!c.path("status").asText().equals("True")) {
                    gates.add("the status of pod readiness gate \"%s\" is not \"True\", but %s".formatted(type,
                            c.path("status").asText()));
                }
            }
            ready = gates.isEmpty() ? condition(pod, current, "Ready", true, null, null, now)
                    : condition(pod, current, "Ready", false, "ReadinessGatesNotReady", String.join(", ", gates), now);
        }
        out.add(ready);
        out.add(containersReady);
        out.add(condition(pod, current, "PodScheduled", true, null, null, now));
        return out;
    }

    private static ObjectNode condition(JsonNode pod, JsonNode current, String type, boolean status, String reason,
                                        String message, Instant now) {
        ObjectNode c = Json.object();
        c.put("type", type);
        JsonNode generation = pod.path("metadata").path("generation");
        if (generation.isNumber()) {
            c.put("observedGeneration", generation.asLong());
        }
        String value = status ? "True" : "False";
        c.put("status", value);
        c.putNull("lastProbeTime");
        JsonNode before = find(current, type);
        c.put("lastTransitionTime", before != null && before.path("status").asText().equals(value)
                && before.hasNonNull("lastTransitionTime")
                ? before.path("lastTransitionTime").asText() : ObjectMeta.format(now));
        if (reason != null) {
            c.put("reason", reason);
        }
        if (message != null) {
            c.put("message", message);
        }
        return c;
    }

    private static JsonNode find(JsonNode conditions, String type) {
        for (JsonNode c : conditions) {
            if (c.path("type").asText().equals(type)) {
                return c;
            }
        }
        return null;
    }

    /** Go's {@code %s} of a {@code []string}. */
    private static String goList(List<String> names) {
        return "[" + String.join(" ", names) + "]";
    }
}
