package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.quantity.Quantity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's {@code qos.ComputePodQOS}: {@code Guaranteed} when every container (init containers included) has
 * cpu and memory limits equal to its requests, {@code BestEffort} when none has any cpu or memory request or
 * limit, else {@code Burstable}. A request left unset counts as equal to its limit, as kube's defaulting makes it.
 */
final class PodQos {

    private static final Set<String> COMPUTE = Set.of("cpu", "memory");

    private PodQos() {
    }

    static String compute(JsonNode spec) {
        Map<String, Quantity> requests = new HashMap<>();
        Map<String, Quantity> limits = new HashMap<>();
        boolean guaranteed = true;
        for (String list : List.of("initContainers", "containers")) {
            for (JsonNode c : GoValues.items(spec.get(list))) {
                JsonNode req = GoValues.at(c, "resources", "requests");
                JsonNode lim = GoValues.at(c, "resources", "limits");
                Set<String> limitsFound = new java.util.HashSet<>();
                for (String name : COMPUTE) {
                    Quantity l = positive(lim.get(name));
                    Quantity r = req.has(name) ? positive(req.get(name)) : l;
                    if (r != null) {
                        requests.merge(name, r, Quantity::add);
                    }
                    if (l != null) {
                        limitsFound.add(name);
                        limits.merge(name, l, Quantity::add);
                    }
                }
                if (!limitsFound.containsAll(COMPUTE)) {
                    guaranteed = false;
                }
            }
        }
        if (requests.isEmpty() && limits.isEmpty()) {
            return "BestEffort";
        }
        if (guaranteed) {
            for (var r : requests.entrySet()) {
                Quantity l = limits.get(r.getKey());
                if (l == null || l.compareTo(r.getValue()) != 0) {
                    guaranteed = false;
                    break;
                }
            }
        }
        return guaranteed && requests.size() == limits.size() ? "Guaranteed" : "Burstable";
    }

    private static Quantity positive(JsonNode q) {
        if (q == null || q.isNull()) {
            return null;
        }
        Quantity v = Quantity.parseOrNull(q.asText());
        return v != null && v.signum() > 0 ? v : null;
    }
}
