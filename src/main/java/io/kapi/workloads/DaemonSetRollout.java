package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ObjectMeta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one step of a DaemonSet's RollingUpdate does, as kube's daemon controller decides it
 * ({@code pkg/controller/daemon/update.go}). Without a surge, old Pods are deleted while fewer than
 * {@code maxUnavailable} nodes lack an available Pod (old Pods not available go first, whatever the budget),
 * and {@code manage} then makes the new Pods. With {@code maxSurge}, a new Pod is made beside an available old
 * one on up to {@code maxSurge} nodes at a time (at once where the old one is not available), and the old one
 * is deleted once the new one is available. Both budgets are of the desired node count, rounded up; with
 * both 0, one node at a time.
 */
final class DaemonSetRollout {

    /** The Pods to delete and the nodes that get a new Pod. */
    record Plan(List<ObjectNode> delete, List<String> create) {
    }

    private DaemonSetRollout() {
    }

    /**
     * The old Pods to delete and the nodes to make a new Pod on, for {@code byNode} (the set's Pods by node,
     * oldest first) at {@code now}.
     */
    static Plan plan(ObjectNode ds, List<ObjectNode> nodes, Map<String, List<ObjectNode>> byNode, String hash,
            Instant now) {
        long generation = DaemonSetController.templateGeneration(ds);
        long minReady = ds.path("spec").path("minReadySeconds").asLong(0);
        int desired = desired(ds, nodes);
        Budget budget = Budget.of(ds, desired);
        List<ObjectNode> delete = new ArrayList<>();
        List<String> create = new ArrayList<>();
        if (budget.maxSurge() == 0) {
            int unavailable = 0;
            List<ObjectNode> allowed = new ArrayList<>();
            List<ObjectNode> candidates = new ArrayList<>();
            for (var e : byNode.entrySet()) {
                OnNode on = OnNode.of(e.getValue(), hash, generation);
                if (!on.ok() || (on.newPod() == null) == (on.oldPod() == null)) {
                    unavailable++;
                } else if (on.newPod() != null) {
                    unavailable += Pods.available(on.newPod(), minReady, now) ? 0 : 1;
                } else if (!Pods.available(on.oldPod(), minReady, now)) {
                    allowed.add(on.oldPod());
                } else if (unavailable < budget.maxUnavailable()) {
                    candidates.add(on.oldPod());
                }
            }
            int remaining = Math.min(Math.max(0, budget.maxUnavailable() - unavailable), candidates.size());
            delete.addAll(allowed);
            delete.addAll(candidates.subList(0, remaining));
        } else {
            int surging = 0;
            List<String> allowedNodes = new ArrayList<>();
            List<String> candidateNodes = new ArrayList<>();
            Map<String, JsonNode> nodesByName = new HashMap<>();
            nodes.forEach(n -> nodesByName.put(ObjectMeta.of(n).name(), n));
            for (var e : byNode.entrySet()) {
                OnNode on = OnNode.of(e.getValue(), hash, generation);
                if (!on.ok()) {
                    surging++;
                } else if (on.newPod() == null && on.oldPod() != null) {
                    JsonNode node = nodesByName.get(e.getKey());
                    if (!Pods.available(on.oldPod(), minReady, now)) {
                        allowedNodes.add(e.getKey());
                    } else if (node != null && NodeEligibility.placement(ds.path("spec").path("template").path("spec"),
                            node).shouldRun()) {
                        candidateNodes.add(e.getKey());
                    }
                } else if (on.newPod() != null && on.oldPod() != null) {
                    surging++;
                    if (Pods.available(on.newPod(), minReady, now)) {
                        delete.add(on.oldPod());
                    }
                }
            }
            int remaining = Math.min(Math.max(0, budget.maxSurge() - surging), candidateNodes.size());
            create.addAll(allowedNodes);
            create.addAll(candidateNodes.subList(0, remaining));
        }
        return new Plan(delete, create);
    }

    /** kube's {@code updatedDesiredNodeCounts}: maxUnavailable and maxSurge of the desired count, rounded up. */
    record Budget(int maxUnavailable, int maxSurge) {
        static Budget of(JsonNode ds, int desired) {
            JsonNode r = ds.path("spec").path("updateStrategy").path("rollingUpdate");
            int surge = r.hasNonNull("maxSurge") ? RollingUpdate.scaled(r.get("maxSurge"), desired, true) : 0;
            int unavailable = r.hasNonNull("maxUnavailable") ? RollingUpdate.scaled(r.get("maxUnavailable"), desired, true) : 1;
            return new Budget(desired > 0 && surge == 0 && unavailable == 0 ? 1 : unavailable, surge);
        }

        /** {@code AllowsSurge}: a maxSurge above zero (a percentage of one, rounded up). */
        static boolean allowsSurge(JsonNode ds) {
            JsonNode surge = ds.path("spec").path("updateStrategy").path("rollingUpdate").path("maxSurge");
            return !surge.isMissingNode() && !surge.isNull() && RollingUpdate.scaled(surge, 1, true) > 0;
        }
    }

    /** {@code findUpdatedPodsOnNode}: the one new and the one old Pod on a node; not ok when there are more. */
    record OnNode(ObjectNode newPod, ObjectNode oldPod, boolean ok) {
        static OnNode of(List<ObjectNode> pods, String hash, long generation) {
            ObjectNode newPod = null;
            ObjectNode oldPod = null;
            for (ObjectNode pod : pods) {
                if (Pods.terminating(pod)) {
                    continue;
                }
                if (DaemonSetController.updated(pod, hash, generation)) {
                    if (newPod != null) {
                        return new OnNode(null, null, false);
                    }
                    newPod = pod;
                } else {
                    if (oldPod != null) {
                        return new OnNode(null, null, false);
                    }
                    oldPod = pod;
                }
            }
            return new OnNode(newPod, oldPod, true);
        }
    }

    private static int desired(ObjectNode ds, List<ObjectNode> nodes) {
        int desired = 0;
        for (ObjectNode node : nodes) {
            if (NodeEligibility.placement(ds.path("spec").path("template").path("spec"), node).shouldRun()) {
                desired++;
            }
        }
        return desired;
    }
}
