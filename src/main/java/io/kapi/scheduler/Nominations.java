package io.kapi.scheduler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pods preemption made room for, by the Node they are nominated to ({@code status.nominatedNodeName}, kube's
 * {@code nominator}): until they are bound, the filters count them on that Node for every Pod of no higher
 * priority, so the room is not taken by another.
 */
final class Nominations {

    private final Map<String, Map<String, PodInfo>> byNode = new HashMap<>();
    private final Map<String, String> nodeOf = new HashMap<>();

    /** {@code pod} nominated to {@code node}, or to none when {@code node} is empty. */
    synchronized void set(PodInfo pod, String node) {
        remove(pod.key());
        if (!node.isEmpty()) {
            byNode.computeIfAbsent(node, n -> new HashMap<>()).put(pod.key(), pod);
            nodeOf.put(pod.key(), node);
        }
    }

    synchronized void remove(String key) {
        String node = nodeOf.remove(key);
        if (node != null) {
            Map<String, PodInfo> pods = byNode.get(node);
            pods.remove(key);
            if (pods.isEmpty()) {
                byNode.remove(node);
            }
        }
    }

    /** The Pods nominated to {@code node} that {@code pod} must leave room for: of at least its priority, not itself. */
    synchronized List<PodInfo> on(String node, PodInfo pod) {
        Map<String, PodInfo> pods = byNode.get(node);
        if (pods == null) {
            return List.of();
        }
        List<PodInfo> out = new ArrayList<>();
        for (PodInfo p : pods.values()) {
            if (p.priority() >= pod.priority() && !p.key().equals(pod.key())) {
                out.add(p);
            }
        }
        return out;
    }
}
