package io.kapi.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.machinery.scheduling.NodeScheduling;
import java.util.ArrayList;
import java.util.List;

/**
 * One topology spread constraint with kube's defaults applied: {@code minDomains} 1,
 * {@code nodeAffinityPolicy} Honor, {@code nodeTaintsPolicy} Ignore; {@code matchLabelKeys} become
 * {@code key In (the Pod's value)} requirements of the selector.
 */
record SpreadConstraint(int maxSkew, String topologyKey, boolean hard, LabelSelector selector, int minDomains,
                        boolean honorAffinity, boolean honorTaints) {

    static List<SpreadConstraint> of(PodInfo pod) {
        List<SpreadConstraint> constraints = new ArrayList<>();
        for (JsonNode c : pod.spec().path("topologySpreadConstraints")) {
            ObjectNode selector = c.path("labelSelector").isObject() ? ((ObjectNode) c.path("labelSelector")).deepCopy()
                    : null;
            if (selector != null) {
                for (JsonNode key : c.path("matchLabelKeys")) {
                    String value = pod.labels().get(key.asText());
                    if (value != null) {
                        ObjectNode r = selector.withArray("matchExpressions").addObject();
                        r.put("key", key.asText()).put("operator", "In").putArray("values").add(value);
                    }
                }
            }
            LabelSelector parsed;
            try {
                parsed = LabelSelector.fromObject(selector);
            } catch (IllegalArgumentException e) {
                parsed = LabelSelector.NOTHING;
            }
            constraints.add(new SpreadConstraint(c.path("maxSkew").asInt(1), c.path("topologyKey").asText(""),
                    c.path("whenUnsatisfiable").asText("DoNotSchedule").equals("DoNotSchedule"), parsed,
                    c.path("minDomains").asInt(1), !c.path("nodeAffinityPolicy").asText("Honor").equals("Ignore"),
                    c.path("nodeTaintsPolicy").asText("Ignore").equals("Honor")));
        }
        return constraints;
    }

    /** kube's system default constraints: hostname at skew 3, zone at skew 5, both ScheduleAnyway. */
    static List<SpreadConstraint> systemDefaults(LabelSelector selector) {
        return List.of(new SpreadConstraint(3, "kubernetes.io/hostname", false, selector, 1, true, false),
                new SpreadConstraint(5, "topology.kubernetes.io/zone", false, selector, 1, true, false));
    }

    /** Whether {@code node} counts toward this constraint's domains (its node affinity and taint policies). */
    boolean eligible(PodInfo pod, NodeInfo node) {
        if (honorAffinity && !NodeAffinity.matches(pod.spec(), node)) {
            return false;
        }
        if (honorTaints) {
            for (JsonNode taint : node.taints()) {
                String effect = taint.path("effect").asText("");
                if ((effect.equals("NoSchedule") || effect.equals("NoExecute"))
                        && !NodeScheduling.tolerated(pod.spec().path("tolerations"), taint)) {
                    return false;
                }
            }
        }
        return true;
    }
}
