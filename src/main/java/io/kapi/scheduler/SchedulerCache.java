package io.kapi.scheduler;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ObjectMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-scheduler's cache: every Node with the Pods bound to it (not yet terminated) and those the
 * scheduler has assumed there while their binding is in flight, kept current from the informers'
 * events, so a scheduling cycle reads per-Node aggregates and never lists Pods. An assumed Pod stays
 * counted until the informer shows it bound (then it is an ordinary bound Pod) or its binding fails
 * ({@link #forget}). {@link #cycle} runs one scheduling cycle under the cache's lock, so the Nodes it
 * reads do not change under it.
 */
final class SchedulerCache {

    private final Map<String, NodeInfo> nodes = new LinkedHashMap<>();
    /** Pod key to the Node it is counted on. */
    private final Map<String, String> placed = new HashMap<>();
    private final Set<String> assumed = new HashSet<>();
    private final LabelIndex index = new LabelIndex();
    private List<NodeInfo> list;

    synchronized void putNode(ObjectNode node) {
        String name = ObjectMeta.of(node).name();
        NodeInfo info = nodes.get(name);
        if (info == null) {
            info = new NodeInfo(name, index);
            nodes.put(name, info);
            list = null;
        }
        info.setNode(node);
    }

    synchronized void removeNode(String name) {
        NodeInfo info = nodes.get(name);
        if (info == null) {
            return;
        }
        info.setNode(null);
        if (info.pods.isEmpty()) {
            nodes.remove(name);
            list = null;
        }
    }

    /** A Pod as the informer has it: counted where it is bound, unless it has terminated. */
    synchronized void putPod(ObjectNode pod) {
        PodInfo info = PodInfo.of(pod);
        String phase = pod.path("status").path("phase").asText("");
        if (info.nodeName().isEmpty() || phase.equals("Succeeded") || phase.equals("Failed")) {
            if (!assumed.contains(info.key())) {
                removePod(info.key());
            }
            return;
        }
        assumed.remove(info.key());
        place(info, info.nodeName());
    }

    synchronized void removePod(String key) {
        assumed.remove(key);
        String node = placed.remove(key);
        if (node != null) {
            NodeInfo info = nodes.get(node);
            info.removePod(key);
            if (info.node() == null && info.pods.isEmpty()) {
                nodes.remove(node);
                list = null;
            }
        }
    }

    /** Counts {@code pod} on {@code node} while its binding is in flight. */
    synchronized void assume(PodInfo pod, String node) {
        assumed.add(pod.key());
        place(pod, node);
    }

    /** The binding of an assumed Pod failed: it is no longer counted. */
    synchronized void forget(String key) {
        if (assumed.contains(key)) {
            removePod(key);
        }
    }

    synchronized boolean isAssumedOrBound(String key) {
        return placed.containsKey(key);
    }

    private void place(PodInfo pod, String node) {
        String before = placed.put(pod.key(), node);
        if (before != null && !before.equals(node)) {
            nodes.get(before).removePod(pod.key());
        }
        NodeInfo info = nodes.get(node);
        if (info == null) {
            info = new NodeInfo(node, index);
            nodes.put(node, info);
            list = null;
        }
        info.addPod(pod);
    }

    /** Runs {@code cycle} over the Nodes and the Pods' label index, under the lock. */
    synchronized <T> T cycle(java.util.function.BiFunction<List<NodeInfo>, LabelIndex, T> cycle) {
        if (list == null) {
            list = List.copyOf(nodes.values());
        }
        return cycle.apply(list, index);
    }

    synchronized int nodeCount() {
        int n = 0;
        for (NodeInfo i : nodes.values()) {
            if (i.node() != null) {
                n++;
            }
        }
        return n;
    }

    synchronized List<String> podsOn(String node) {
        NodeInfo info = nodes.get(node);
        return info == null ? List.of() : new ArrayList<>(info.pods.keySet());
    }
}
