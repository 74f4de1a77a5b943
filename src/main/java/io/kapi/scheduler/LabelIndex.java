package io.kapi.scheduler;

import io.kapi.machinery.labels.LabelSelector;
import java.util.HashMap;
import java.util.Map;

/**
 * The cluster's Pods (not being deleted) by namespace and label set, with how many of each every Node holds:
 * spreading matches a selector against each distinct label set once (the Pods of one ReplicaSet share
 * theirs), not against every Pod on every Node. Kept by the {@link SchedulerCache}'s Nodes, under its lock.
 */
final class LabelIndex {

    private final Map<NodeInfo.LabelSet, Map<NodeInfo, Integer>> sets = new HashMap<>();

    void add(NodeInfo.LabelSet set, NodeInfo node, int delta) {
        Map<NodeInfo, Integer> nodes = sets.computeIfAbsent(set, s -> new HashMap<>());
        if (nodes.merge(node, delta, Integer::sum) == 0) {
            nodes.remove(node);
            if (nodes.isEmpty()) {
                sets.remove(set);
            }
        }
    }

    /** The Pods of {@code namespace} that {@code selector} matches, per Node holding any. */
    Map<NodeInfo, Integer> matching(String namespace, LabelSelector selector) {
        Map<NodeInfo, Integer> out = new HashMap<>();
        for (var e : sets.entrySet()) {
            if (e.getKey().namespace().equals(namespace) && selector.matches(e.getKey().labels())) {
                e.getValue().forEach((node, n) -> out.merge(node, n, Integer::sum));
            }
        }
        return out;
    }
}
