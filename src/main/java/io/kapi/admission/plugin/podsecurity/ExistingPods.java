package io.kapi.admission.plugin.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's {@code EvaluatePodsInNamespace}: the warnings for a namespace whose enforce level is tightened, from
 * its existing pods (one per controller first, at most {@link #MAX_PODS}, within {@link #BUDGET_NANOS}),
 * pods with the same violations grouped under the first name.
 */
public final class ExistingPods {

    static final int MAX_PODS = 3000;
    static final long BUDGET_NANOS = 1_000_000_000L;

    private ExistingPods() {
    }

    public static List<String> warnings(String namespace, LevelVersion enforce, List<ObjectNode> pods,
                                        PodSecurityConfig config, Evaluator evaluator) {
        List<ObjectNode> ordered = prioritized(pods, config);
        int total = ordered.size();
        List<ObjectNode> checked = ordered.subList(0, Math.min(total, MAX_PODS));
        Map<String, String[]> byReason = new LinkedHashMap<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        long deadline = System.nanoTime() + BUDGET_NANOS;
        int done = 0;
        for (ObjectNode pod : checked) {
            done++;
            List<Violation> v = evaluator.evaluate(enforce, new PodView(pod.path("metadata"), pod.path("spec")));
            if (!v.isEmpty()) {
                String reason = Violation.reasons(v);
                String name = pod.path("metadata").path("name").asText("");
                String[] first = byReason.computeIfAbsent(reason, r -> new String[] {name});
                if (name.compareTo(first[0]) < 0) {
                    first[0] = name;
                }
                counts.merge(reason, 1, Integer::sum);
            }
            if (System.nanoTime() > deadline) {
                break;
            }
        }
        List<String> warnings = new ArrayList<>();
        if (done < total) {
            warnings.add("new PodSecurity enforce level only checked against the first %d of %d existing pods"
                    .formatted(done, total));
        }
        if (!byReason.isEmpty()) {
            warnings.add("existing pods in namespace \"%s\" violate the new PodSecurity enforce level \"%s\""
                    .formatted(namespace, enforce));
        }
        List<String> podWarnings = new ArrayList<>();
        byReason.forEach((reason, first) -> podWarnings.add(decorate(first[0], counts.get(reason), reason)));
        podWarnings.sort(null);
        warnings.addAll(podWarnings);
        return warnings;
    }

    private static String decorate(String pod, int count, String reason) {
        return switch (count) {
            case 1 -> pod + ": " + reason;
            case 2 -> pod + " (and 1 other pod): " + reason;
            default -> pod + " (and " + (count - 1) + " other pods): " + reason;
        };
    }

    /** Pods of exempt runtime classes left out; the first pod of each controller, then the other replicas. */
    private static List<ObjectNode> prioritized(List<ObjectNode> pods, PodSecurityConfig config) {
        List<ObjectNode> first = new ArrayList<>();
        List<ObjectNode> duplicates = new ArrayList<>();
        Set<String> controllers = new HashSet<>();
        for (ObjectNode pod : pods) {
            if (config.exemptRuntimeClass(pod.path("spec"))) {
                continue;
            }
            String controller = controllerUid(pod);
            if (controller == null || controllers.add(controller)) {
                first.add(pod);
            } else {
                duplicates.add(pod);
            }
        }
        first.addAll(duplicates);
        return first;
    }

    private static String controllerUid(ObjectNode pod) {
        for (JsonNode ref : pod.path("metadata").path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                return ref.path("uid").asText("");
            }
        }
        return null;
    }
}
