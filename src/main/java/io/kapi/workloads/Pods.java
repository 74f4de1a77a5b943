package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;

/** What kube's controllers read off Pods ({@code pkg/api/v1/pod}, {@code controller_utils.go}). */
final class Pods {

    private Pods() {
    }

    /** {@code IsPodActive}: not Succeeded, not Failed, not being deleted. */
    static boolean active(JsonNode pod) {
        String phase = pod.path("status").path("phase").asText("");
        return !phase.equals("Succeeded") && !phase.equals("Failed")
                && !pod.path("metadata").hasNonNull("deletionTimestamp");
    }

    static boolean terminating(JsonNode pod) {
        return pod.path("metadata").hasNonNull("deletionTimestamp");
    }

    /** {@code IsPodReady}: condition Ready is True. */
    static boolean ready(JsonNode pod) {
        return readyCondition(pod).map(c -> c.path("status").asText().equals("True")).orElse(false);
    }

    /** {@code IsPodAvailable}: ready for at least {@code minReadySeconds} by {@code now}. */
    static boolean available(JsonNode pod, long minReadySeconds, Instant now) {
        if (!ready(pod)) {
            return false;
        }
        if (minReadySeconds == 0) {
            return true;
        }
        return readySince(pod).map(t -> !t.plusSeconds(minReadySeconds).isAfter(now)).orElse(false);
    }

    static Optional<Instant> readySince(JsonNode pod) {
        return readyCondition(pod).map(c -> c.path("lastTransitionTime").asText(""))
                .filter(t -> !t.isEmpty()).map(Instant::parse);
    }

    private static Optional<JsonNode> readyCondition(JsonNode pod) {
        for (JsonNode c : pod.path("status").path("conditions")) {
            if (c.path("type").asText().equals("Ready")) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** The owner reference with {@code controller: true}, if any ({@code GetControllerOf}). */
    static Optional<JsonNode> controllerOf(JsonNode object) {
        for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                return Optional.of(ref);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code object}'s controller is {@code owner} (by kind and uid). */
    static boolean controlledBy(JsonNode object, String kind, String uid) {
        return controllerOf(object).map(r -> r.path("kind").asText().equals(kind) && r.path("uid").asText().equals(uid))
                .orElse(false);
    }

    /** {@code NewControllerRef}: controller and blockOwnerDeletion true. */
    static ObjectNode controllerRef(ObjectNode owner) {
        ObjectMeta meta = ObjectMeta.of(owner);
        ObjectNode ref = Json.object();
        ref.put("apiVersion", owner.path("apiVersion").asText());
        ref.put("kind", owner.path("kind").asText());
        ref.put("name", meta.name());
        ref.put("uid", meta.uid());
        ref.put("controller", true);
        ref.put("blockOwnerDeletion", true);
        return ref;
    }

    /**
     * {@code GetPodFromTemplate}: the template's labels, annotations, finalizers and spec, named
     * {@code <owner>-<random>} by the server, controlled by {@code owner}.
     */
    static ObjectNode fromTemplate(JsonNode template, ObjectNode owner) {
        ObjectNode pod = Json.object();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("generateName", ObjectMeta.of(owner).name() + "-");
        meta.put("namespace", ObjectMeta.of(owner).namespace());
        JsonNode tmeta = template.path("metadata");
        for (String field : new String[] {"labels", "annotations", "finalizers"}) {
            if (tmeta.has(field) && !tmeta.get(field).isNull()) {
                meta.set(field, tmeta.get(field).deepCopy());
            }
        }
        meta.putArray("ownerReferences").add(controllerRef(owner));
        pod.set("spec", template.path("spec").deepCopy());
        return pod;
    }

    /**
     * kube's {@code ActivePods} order, the Pods to delete first: not yet on a node, then Pending before
     * Unknown before Running, not ready before ready, lower {@code controller.kubernetes.io/pod-deletion-cost},
     * ready for less time, more container restarts, newer.
     */
    static final Comparator<JsonNode> DELETE_FIRST = Comparator
            .<JsonNode>comparingInt(p -> p.path("spec").path("nodeName").asText("").isEmpty() ? 0 : 1)
            .thenComparingInt(p -> switch (p.path("status").path("phase").asText("")) {
                case "Pending" -> 0;
                case "Unknown" -> 1;
                case "Running" -> 2;
                default -> 0;
            })
            .thenComparingInt(p -> ready(p) ? 1 : 0)
            .thenComparingInt(Pods::deletionCost)
            .thenComparing((a, b) -> {
                Instant ra = readySince(a).orElse(Instant.MIN);
                Instant rb = readySince(b).orElse(Instant.MIN);
                return ready(a) && ready(b) ? rb.compareTo(ra) : 0;
            })
            .thenComparing(Comparator.comparingInt(Pods::restarts).reversed())
            .thenComparing(Comparator.<JsonNode, String>comparing(p -> p.path("metadata").path("creationTimestamp")
                    .asText("")).reversed());

    private static int deletionCost(JsonNode pod) {
        String cost = pod.path("metadata").path("annotations").path("controller.kubernetes.io/pod-deletion-cost")
                .asText("");
        try {
            return cost.isEmpty() ? 0 : Integer.parseInt(cost);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static int restarts(JsonNode pod) {
        int max = 0;
        for (JsonNode s : pod.path("status").path("containerStatuses")) {
            max = Math.max(max, s.path("restartCount").asInt(0));
        }
        return max;
    }
}
