package io.kapi.scheduler;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.scheduling.NodeScheduling;

/**
 * kube's NodeUnschedulable: a cordoned Node ({@code spec.unschedulable}) takes only Pods tolerating the
 * {@code node.kubernetes.io/unschedulable:NoSchedule} taint.
 */
final class NodeUnschedulable implements Plugin {

    static final String NAME = "NodeUnschedulable";
    static final String REASON = "node(s) were unschedulable";
    private static final ObjectNode TAINT = Json.object().put("key", "node.kubernetes.io/unschedulable")
            .put("effect", "NoSchedule");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Rejection filter(Cycle cycle, NodeInfo node) {
        if (node.node().path("spec").path("unschedulable").asBoolean(false)
                && !NodeScheduling.tolerated(cycle.pod().spec().path("tolerations"), TAINT)) {
            return Rejection.unresolvable(NAME, REASON);
        }
        return null;
    }
}
