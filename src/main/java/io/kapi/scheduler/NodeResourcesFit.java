package io.kapi.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube's NodeResourcesFit: the Pod's requests must fit in the Node's allocatable less what its Pods
 * request, resource by resource ({@code Too many pods} first, then cpu, memory, ephemeral-storage and
 * scalar resources by name, each short one a reason); scored by LeastAllocated over cpu and memory
 * (weight 1 each), using the non-zero requests.
 */
final class NodeResourcesFit implements Plugin {

    static final String NAME = "NodeResourcesFit";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Rejection filter(Cycle cycle, NodeInfo node) {
        List<String> reasons = insufficient(cycle.pod().requests(), node);
        return reasons.isEmpty() ? null : new Rejection(NAME, List.copyOf(reasons), false);
    }

    /** {@code fitsRequest}: the reasons the Node cannot take {@code pod}, none when it can. */
    static List<String> insufficient(Requests pod, NodeInfo node) {
        List<String> reasons = new ArrayList<>();
        Requests free = node.allocatable();
        Requests used = node.requested;
        if (used.pods + 1 > free.pods) {
            reasons.add("Too many pods");
        }
        if (pod.milliCpu > 0 && pod.milliCpu > free.milliCpu - used.milliCpu) {
            reasons.add("Insufficient cpu");
        }
        if (pod.memory > 0 && pod.memory > free.memory - used.memory) {
            reasons.add("Insufficient memory");
        }
        if (pod.ephemeralStorage > 0 && pod.ephemeralStorage > free.ephemeralStorage - used.ephemeralStorage) {
            reasons.add("Insufficient ephemeral-storage");
        }
        for (Map.Entry<String, Long> e : pod.scalars.entrySet()) {
            if (e.getValue() > 0 && e.getValue() > free.scalar(e.getKey()) - used.scalar(e.getKey())) {
                reasons.add("Insufficient " + e.getKey());
            }
        }
        return reasons;
    }

    @Override
    public int weight() {
        return 1;
    }

    /** LeastAllocated: {@code (allocatable - requested) * 100 / allocatable} averaged over cpu and memory. */
    @Override
    public long score(Cycle cycle, NodeInfo node) {
        Requests pod = cycle.pod().nonZero();
        long cpu = least(node.nonZeroRequested.milliCpu + pod.milliCpu, node.allocatable().milliCpu);
        long memory = least(node.nonZeroRequested.memory + pod.memory, node.allocatable().memory);
        return (cpu + memory) / 2;
    }

    private static long least(long requested, long capacity) {
        if (capacity == 0 || requested > capacity) {
            return 0;
        }
        return (capacity - requested) * MAX_SCORE / capacity;
    }
}
