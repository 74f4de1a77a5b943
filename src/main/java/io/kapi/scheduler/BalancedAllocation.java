package io.kapi.scheduler;

/**
 * kube's NodeResourcesBalancedAllocation: Nodes whose cpu and memory would be used in like fractions
 * rank higher: {@code (1 - std) * 100}, the standard deviation of the two fractions (each at most 1)
 * being half their difference.
 */
final class BalancedAllocation implements Plugin {

    static final String NAME = "NodeResourcesBalancedAllocation";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int weight() {
        return 1;
    }

    @Override
    public long score(Cycle cycle, NodeInfo node) {
        Requests pod = cycle.pod().requests();
        double cpu = fraction(node.requested.milliCpu + pod.milliCpu, node.allocatable().milliCpu);
        double memory = fraction(node.requested.memory + pod.memory, node.allocatable().memory);
        double std = Math.abs(cpu - memory) / 2;
        return (long) ((1 - std) * MAX_SCORE);
    }

    private static double fraction(long requested, long capacity) {
        if (capacity == 0) {
            return 1;
        }
        return Math.min(1, (double) requested / capacity);
    }
}
