package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.scheduling.NodeScheduling;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a DaemonSet's Pod belongs on a Node, as kube's daemon controller decides it
 * ({@code NodeShouldRunDaemonPod}): the template's {@code nodeName} (if any) is the Node's, its
 * {@code nodeSelector} and required node affinity match the Node, and the Node's NoSchedule and NoExecute
 * taints are tolerated by the template's tolerations plus those the controller adds to every daemon Pod
 * ({@link #withDaemonTolerations}). A Pod already there keeps running unless a NoExecute taint is not
 * tolerated or the selectors no longer match.
 */
final class NodeEligibility {

    /** {@code shouldRun}: a Pod should be made there; {@code shouldContinueRunning}: one there may stay. */
    record Placement(boolean shouldRun, boolean shouldContinueRunning) {
    }

    private NodeEligibility() {
    }

    /** {@code NodeShouldRunDaemonPod} for a template's pod spec (the daemon tolerations are added here). */
    static Placement placement(JsonNode podSpec, JsonNode node) {
        ObjectNode spec = withDaemonTolerations(podSpec);
        String nodeName = node.path("metadata").path("name").asText();
        String pinned = spec.path("nodeName").asText("");
        if (!pinned.isEmpty() && !pinned.equals(nodeName)) {
            return new Placement(false, false);
        }
        if (!selectorsMatch(spec, node)) {
            return new Placement(false, false);
        }
        boolean schedulable = true;
        boolean executable = true;
        for (JsonNode taint : node.path("spec").path("taints")) {
            String effect = taint.path("effect").asText("");
            if ((effect.equals("NoSchedule") || effect.equals("NoExecute")) && !tolerated(spec, taint)) {
                schedulable = false;
                executable &= !effect.equals("NoExecute");
            }
        }
        return new Placement(schedulable, executable);
    }

    /**
     * {@code AddOrUpdateDaemonPodTolerations}: the tolerations every daemon Pod gets, Exists without a
     * value: not-ready and unreachable (NoExecute, no tolerationSeconds), disk-, memory- and pid-pressure
     * and unschedulable (NoSchedule), and network-unavailable (NoSchedule) with host networking.
     */
    static ObjectNode withDaemonTolerations(JsonNode podSpec) {
        ObjectNode spec = podSpec.isObject() ? ((ObjectNode) podSpec).deepCopy() : Json.object();
        List<String[]> added = new ArrayList<>(List.of(
                new String[] {"node.kubernetes.io/not-ready", "NoExecute"},
                new String[] {"node.kubernetes.io/unreachable", "NoExecute"},
                new String[] {"node.kubernetes.io/disk-pressure", "NoSchedule"},
                new String[] {"node.kubernetes.io/memory-pressure", "NoSchedule"},
                new String[] {"node.kubernetes.io/pid-pressure", "NoSchedule"},
                new String[] {"node.kubernetes.io/unschedulable", "NoSchedule"}));
        if (spec.path("hostNetwork").asBoolean(false)) {
            added.add(new String[] {"node.kubernetes.io/network-unavailable", "NoSchedule"});
        }
        ArrayNode tolerations = spec.path("tolerations").isArray() ? (ArrayNode) spec.get("tolerations")
                : spec.putArray("tolerations");
        for (String[] t : added) {
            ObjectNode toleration = Json.object().put("key", t[0]).put("operator", "Exists").put("effect", t[1]);
            addOrUpdate(tolerations, toleration);
        }
        return spec;
    }

    /** {@code AddOrUpdateTolerationInPodSpec}: one of the same key, operator, value and effect is replaced. */
    private static void addOrUpdate(ArrayNode tolerations, ObjectNode toleration) {
        for (int i = 0; i < tolerations.size(); i++) {
            JsonNode t = tolerations.get(i);
            if (t.path("key").asText("").equals(toleration.path("key").asText())
                    && t.path("operator").asText("Equal").equals("Exists")
                    && t.path("value").asText("").isEmpty()
                    && t.path("effect").asText("").equals(toleration.path("effect").asText())) {
                tolerations.set(i, toleration);
                return;
            }
        }
        tolerations.add(toleration);
    }

    /** {@code TolerationsTolerateTaint} over the Pod spec's tolerations. */
    static boolean tolerated(JsonNode spec, JsonNode taint) {
        return NodeScheduling.tolerated(spec.path("tolerations"), taint);
    }

    /** {@code nodeSelector} and the required terms of node affinity (any term; each term all its requirements). */
    static boolean selectorsMatch(JsonNode spec, JsonNode node) {
        JsonNode labels = node.path("metadata").path("labels");
        for (var e : spec.path("nodeSelector").properties()) {
            if (!labels.path(e.getKey()).isTextual() || !labels.path(e.getKey()).asText().equals(e.getValue().asText())) {
                return false;
            }
        }
        JsonNode required = spec.path("affinity").path("nodeAffinity").path("requiredDuringSchedulingIgnoredDuringExecution");
        if (required.isMissingNode() || required.isNull()) {
            return true;
        }
        for (JsonNode term : required.path("nodeSelectorTerms")) {
            if (termMatches(term, node)) {
                return true;
            }
        }
        return false;
    }

    /** A term with neither expressions nor fields matches nothing, as kube's. */
    private static boolean termMatches(JsonNode term, JsonNode node) {
        JsonNode expressions = term.path("matchExpressions");
        JsonNode fields = term.path("matchFields");
        if (expressions.isEmpty() && fields.isEmpty()) {
            return false;
        }
        for (JsonNode r : expressions) {
            JsonNode value = node.path("metadata").path("labels").path(r.path("key").asText());
            if (!NodeScheduling.requirementMatches(r, value.isTextual() ? value.asText() : null)) {
                return false;
            }
        }
        for (JsonNode r : fields) {
            String value = r.path("key").asText().equals("metadata.name") ? node.path("metadata").path("name").asText() : null;
            if (value == null || !NodeScheduling.requirementMatches(r, value)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code ReplaceDaemonSetPodNodeNameNodeAffinity}: the required node affinity becomes the one term
     * {@code metadata.name In [node]} (matchFields); other affinity is kept.
     */
    static void pinTo(ObjectNode podSpec, String nodeName) {
        ObjectNode nodeAffinity = podSpec.with("affinity").with("nodeAffinity");
        ObjectNode required = Json.object();
        ObjectNode requirement = required.putArray("nodeSelectorTerms").addObject().putArray("matchFields").addObject();
        requirement.put("key", "metadata.name").put("operator", "In").putArray("values").add(nodeName);
        nodeAffinity.set("requiredDuringSchedulingIgnoredDuringExecution", required);
    }

    /** {@code GetTargetNodeName}: {@code spec.nodeName}, else the node the affinity pins it to, else null. */
    static String targetNode(JsonNode pod) {
        String nodeName = pod.path("spec").path("nodeName").asText("");
        if (!nodeName.isEmpty()) {
            return nodeName;
        }
        JsonNode terms = pod.path("spec").path("affinity").path("nodeAffinity")
                .path("requiredDuringSchedulingIgnoredDuringExecution").path("nodeSelectorTerms");
        for (JsonNode term : terms) {
            for (JsonNode r : term.path("matchFields")) {
                if (r.path("key").asText().equals("metadata.name") && r.path("operator").asText().equals("In")
                        && r.path("values").size() == 1) {
                    return r.path("values").get(0).asText();
                }
            }
        }
        return null;
    }
}
