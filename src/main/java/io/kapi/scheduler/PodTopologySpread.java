package io.kapi.scheduler;

import io.kapi.machinery.labels.LabelSelector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's PodTopologySpread. Filter, for each DoNotSchedule constraint: a Node without the topology key
 * is out (unresolvable); else placing the Pod must keep {@code count(domain) + self - min} within
 * {@code maxSkew}, where {@code min} is the smallest count over the eligible domains (0 while there are
 * fewer than {@code minDomains}). Score, for ScheduleAnyway constraints or, for a Pod with none at all,
 * kube's system defaults (hostname skew 3, zone skew 5, selecting as the Services and controllers of
 * the Pod do): Nodes whose domains hold fewer matching Pods rank higher.
 */
final class PodTopologySpread implements Plugin {

    static final String NAME = "PodTopologySpread";
    static final String REASON = "node(s) didn't match pod topology spread constraints";
    static final String MISSING = "node(s) didn't match pod topology spread constraints (missing required label)";

    /** Counts per constraint: topology value to matching Pods, and the smallest count over domains. */
    private record Filtering(List<SpreadConstraint> constraints, List<Map<String, Integer>> counts, int[] min) {
    }

    private record Scoring(List<SpreadConstraint> constraints, List<Map<String, Integer>> counts, double[] weights,
                           boolean defaulted) {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void preFilter(Cycle cycle) {
        List<SpreadConstraint> hard = new ArrayList<>();
        for (SpreadConstraint c : SpreadConstraint.of(cycle.pod())) {
            if (c.hard()) {
                hard.add(c);
            }
        }
        List<Map<String, Integer>> counts = count(cycle, hard, cycle.nodes(), true);
        int[] min = new int[hard.size()];
        for (int i = 0; i < hard.size(); i++) {
            Map<String, Integer> domains = counts.get(i);
            min[i] = domains.size() < hard.get(i).minDomains() ? 0
                    : domains.values().stream().mapToInt(Integer::intValue).min().orElse(0);
        }
        cycle.put(NAME, new Filtering(hard, counts, min));
    }

    /** Matching Pods per topology value, over the Nodes that have every key (all, or any, of them). */
    private static List<Map<String, Integer>> count(Cycle cycle, List<SpreadConstraint> constraints,
                                                   List<NodeInfo> nodes, boolean requireAll) {
        List<Map<String, Integer>> counts = new ArrayList<>();
        constraints.forEach(c -> counts.add(new HashMap<>()));
        if (constraints.isEmpty()) {
            return counts;
        }
        for (NodeInfo node : nodes) {
            if (node.node() == null || (requireAll && !hasAllKeys(constraints, node))) {
                continue;
            }
            for (int i = 0; i < constraints.size(); i++) {
                SpreadConstraint c = constraints.get(i);
                String value = node.labels().get(c.topologyKey());
                if (value == null || !c.eligible(cycle.pod(), node)) {
                    continue;
                }
                counts.get(i).merge(value, cycle.matching(c.selector()).getOrDefault(node, 0), Integer::sum);
            }
        }
        return counts;
    }

    private static boolean hasAllKeys(List<SpreadConstraint> constraints, NodeInfo node) {
        for (SpreadConstraint c : constraints) {
            if (!node.labels().containsKey(c.topologyKey())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Rejection filter(Cycle cycle, NodeInfo node) {
        Filtering f = cycle.get(NAME);
        if (f.constraints().isEmpty()) {
            return null;
        }
        if (!hasAllKeys(f.constraints(), node)) {
            return Rejection.unresolvable(NAME, MISSING);
        }
        for (int i = 0; i < f.constraints().size(); i++) {
            SpreadConstraint c = f.constraints().get(i);
            int self = c.selector().matches(cycle.pod().labels()) ? 1 : 0;
            int matching = f.counts().get(i).getOrDefault(node.labels().get(c.topologyKey()), 0);
            if (matching + self - f.min()[i] > c.maxSkew()) {
                return Rejection.unschedulable(NAME, REASON);
            }
        }
        return null;
    }

    @Override
    public int weight() {
        return 2;
    }

    @Override
    public void preScore(Cycle cycle, List<NodeInfo> feasible) {
        List<SpreadConstraint> all = SpreadConstraint.of(cycle.pod());
        boolean defaulted = false;
        List<SpreadConstraint> soft = new ArrayList<>();
        if (all.isEmpty()) {
            LabelSelector selector = cycle.defaultSpreadSelector();
            if (selector != null && !selector.isEverything() && !selector.matchesNothing()) {
                soft.addAll(SpreadConstraint.systemDefaults(selector));
                defaulted = true;
            }
        } else {
            all.stream().filter(c -> !c.hard()).forEach(soft::add);
        }
        // hostname counts come from the Nodes scored, other keys from every Node
        List<Map<String, Integer>> counts = new ArrayList<>();
        double[] weights = new double[soft.size()];
        for (int i = 0; i < soft.size(); i++) {
            SpreadConstraint c = soft.get(i);
            List<NodeInfo> over = c.topologyKey().equals("kubernetes.io/hostname") ? feasible : cycle.nodes();
            Map<String, Integer> domain = count(cycle, List.of(c), over, false).getFirst();
            counts.add(domain);
            weights[i] = Math.log(domain.size() + 2);
        }
        cycle.put(NAME + "/score", new Scoring(soft, counts, weights, defaulted));
    }

    @Override
    public long score(Cycle cycle, NodeInfo node) {
        Scoring s = cycle.get(NAME + "/score");
        if (s.constraints().isEmpty() || !counted(s, node)) {
            return -1;
        }
        double score = 0;
        for (int i = 0; i < s.constraints().size(); i++) {
            SpreadConstraint c = s.constraints().get(i);
            String value = node.labels().get(c.topologyKey());
            if (value != null) {
                score += s.counts().get(i).getOrDefault(value, 0) * s.weights()[i] + (c.maxSkew() - 1);
            }
        }
        return Math.round(score);
    }

    /** A Node lacking the keys is ignored (scores 0): every key for a Pod's own constraints, any for the defaults. */
    private static boolean counted(Scoring s, NodeInfo node) {
        boolean any = false;
        boolean all = true;
        for (SpreadConstraint c : s.constraints()) {
            boolean has = node.labels().containsKey(c.topologyKey());
            any |= has;
            all &= has;
        }
        return s.defaulted() ? any : all;
    }

    /** {@code 100 * (max + min - s) / max} over the Nodes counted; ignored ones 0. */
    @Override
    public void normalize(Cycle cycle, long[] scores) {
        Scoring s = cycle.get(NAME + "/score");
        if (s.constraints().isEmpty()) {
            java.util.Arrays.fill(scores, 0);
            return;
        }
        long min = Long.MAX_VALUE;
        long max = 0;
        for (long v : scores) {
            if (v >= 0) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] < 0) {
                scores[i] = 0;
            } else if (max == 0) {
                scores[i] = MAX_SCORE;
            } else {
                scores[i] = MAX_SCORE * (max + min - scores[i]) / max;
            }
        }
    }
}
