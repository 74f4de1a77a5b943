package io.kapi.metrics;

/**
 * A metric's stability class, as kube's component-base metrics declare it; the help text of every family
 * starts with it in brackets ({@code [STABLE] Counter of ...}), as kube-apiserver's {@code /metrics} shows.
 */
public enum Stability {
    INTERNAL, ALPHA, BETA, STABLE;

    /** {@code help} as kube exposes it: {@code [ALPHA] help}, with {@code (Deprecated since X)} when deprecated. */
    String annotate(String help, String deprecatedVersion) {
        String text = deprecatedVersion == null ? help : "(Deprecated since " + deprecatedVersion + ") " + help;
        return "[" + name() + "] " + text;
    }
}
