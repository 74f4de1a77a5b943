package io.kapi.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.scheduling.NodeScheduling;

/**
 * kube's TaintToleration: a Node's first NoSchedule or NoExecute taint the Pod does not tolerate turns it
 * down, named in the reason as kube 1.34 names it ({@code {key: value}}); in scoring, Nodes with fewer
 * untolerated PreferNoSchedule taints rank higher (counting only tolerations for PreferNoSchedule or
 * every effect).
 */
final class TaintToleration implements Plugin {

    static final String NAME = "TaintToleration";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Rejection filter(Cycle cycle, NodeInfo node) {
        JsonNode tolerations = cycle.pod().spec().path("tolerations");
        for (JsonNode taint : node.taints()) {
            String effect = taint.path("effect").asText("");
            if ((effect.equals("NoSchedule") || effect.equals("NoExecute")) && !NodeScheduling.tolerated(tolerations, taint)) {
                return Rejection.unresolvable(NAME, reason(taint));
            }
        }
        return null;
    }

    static String reason(JsonNode taint) {
        return "node(s) had untolerated taint {" + taint.path("key").asText("") + ": "
                + taint.path("value").asText("") + "}";
    }

    @Override
    public int weight() {
        return 3;
    }

    @Override
    public long score(Cycle cycle, NodeInfo node) {
        long count = 0;
        for (JsonNode taint : node.taints()) {
            if (taint.path("effect").asText("").equals("PreferNoSchedule") && !toleratedForScoring(cycle, taint)) {
                count++;
            }
        }
        return count;
    }

    private static boolean toleratedForScoring(Cycle cycle, JsonNode taint) {
        for (JsonNode t : cycle.pod().spec().path("tolerations")) {
            String effect = t.path("effect").asText("");
            if ((effect.isEmpty() || effect.equals("PreferNoSchedule")) && NodeScheduling.tolerates(t, taint)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void normalize(Cycle cycle, long[] scores) {
        Plugin.defaultNormalize(scores, true);
    }
}
