package io.kapi.scheduler;

/**
 * One of kube-scheduler's default plugins, at the extension points Kapi runs: {@code preFilter} once
 * per Pod before the Nodes are filtered, {@code filter} per Node (null: it fits), and, when
 * {@code weight} is above 0, {@code score} per feasible Node then {@code normalize} over them (to
 * 0..{@link #MAX_SCORE}). Plugins keep what they compute for one Pod in its {@link Cycle}.
 */
interface Plugin {

    /** kube's {@code MaxNodeScore}. */
    long MAX_SCORE = 100;

    String name();

    default void preFilter(Cycle cycle) {
    }

    default Rejection filter(Cycle cycle, NodeInfo node) {
        return null;
    }

    /** The plugin's weight in the default profile's score; 0 for a filter only. */
    default int weight() {
        return 0;
    }

    default void preScore(Cycle cycle, java.util.List<NodeInfo> feasible) {
    }

    default long score(Cycle cycle, NodeInfo node) {
        return 0;
    }

    default void normalize(Cycle cycle, long[] scores) {
    }

    /** {@code DefaultNormalizeScore}: scaled so the highest is {@code MAX_SCORE} (reversed: the lowest). */
    static void defaultNormalize(long[] scores, boolean reverse) {
        long max = 0;
        for (long s : scores) {
            max = Math.max(max, s);
        }
        for (int i = 0; i < scores.length; i++) {
            if (max == 0) {
                scores[i] = reverse ? MAX_SCORE : 0;
            } else {
                long s = MAX_SCORE * scores[i] / max;
                scores[i] = reverse ? MAX_SCORE - s : s;
            }
        }
    }
}
