package io.kapi.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.scheduling.NodeScheduling;
import java.util.Map;

/**
 * kube's NodeAffinity: the Pod's {@code nodeSelector} and required node affinity (any of its terms, each
 * term all its {@code matchExpressions} and {@code matchFields}) must match the Node; in scoring, the
 * weights of the preferred terms a Node matches add up.
 */
final class NodeAffinity implements Plugin {

    static final String NAME = "NodeAffinity";
    static final String REASON = "node(s) didn't match Pod's node affinity/selector";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Rejection filter(Cycle cycle, NodeInfo node) {
        return matches(cycle.pod().spec(), node) ? null : Rejection.unresolvable(NAME, REASON);
    }

    /** {@code nodeSelector} and the required node affinity, as kube's {@code RequiredNodeAffinity.Match}. */
    static boolean matches(JsonNode spec, NodeInfo node) {
        Map<String, String> labels = node.labels();
        for (var e : spec.path("nodeSelector").properties()) {
            if (!e.getValue().asText().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        JsonNode required = spec.path("affinity").path("nodeAffinity").path("requiredDuringSchedulingIgnoredDuringExecution");
        if (!required.isObject()) {
            return true;
        }
        for (JsonNode term : required.path("nodeSelectorTerms")) {
            if (termMatches(term, node)) {
                return true;
            }
        }
        return false;
    }

    /** A term with neither expressions nor fields matches nothing, as kube's. */
    static boolean termMatches(JsonNode term, NodeInfo node) {
        JsonNode expressions = term.path("matchExpressions");
        JsonNode fields = term.path("matchFields");
        if (expressions.isEmpty() && fields.isEmpty()) {
            return false;
        }
        for (JsonNode r : expressions) {
            if (!NodeScheduling.requirementMatches(r, node.labels().get(r.path("key").asText()))) {
                return false;
            }
        }
        for (JsonNode r : fields) {
            String value = r.path("key").asText().equals("metadata.name") ? node.name() : null;
            if (value == null || !NodeScheduling.requirementMatches(r, value)) {
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
    public long score(Cycle cycle, NodeInfo node) {
        long sum = 0;
        for (JsonNode p : cycle.pod().spec().path("affinity").path("nodeAffinity")
                .path("preferredDuringSchedulingIgnoredDuringExecution")) {
            if (termMatches(p.path("preference"), node)) {
                sum += p.path("weight").asLong(0);
            }
        }
        return sum;
    }

    @Override
    public void normalize(Cycle cycle, long[] scores) {
        Plugin.defaultNormalize(scores, false);
    }
}
