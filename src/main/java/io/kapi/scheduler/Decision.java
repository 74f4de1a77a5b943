package io.kapi.scheduler;

import java.util.Map;

/** What one scheduling cycle decided for a Pod. */
sealed interface Decision {

    /** The Node chosen, of {@code feasible} Nodes found fit (of {@code evaluated} filtered). */
    record Fit(NodeInfo node, int feasible, int evaluated) implements Decision {
    }

    /**
     * No Node fits: {@code rejections} says why, per Node (kube's {@code Diagnosis.NodeToStatus}), of
     * {@code allNodes}.
     */
    record Unfit(Map<String, Rejection> rejections, int allNodes) implements Decision {
    }
}
