package io.kapi.scheduler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * kube-scheduler's {@code schedulePod} with the default profile's plugins: every plugin's preFilter, then
 * the filters on Nodes taken round the list from where the previous Pod stopped, until
 * {@link #nodesToFind} fit (kube's {@code percentageOfNodesToScore}, adaptive); the fit Nodes are scored,
 * each plugin's scores normalized and weighted, and the highest total wins, ties broken at random as
 * kube's {@code selectHost} does (reservoir sampling). Not thread-safe: one scheduling loop uses it.
 */
final class Algorithm {

    /** The default profile, filters in kube's order (the first to turn a Node down gives its reasons). */
    static final List<Plugin> DEFAULT_PROFILE = List.of(new NodeUnschedulable(), new NodeName(), new TaintToleration(),
            new NodeAffinity(), new NodePorts(), new NodeResourcesFit(), new PodTopologySpread(),
            new InterPodAffinity(), new BalancedAllocation());

    /** kube's {@code minFeasibleNodesToFind}. */
    static final int MIN_FEASIBLE = 100;
    /** kube's {@code minFeasibleNodesPercentageToFind}. */
    static final int MIN_PERCENTAGE = 5;

    private final List<Plugin> plugins;
    private int nextStart;

    Algorithm(List<Plugin> plugins) {
        this.plugins = plugins;
    }

    /** {@code numFeasibleNodesToFind}: all below 100 Nodes, else {@code 50 - n/125} percent, at least 5% and 100. */
    static int nodesToFind(int all) {
        if (all < MIN_FEASIBLE) {
            return all;
        }
        int percentage = Math.max(MIN_PERCENTAGE, 50 - all / 125);
        int n = all * percentage / 100;
        return Math.max(n, MIN_FEASIBLE);
    }

    Decision schedule(Cycle cycle) {
        List<NodeInfo> nodes = new ArrayList<>();
        for (NodeInfo n : cycle.nodes()) {
            if (n.node() != null) {
                nodes.add(n);
            }
        }
        Map<String, Rejection> rejections = new LinkedHashMap<>();
        if (nodes.isEmpty()) {
            return new Decision.Unfit(rejections, 0);
        }
        for (Plugin p : plugins) {
            p.preFilter(cycle);
        }
        int want = nodesToFind(nodes.size());
        List<NodeInfo> feasible = new ArrayList<>();
        int evaluated = 0;
        int start = nextStart % nodes.size();
        for (int i = 0; i < nodes.size() && feasible.size() < want; i++) {
            NodeInfo node = nodes.get((start + i) % nodes.size());
            evaluated++;
            Rejection r = filter(cycle, node);
            if (r == null) {
                feasible.add(node);
            } else {
                rejections.put(node.name(), r);
            }
        }
        nextStart = (start + evaluated) % nodes.size();
        if (feasible.isEmpty()) {
            return new Decision.Unfit(rejections, nodes.size());
        }
        if (feasible.size() == 1) {
            return new Decision.Fit(feasible.getFirst(), 1, evaluated);
        }
        return new Decision.Fit(select(cycle, feasible), feasible.size(), evaluated);
    }

    /**
     * The first plugin to turn {@code node} down, or null when it fits: with the Pods nominated there added
     * (kube's {@code RunFilterPluginsWithNominatedPods}), and without them.
     */
    Rejection filter(Cycle cycle, NodeInfo node) {
        List<PodInfo> nominated = cycle.nominatedOn(node.name());
        if (!nominated.isEmpty()) {
            NodeInfo with = node.copy();
            nominated.forEach(with::addPod);
            Rejection r = filterPlugins(cycle, with);
            if (r != null) {
                return r;
            }
        }
        return filterPlugins(cycle, node);
    }

    private Rejection filterPlugins(Cycle cycle, NodeInfo node) {
        for (Plugin p : plugins) {
            Rejection r = p.filter(cycle, node);
            if (r != null) {
                return r;
            }
        }
        return null;
    }

    /** Weighted, normalized scores per feasible Node. */
    long[] scores(Cycle cycle, List<NodeInfo> feasible) {
        long[] total = new long[feasible.size()];
        for (Plugin p : plugins) {
            if (p.weight() == 0) {
                continue;
            }
            p.preScore(cycle, feasible);
            long[] s = new long[feasible.size()];
            for (int i = 0; i < s.length; i++) {
                s[i] = p.score(cycle, feasible.get(i));
            }
            p.normalize(cycle, s);
            for (int i = 0; i < s.length; i++) {
                total[i] += s[i] * p.weight();
            }
        }
        return total;
    }

    private NodeInfo select(Cycle cycle, List<NodeInfo> feasible) {
        long[] total = scores(cycle, feasible);
        int best = 0;
        int ties = 1;
        for (int i = 1; i < total.length; i++) {
            if (total[i] > total[best]) {
                best = i;
                ties = 1;
            } else if (total[i] == total[best]) {
                ties++;
                if (ThreadLocalRandom.current().nextInt(ties) == 0) {
                    best = i;
                }
            }
        }
        return feasible.get(best);
    }
}
