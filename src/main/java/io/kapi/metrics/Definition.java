package io.kapi.metrics;

import java.util.List;

/**
 * A metric family as kube-apiserver defines it: name, help text, stability, the version it was
 * deprecated in (null when it is not) and its label names in order.
 */
public record Definition(String name, String help, Stability stability, String deprecatedVersion,
                         List<String> labels) {

    public Definition {
        labels = List.copyOf(labels);
    }

    public static Definition of(String name, Stability stability, String help, String... labels) {
        return new Definition(name, help, stability, null, List.of(labels));
    }

    public Definition deprecatedIn(String version) {
        return new Definition(name, help, stability, version, labels);
    }

    /** The help line's text: kube prefixes the stability class and the deprecation. */
    String exposedHelp() {
        return stability.annotate(help, deprecatedVersion);
    }

    String[] labelNames() {
        return labels.toArray(String[]::new);
    }
}
