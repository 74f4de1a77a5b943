package io.kapi.scheduler;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's InterPodAffinity. Filter, on topology pairs ({@code topologyKey=value} of a Node's labels), in
 * kube's order: the incoming Pod's required affinity needs, for every term, a matching Pod in the Node's
 * domain (or, when no Pod matches anywhere, the Pod matching its own terms: the first of a group); its
 * required anti-affinity keeps it out of domains holding a Pod it matches; a Pod already placed whose
 * required anti-affinity matches the incoming Pod keeps it out of its domain. Score: the weights of the
 * preferred terms, the Pod's and those of placed Pods about it, per domain.
 */
final class InterPodAffinity implements Plugin {

    static final String NAME = "InterPodAffinity";
    static final String EXISTING_ANTI = "node(s) didn't satisfy existing pods anti-affinity rules";
    static final String ANTI = "node(s) didn't match pod anti-affinity rules";
    static final String AFFINITY = "node(s) didn't match pod affinity rules";

    /** What preFilter counted, by topology pair. */
    private record Counts(Map<String, Integer> existingAnti, Map<String, Integer> anti, Map<String, Integer> affinity) {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void preFilter(Cycle cycle) {
        PodInfo pod = cycle.pod();
        Map<String, Integer> existingAnti = new HashMap<>();
        Map<String, Integer> anti = new HashMap<>();
        Map<String, Integer> affinity = new HashMap<>();
        Map<String, String> ownNsLabels = cycle.namespaceLabels(pod.namespace());
        boolean own = !pod.requiredAffinity().isEmpty() || !pod.requiredAntiAffinity().isEmpty();
        for (NodeInfo node : cycle.nodes()) {
            if (node.node() == null || (!own && node.podsWithAffinity == 0)) {
                continue;
            }
            for (PodInfo existing : node.pods.values()) {
                for (AffinityTerm t : existing.requiredAntiAffinity()) {
                    if (t.matches(pod, ownNsLabels)) {
                        count(existingAnti, t.topologyKey(), node);
                    }
                }
                if (!own) {
                    continue;
                }
                Map<String, String> nsLabels = cycle.namespaceLabels(existing.namespace());
                for (AffinityTerm t : pod.requiredAntiAffinity()) {
                    if (t.matches(existing, nsLabels)) {
                        count(anti, t.topologyKey(), node);
                    }
                }
                for (AffinityTerm t : pod.requiredAffinity()) {
                    if (t.matches(existing, nsLabels)) {
                        count(affinity, t.topologyKey(), node);
                    }
                }
            }
        }
        cycle.put(NAME, new Counts(existingAnti, anti, affinity));
    }

    private static void count(Map<String, Integer> counts, String key, NodeInfo node) {
        String value = node.labels().get(key);
        if (value != null) {
            counts.merge(key + "=" + value, 1, Integer::sum);
        }
    }

    private static boolean any(Map<String, Integer> counts, String key, NodeInfo node) {
        String value = node.labels().get(key);
        return value != null && counts.getOrDefault(key + "=" + value, 0) > 0;
    }

    @Override
    public Rejection filter(Cycle cycle, NodeInfo node) {
        Counts counts = cycle.get(NAME);
        PodInfo pod = cycle.pod();
        if (!pod.requiredAffinity().isEmpty() && !affinitySatisfied(cycle, counts, node)) {
            return Rejection.unresolvable(NAME, AFFINITY);
        }
        for (AffinityTerm t : pod.requiredAntiAffinity()) {
            if (any(counts.anti(), t.topologyKey(), node)) {
                return Rejection.unschedulable(NAME, ANTI);
            }
        }
        for (String pair : counts.existingAnti().keySet()) {
            int eq = pair.indexOf('=');
            if (pair.substring(eq + 1).equals(node.labels().get(pair.substring(0, eq)))) {
                return Rejection.unschedulable(NAME, EXISTING_ANTI);
            }
        }
        return null;
    }

    private static boolean affinitySatisfied(Cycle cycle, Counts counts, NodeInfo node) {
        PodInfo pod = cycle.pod();
        boolean all = true;
        for (AffinityTerm t : pod.requiredAffinity()) {
            if (!any(counts.affinity(), t.topologyKey(), node)) {
                all = false;
                break;
            }
        }
        if (all) {
            return true;
        }
        if (!counts.affinity().isEmpty()) {
            return false;
        }
        // no Pod matches: the first of a group may go where the Node has every topology key
        Map<String, String> ownNsLabels = cycle.namespaceLabels(pod.namespace());
        for (AffinityTerm t : pod.requiredAffinity()) {
            if (!t.matches(pod, ownNsLabels) || !node.labels().containsKey(t.topologyKey())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int weight() {
        return 2;
    }

    @Override
    public void preScore(Cycle cycle, List<NodeInfo> feasible) {
        PodInfo pod = cycle.pod();
        Map<String, Long> weights = new HashMap<>();
        boolean own = !pod.preferredAffinity().isEmpty() || !pod.preferredAntiAffinity().isEmpty();
        Map<String, String> ownNsLabels = cycle.namespaceLabels(pod.namespace());
        for (NodeInfo node : cycle.nodes()) {
            if (node.node() == null || (!own && node.podsWithAffinity == 0)) {
                continue;
            }
            for (PodInfo existing : node.pods.values()) {
                Map<String, String> nsLabels = cycle.namespaceLabels(existing.namespace());
                for (AffinityTerm t : pod.preferredAffinity()) {
                    add(weights, t, node, t.matches(existing, nsLabels) ? t.weight() : 0);
                }
                for (AffinityTerm t : pod.preferredAntiAffinity()) {
                    add(weights, t, node, t.matches(existing, nsLabels) ? -t.weight() : 0);
                }
                for (AffinityTerm t : existing.preferredAffinity()) {
                    add(weights, t, node, t.matches(pod, ownNsLabels) ? t.weight() : 0);
                }
                for (AffinityTerm t : existing.preferredAntiAffinity()) {
                    add(weights, t, node, t.matches(pod, ownNsLabels) ? -t.weight() : 0);
                }
            }
        }
        cycle.put(NAME + "/score", weights);
    }

    private static void add(Map<String, Long> weights, AffinityTerm t, NodeInfo node, long weight) {
        String value = node.labels().get(t.topologyKey());
        if (weight != 0 && value != null) {
            weights.merge(t.topologyKey() + "=" + value, weight, Long::sum);
        }
    }

    @Override
    public long score(Cycle cycle, NodeInfo node) {
        Map<String, Long> weights = cycle.get(NAME + "/score");
        long sum = 0;
        for (var e : weights.entrySet()) {
            int eq = e.getKey().indexOf('=');
            if (e.getKey().substring(eq + 1).equals(node.labels().get(e.getKey().substring(0, eq)))) {
                sum += e.getValue();
            }
        }
        return sum;
    }

    /** {@code (s - min) * 100 / (max - min)}; all 0 when every Node scored the same. */
    @Override
    public void normalize(Cycle cycle, long[] scores) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long s : scores) {
            min = Math.min(min, s);
            max = Math.max(max, s);
        }
        for (int i = 0; i < scores.length; i++) {
            scores[i] = max == min ? 0 : (scores[i] - min) * MAX_SCORE / (max - min);
        }
    }
}
