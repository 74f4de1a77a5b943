package io.kapi.admission.plugin.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.quantity.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a pod counts against compute quotas, as kube's pod evaluator: {@code pods} and the pod's requests and
 * limits ({@code cpu}/{@code requests.cpu}, {@code limits.cpu}, memory, ephemeral storage, hugepages and extended
 * resources) computed as the scheduler does (containers and sidecars summed, init containers at their peak,
 * plus the overhead); a terminal pod counts for nothing but {@code count/pods}.
 */
final class PodUsage {

    /** The resources every container must name when a quota limits them (kube's backward-compatible rule). */
    static final Set<String> VALIDATION = Set.of("cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu",
            "limits.memory");

    private PodUsage() {
    }

    static ResourceList of(JsonNode pod) {
        ResourceList result = ResourceList.one("count/pods");
        String phase = pod.path("status").path("phase").asText("");
        if (phase.equals("Succeeded") || phase.equals("Failed")) {
            return result;
        }
        JsonNode spec = pod.path("spec");
        ResourceList overhead = ResourceList.of(spec.path("overhead"));
        ResourceList requests = aggregate(spec, "requests").add(overhead);
        ResourceList limits = aggregate(spec, "limits");
        limits = limits.add(overhead.mask(limits.names()));
        return result.add(compute(requests, limits));
    }

    /** kube's {@code PodRequests}/{@code PodLimits} without pod-level resources. */
    private static ResourceList aggregate(JsonNode spec, String kind) {
        ResourceList sum = ResourceList.EMPTY;
        for (JsonNode c : spec.path("containers")) {
            sum = sum.add(ResourceList.of(c.path("resources").path(kind)));
        }
        ResourceList sidecars = ResourceList.EMPTY;
        ResourceList initPeak = ResourceList.EMPTY;
        for (JsonNode c : spec.path("initContainers")) {
            ResourceList own = ResourceList.of(c.path("resources").path(kind));
            ResourceList peak;
            if ("Always".equals(c.path("restartPolicy").asText(""))) {
                sum = sum.add(own);
                sidecars = sidecars.add(own);
                peak = sidecars;
            } else {
                peak = own.add(sidecars);
            }
            initPeak = initPeak.max(peak);
        }
        return sum.max(initPeak);
    }

    /** kube's {@code podComputeUsageHelper}: the quota names of a pod's (or container's) requests and limits. */
    static ResourceList compute(ResourceList requests, ResourceList limits) {
        Map<String, Quantity> out = new TreeMap<>();
        out.put("pods", Quantity.of(1));
        for (String r : new String[] {"cpu", "memory", "ephemeral-storage"}) {
            if (requests.has(r)) {
                out.put(r, requests.get(r));
                out.put("requests." + r, requests.get(r));
            }
            if (limits.has(r)) {
                out.put("limits." + r, limits.get(r));
            }
        }
        for (var e : requests.entries()) {
            String name = e.getKey();
            if (name.startsWith("hugepages-")) {
                out.put(name, e.getValue());
                out.put("requests." + name, e.getValue());
            } else if (extended(name)) {
                out.put("requests." + name, e.getValue());
            }
        }
        return new ResourceList(new TreeMap<>(out));
    }

    /** An extended resource: a qualified name outside {@code kubernetes.io}, not {@code requests.*}. */
    private static boolean extended(String name) {
        int slash = name.indexOf('/');
        if (slash < 0 || name.startsWith("requests.")) {
            return false;
        }
        String domain = name.substring(0, slash);
        return !domain.equals("kubernetes.io") && !domain.endsWith(".kubernetes.io");
    }

    /**
     * kube's pod {@code Constraints}: each container must name every one of {@code required} (within
     * {@link #VALIDATION}); empty when they do, else {@code must specify limits.cpu for: a,b; requests.cpu for: a}.
     */
    static String missing(JsonNode pod, Set<String> required) {
        Set<String> needed = new TreeSet<>(required);
        needed.retainAll(VALIDATION);
        if (needed.isEmpty()) {
            return "";
        }
        Map<String, Set<String>> missing = new TreeMap<>();
        for (String field : new String[] {"containers", "initContainers"}) {
            for (JsonNode c : pod.path("spec").path(field)) {
                ResourceList has = compute(ResourceList.of(c.path("resources").path("requests")),
                        ResourceList.of(c.path("resources").path("limits")));
                for (String r : needed) {
                    if (!has.has(r)) {
                        missing.computeIfAbsent(r, k -> new TreeSet<>()).add(c.path("name").asText(""));
                    }
                }
            }
        }
        if (missing.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        missing.forEach((r, names) -> parts.add(r + " for: " + String.join(",", names)));
        return "must specify " + String.join("; ", parts);
    }
}
