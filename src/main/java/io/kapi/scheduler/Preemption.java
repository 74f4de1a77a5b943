package io.kapi.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.labels.LabelSelector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's DefaultPreemption, the decision half: for a Pod no Node fits, on each Node where a filter turned
 * it down for a reason Pods could free (not unresolvable), remove every Pod of lower priority; if the Pod
 * then fits, give back as many as still leave room (those a PodDisruptionBudget protects first, then the
 * others, most important first); the rest are the victims. Of the Nodes with victims, kube's
 * {@code pickOneNodeForPreemption} order chooses: fewest budget violations, then the lowest highest
 * victim priority, the smallest sum of priorities, the fewest victims.
 */
final class Preemption {

    static final String NOT_HELPFUL = "Preemption is not helpful for scheduling";
    static final String NO_VICTIMS = "No preemption victims found for incoming pod";
    static final String NEVER = "not eligible due to preemptionPolicy=Never.";

    /** A Node and the Pods to delete there; {@code victims} empty and {@code message} set when preemption fails. */
    record Outcome(NodeInfo node, List<PodInfo> victims, String message) {
    }

    private record Candidate(NodeInfo node, List<PodInfo> victims, int violations) {
    }

    private Preemption() {
    }

    /**
     * @param budgets the PodDisruptionBudgets of the cluster
     */
    static Outcome preempt(Algorithm algorithm, Cycle cycle, Decision.Unfit unfit, List<ObjectNode> budgets) {
        PodInfo pod = cycle.pod();
        if (pod.spec().path("preemptionPolicy").asText("").equals("Never")) {
            return new Outcome(null, List.of(), NEVER);
        }
        Map<String, Rejection> statuses = new LinkedHashMap<>();
        List<Candidate> candidates = new ArrayList<>();
        for (NodeInfo node : cycle.nodes()) {
            Rejection r = unfit.rejections().get(node.name());
            if (node.node() == null || r == null) {
                continue;
            }
            if (r.unresolvable()) {
                statuses.put(node.name(), Rejection.unresolvable("DefaultPreemption", NOT_HELPFUL));
                continue;
            }
            Object verdict = victims(algorithm, cycle, node, budgets);
            if (verdict instanceof Candidate c) {
                candidates.add(c);
            } else {
                statuses.put(node.name(), (Rejection) verdict);
            }
        }
        if (candidates.isEmpty()) {
            return new Outcome(null, List.of(), FitMessage.of(unfit.allNodes(), statuses, null));
        }
        candidates.sort(Comparator.comparingInt(Candidate::violations)
                .thenComparingInt(c -> c.victims().getFirst().priority())
                .thenComparingLong(c -> c.victims().stream().mapToLong(v -> (long) v.priority() + Integer.MAX_VALUE).sum())
                .thenComparingInt(c -> c.victims().size()));
        Candidate best = candidates.getFirst();
        return new Outcome(best.node(), best.victims(), null);
    }

    /** kube's {@code SelectVictimsOnNode}: a Candidate, or the Rejection saying why the Node cannot be freed. */
    private static Object victims(Algorithm algorithm, Cycle cycle, NodeInfo original, List<ObjectNode> budgets) {
        PodInfo pod = cycle.pod();
        List<PodInfo> lower = new ArrayList<>();
        for (PodInfo p : original.pods.values()) {
            if (p.priority() < pod.priority()) {
                lower.add(p);
            }
        }
        if (lower.isEmpty()) {
            return Rejection.unresolvable("DefaultPreemption", NO_VICTIMS);
        }
        NodeInfo node = original.copy();
        lower.forEach(p -> node.removePod(p.key()));
        Rejection still = algorithm.filter(cycle, node);
        if (still != null) {
            return still;
        }
        lower.sort(Comparator.comparingInt(PodInfo::priority).reversed());
        List<PodInfo> violating = new ArrayList<>();
        List<PodInfo> fine = new ArrayList<>();
        split(lower, budgets, violating, fine);
        List<PodInfo> victims = new ArrayList<>();
        int violations = 0;
        for (PodInfo p : violating) {
            if (!reprieve(algorithm, cycle, node, p)) {
                victims.add(p);
                violations++;
            }
        }
        for (PodInfo p : fine) {
            if (!reprieve(algorithm, cycle, node, p)) {
                victims.add(p);
            }
        }
        if (victims.isEmpty()) {
            return Rejection.unresolvable("DefaultPreemption", NO_VICTIMS);
        }
        victims.sort(Comparator.comparingInt(PodInfo::priority).reversed());
        return new Candidate(original, List.copyOf(victims), violations);
    }

    private static boolean reprieve(Algorithm algorithm, Cycle cycle, NodeInfo node, PodInfo p) {
        node.addPod(p);
        if (algorithm.filter(cycle, node) == null) {
            return true;
        }
        node.removePod(p.key());
        return false;
    }

    /** kube's {@code filterPodsWithPDBViolation}: each budget's {@code disruptionsAllowed} spent as Pods match it. */
    static void split(List<PodInfo> pods, List<ObjectNode> budgets, List<PodInfo> violating, List<PodInfo> fine) {
        Map<ObjectNode, Integer> allowed = new LinkedHashMap<>();
        budgets.forEach(b -> allowed.put(b, b.path("status").path("disruptionsAllowed").asInt(0)));
        for (PodInfo p : pods) {
            boolean violates = false;
            for (ObjectNode b : budgets) {
                if (!b.path("metadata").path("namespace").asText().equals(p.namespace())) {
                    continue;
                }
                JsonNode selector = b.path("spec").path("selector");
                LabelSelector s;
                try {
                    s = LabelSelector.fromObject(selector);
                } catch (IllegalArgumentException e) {
                    continue;
                }
                if (s.isEverything() || !s.matches(p.labels())) {
                    continue; // kube: an empty selector matches nothing here
                }
                if (b.path("status").path("disruptedPods").has(p.name())) {
                    continue;
                }
                int left = allowed.merge(b, -1, Integer::sum);
                if (left < 0) {
                    violates = true;
                }
            }
            (violates ? violating : fine).add(p);
        }
    }
}
