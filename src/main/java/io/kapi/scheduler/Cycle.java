package io.kapi.scheduler;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One Pod's scheduling attempt (kube's {@code CycleState} with the snapshot it reads): the Pod, every
 * Node as the cache has it, the labels of namespaces (for namespace selectors), and what each plugin
 * computed in {@code preFilter} or {@code preScore}.
 *
 * @param defaultSpreadSelector the selector kube's default spreading uses for a Pod (the Services,
 *        ReplicaSets, StatefulSets and ReplicationControllers selecting it), null for none
 */
final class Cycle {

    private final PodInfo pod;
    private final List<NodeInfo> nodes;
    private final Function<String, Map<String, String>> namespaceLabels;
    private final Function<PodInfo, io.kapi.machinery.labels.LabelSelector> defaultSpreadSelector;
    private final Map<String, Object> state = new HashMap<>();
    private final LabelIndex index;
    private Nominations nominations;
    private final Map<io.kapi.machinery.labels.LabelSelector, Map<NodeInfo, Integer>> matching = new HashMap<>();

    Cycle(PodInfo pod, List<NodeInfo> nodes, Function<String, Map<String, String>> namespaceLabels,
          Function<PodInfo, io.kapi.machinery.labels.LabelSelector> defaultSpreadSelector) {
        this(pod, nodes, null, namespaceLabels, defaultSpreadSelector);
    }

    /** @param index the cache's label index of {@code nodes}' Pods, or null to count them Node by Node */
    Cycle(PodInfo pod, List<NodeInfo> nodes, LabelIndex index, Function<String, Map<String, String>> namespaceLabels,
          Function<PodInfo, io.kapi.machinery.labels.LabelSelector> defaultSpreadSelector) {
        this.index = index;
        this.pod = pod;
        this.nodes = nodes;
        this.namespaceLabels = namespaceLabels;
        this.defaultSpreadSelector = defaultSpreadSelector;
    }

    PodInfo pod() {
        return pod;
    }

    List<NodeInfo> nodes() {
        return nodes;
    }

    Map<String, String> namespaceLabels(String namespace) {
        Map<String, String> labels = namespaceLabels.apply(namespace);
        return labels == null ? Map.of() : labels;
    }

    io.kapi.machinery.labels.LabelSelector defaultSpreadSelector() {
        return defaultSpreadSelector == null ? null : defaultSpreadSelector.apply(pod);
    }

    /** Counts the Pods nominated to a Node on it while filtering (none when never called). */
    Cycle withNominations(Nominations nominations) {
        this.nominations = nominations;
        return this;
    }

    /** The Pods nominated to {@code node} this Pod must leave room for. */
    List<PodInfo> nominatedOn(String node) {
        return nominations == null ? List.of() : nominations.on(node, pod);
    }

    /** The Pods (not being deleted) of the Pod's namespace {@code selector} matches, per Node; once per cycle. */
    Map<NodeInfo, Integer> matching(io.kapi.machinery.labels.LabelSelector selector) {
        return matching.computeIfAbsent(selector, s -> {
            if (index != null) {
                return index.matching(pod.namespace(), s);
            }
            Map<NodeInfo, Integer> out = new HashMap<>();
            for (NodeInfo n : nodes) {
                int c = n.count(pod.namespace(), s);
                if (c > 0) {
                    out.put(n, c);
                }
            }
            return out;
        });
    }

    @SuppressWarnings("unchecked")
    <T> T get(String plugin) {
        return (T) state.get(plugin);
    }

    void put(String plugin, Object value) {
        state.put(plugin, value);
    }
}
