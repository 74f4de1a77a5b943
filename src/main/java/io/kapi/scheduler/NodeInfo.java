package io.kapi.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.labels.LabelSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One Node and the Pods bound (or assumed bound) to it, with what they add up to (kube's
 * {@code framework.NodeInfo}): the filters read these aggregates instead of walking every Pod. Changed
 * only under the {@link SchedulerCache}'s lock; {@link #copy()} gives preemption a copy to remove Pods
 * from.
 */
final class NodeInfo {

    private final String name;
    private ObjectNode node;
    private Map<String, String> labels = Map.of();
    private Requests allocatable = new Requests();
    final Requests requested = new Requests();
    final Requests nonZeroRequested = new Requests();
    final Map<String, PodInfo> pods = new LinkedHashMap<>();
    final List<PodInfo.HostPort> usedPorts = new ArrayList<>();
    /** Pods with any pod affinity or anti-affinity term, which InterPodAffinity reads. */
    int podsWithAffinity;
    /**
     * How many Pods not being deleted carry each set of labels, by namespace: Pods of one ReplicaSet share
     * theirs, so spreading counts a Node's matching Pods in a few selector matches, not one per Pod.
     */
    final Map<LabelSet, Integer> labelCounts = new java.util.HashMap<>();

    /** A namespace and a Pod's labels in it. */
    record LabelSet(String namespace, Map<String, String> labels) {
    }

    /** The cache's index this Node's Pods are counted in; null for a copy (preemption's what-if). */
    private final LabelIndex index;

    NodeInfo(String name) {
        this(name, null);
    }

    NodeInfo(String name, LabelIndex index) {
        this.name = name;
        this.index = index;
    }

    String name() {
        return name;
    }

    /** Null while only Pods bound to it are known (a Node deleted, or not yet seen). */
    ObjectNode node() {
        return node;
    }

    Map<String, String> labels() {
        return labels;
    }

    Requests allocatable() {
        return allocatable;
    }

    JsonNode taints() {
        return node == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance()
                : node.path("spec").path("taints");
    }

    void setNode(ObjectNode node) {
        this.node = node;
        this.labels = node == null ? Map.of() : LabelSelector.labelsOf(node.path("metadata").path("labels"));
        this.allocatable = node == null ? new Requests() : Requests.of(node.path("status").path("allocatable"));
    }

    void addPod(PodInfo pod) {
        PodInfo before = pods.put(pod.key(), pod);
        if (before != null) {
            account(before, -1);
        }
        account(pod, 1);
    }

    void removePod(String key) {
        PodInfo before = pods.remove(key);
        if (before != null) {
            account(before, -1);
        }
    }

    private void account(PodInfo pod, int sign) {
        requested.add(pod.requests(), sign);
        nonZeroRequested.add(pod.nonZero(), sign);
        requested.pods += sign;
        if (sign > 0) {
            usedPorts.addAll(pod.ports());
        } else {
            pod.ports().forEach(usedPorts::remove);
        }
        if (pod.pod().path("metadata").path("deletionTimestamp").asText("").isEmpty()) {
            LabelSet set = new LabelSet(pod.namespace(), pod.labels());
            if (labelCounts.merge(set, sign, Integer::sum) == 0) {
                labelCounts.remove(set);
            }
            if (index != null) {
                index.add(set, this, sign);
            }
        }
        if (!pod.requiredAffinity().isEmpty() || !pod.requiredAntiAffinity().isEmpty()
                || !pod.preferredAffinity().isEmpty() || !pod.preferredAntiAffinity().isEmpty()) {
            podsWithAffinity += sign;
        }
    }

    /** The Pods not being deleted in {@code namespace} whose labels {@code selector} matches. */
    int count(String namespace, io.kapi.machinery.labels.LabelSelector selector) {
        int n = 0;
        for (var e : labelCounts.entrySet()) {
            if (e.getKey().namespace().equals(namespace) && selector.matches(e.getKey().labels())) {
                n += e.getValue();
            }
        }
        return n;
    }

    NodeInfo copy() {
        NodeInfo c = new NodeInfo(name);
        c.setNode(node);
        pods.values().forEach(c::addPod);
        return c;
    }
}
