package io.kapi.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.quantity.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one node's kubelet has admitted, and its admission of one more Pod (kubelet's
 * {@code predicateAdmitHandler} for resources): the scheduler is responsible for fit, but a Pod bound by hand
 * beyond the node's allocatable is rejected as kubelet rejects it: Failed, reason {@code OutOfcpu},
 * {@code OutOfmemory}, {@code OutOfephemeral-storage} or {@code OutOfpods}, message {@code Pod was rejected:
 * Node didn't have enough resource: cpu, requested: 5000, used: 0, capacity: 4000} (CPU in millicores).
 */
final class NodeResources {

    private static final List<String> CHECKED = List.of("cpu", "memory", "ephemeral-storage");

    /** A rejection: the Pod's {@code status.reason} and {@code status.message}. */
    record Rejection(String reason, String message) {
    }

    private final Map<String, Long> allocatable = new HashMap<>();
    private final int maxPods;
    private final Map<String, Map<String, Long>> admitted = new HashMap<>();

    NodeResources(NodeShape shape) {
        allocatable.put("cpu", amount("cpu", shape.cpu()));
        allocatable.put("memory", amount("memory", shape.memory()));
        allocatable.put("ephemeral-storage", amount("ephemeral-storage", shape.ephemeralStorage()));
        this.maxPods = shape.pods();
    }

    /** Admits Pod {@code uid} (again: no change), or says why not. */
    synchronized Rejection admit(String uid, JsonNode pod) {
        if (admitted.containsKey(uid)) {
            return null;
        }
        if (admitted.size() + 1 > maxPods) {
            return rejection("pods", 1, admitted.size(), maxPods);
        }
        Map<String, Long> wanted = requests(pod);
        for (String r : CHECKED) {
            long want = wanted.getOrDefault(r, 0L);
            if (want == 0) {
                continue;
            }
            long used = 0;
            for (Map<String, Long> other : admitted.values()) {
                used += other.getOrDefault(r, 0L);
            }
            if (used + want > allocatable.get(r)) {
                return rejection(r, want, used, allocatable.get(r));
            }
        }
        admitted.put(uid, wanted);
        return null;
    }

    /** Counts a Pod admitted before (by an earlier run of the server) without checking it. */
    synchronized void hold(String uid, JsonNode pod) {
        admitted.computeIfAbsent(uid, u -> requests(pod));
    }

    synchronized void release(String uid) {
        admitted.remove(uid);
    }

    private static Rejection rejection(String resource, long requested, long used, long capacity) {
        String reason = switch (resource) {
            case "cpu" -> "OutOfcpu";
            case "memory" -> "OutOfmemory";
            case "ephemeral-storage" -> "OutOfephemeral-storage";
            default -> "OutOfpods";
        };
        return new Rejection(reason, "Pod was rejected: Node didn't have enough resource: %s, requested: %d, used: %d, "
                .formatted(resource, requested, used) + "capacity: " + capacity);
    }

    /**
     * kube's {@code PodRequests}: the regular containers' and sidecars' requests summed, or the largest of an
     * init container's (with the sidecars started before it) where that is more, plus the Pod's overhead.
     */
    static Map<String, Long> requests(JsonNode pod) {
        Map<String, Long> sum = new LinkedHashMap<>();
        for (JsonNode c : pod.path("spec").path("containers")) {
            add(sum, c.path("resources").path("requests"));
        }
        Map<String, Long> sidecars = new LinkedHashMap<>();
        Map<String, Long> initMax = new LinkedHashMap<>();
        for (JsonNode c : pod.path("spec").path("initContainers")) {
            if (PodStages.sidecar(c)) {
                add(sidecars, c.path("resources").path("requests"));
                add(sum, c.path("resources").path("requests"));
            } else {
                Map<String, Long> during = new LinkedHashMap<>(sidecars);
                add(during, c.path("resources").path("requests"));
                during.forEach((k, v) -> initMax.merge(k, v, Math::max));
            }
        }
        initMax.forEach((k, v) -> sum.merge(k, v, Math::max));
        add(sum, pod.path("spec").path("overhead"));
        return sum;
    }

    private static void add(Map<String, Long> into, JsonNode list) {
        list.properties().forEach(e -> {
            if (CHECKED.contains(e.getKey())) {
                into.merge(e.getKey(), amount(e.getKey(), e.getValue().asText()), Long::sum);
            }
        });
    }

    /** CPU in millicores, the rest in units, rounded up as kube's {@code MilliValue}/{@code Value}. */
    private static long amount(String resource, String text) {
        Quantity q = Quantity.parseOrNull(text);
        if (q == null) {
            return 0;
        }
        BigDecimal v = resource.equals("cpu") ? q.value().movePointRight(3) : q.value();
        return v.setScale(0, RoundingMode.CEILING).longValueExact();
    }
}
