package io.kapi.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * kube's {@code FitError.Error()}: {@code 0/N nodes are available: } then "count reason" for every
 * reason any Node gave, sorted as strings and joined by ", ", then "."; then the PostFilter plugins'
 * message after a space. Kube 1.34's default profile runs DynamicResources' PostFilter before
 * DefaultPreemption's, so a Pod without resource claims reads
 * {@code no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.}
 */
final class FitMessage {

    /** kube's {@code ErrNoNodesAvailable}, when the cluster has no Node at all. */
    static final String NO_NODES = "no nodes available to schedule pods";
    static final String NO_CLAIMS = "no new claims to deallocate";

    private FitMessage() {
    }

    static String of(int allNodes, Map<String, Rejection> rejections, String postFilter) {
        if (allNodes == 0) {
            return NO_NODES;
        }
        Map<String, Integer> histogram = new TreeMap<>();
        for (Rejection r : rejections.values()) {
            for (String reason : r.reasons()) {
                histogram.merge(reason, 1, Integer::sum);
            }
        }
        List<String> parts = new ArrayList<>();
        histogram.forEach((reason, count) -> parts.add(count + " " + reason));
        parts.sort(null); // Go's sort.Strings over "count reason": "10 x" sorts before "2 y"
        StringBuilder b = new StringBuilder("0/").append(allNodes).append(" nodes are available:");
        if (!parts.isEmpty()) {
            b.append(' ').append(String.join(", ", parts)).append('.');
        }
        if (postFilter != null && !postFilter.isEmpty()) {
            b.append(' ').append(postFilter);
        }
        return b.toString();
    }

    /** The PostFilter message: DynamicResources' then DefaultPreemption's, joined by ", ". */
    static String postFilter(String preemption) {
        return preemption == null ? NO_CLAIMS : NO_CLAIMS + ", preemption: " + preemption;
    }
}
