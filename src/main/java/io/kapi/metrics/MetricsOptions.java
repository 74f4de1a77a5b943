package io.kapi.metrics;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-apiserver's metrics flags.
 *
 * @param disabled {@code --disabled-metrics}: fully qualified names of families not exposed
 * @param showHiddenForVersion {@code --show-hidden-metrics-for-version}: the previous minor version
 *                             ({@code 1.33}) shows the families deprecated in it again; null otherwise
 * @param allowedLabels {@code --allow-metric-labels} and the manifest's entries: per {@code metric,label}, the
 *                      values a label may take; others are exposed as {@code unexpected}
 */
public record MetricsOptions(Set<String> disabled, String showHiddenForVersion,
                             Map<String, Set<String>> allowedLabels) {

    /** The release whose metrics these are; hidden metrics may be shown for the one before it. */
    public static final String CURRENT_VERSION = "1.34";
    static final String PREVIOUS_VERSION = "1.33";

    public static final MetricsOptions DEFAULT = new MetricsOptions(Set.of(), null, Map.of());

    public MetricsOptions {
        disabled = Set.copyOf(disabled);
        allowedLabels = Map.copyOf(allowedLabels);
        if (showHiddenForVersion != null && !showHiddenForVersion.isEmpty()
                && !showHiddenForVersion.equals(PREVIOUS_VERSION)) {
            throw new IllegalArgumentException("--show-hidden-metrics-for-version must be omitted or have the value '"
                    + PREVIOUS_VERSION + "'. Only the previous minor version is allowed.");
        }
    }

    /**
     * Reads {@code --allow-metric-labels} values, each {@code metric,label=v1,v2} (kube's stringToString
     * syntax: {@code metric1,label1='v1,v2',metric1,label2='v3'} in one value is also accepted).
     */
    public static Map<String, Set<String>> parseAllowList(List<String> values) {
        Map<String, Set<String>> out = new java.util.LinkedHashMap<>();
        for (String value : values) {
            for (String entry : entries(value)) {
                int eq = entry.indexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException(entry + " must be formatted as key=value");
                }
                String key = entry.substring(0, eq).trim();
                String list = entry.substring(eq + 1).trim();
                if (list.length() >= 2 && (list.startsWith("'") && list.endsWith("'")
                        || list.startsWith("\"") && list.endsWith("\""))) {
                    list = list.substring(1, list.length() - 1);
                }
                String[] parts = key.split(",");
                if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
                    throw new IllegalArgumentException("--allow-metric-labels: key " + key
                            + " must be <MetricName>,<LabelName>");
                }
                Set<String> allowed = new java.util.LinkedHashSet<>();
                for (String v : list.split(",")) {
                    if (!v.isBlank()) {
                        allowed.add(v.trim());
                    }
                }
                out.merge(parts[0].trim() + "," + parts[1].trim(), allowed, (a, b) -> {
                    Set<String> both = new java.util.LinkedHashSet<>(a);
                    both.addAll(b);
                    return both;
                });
            }
        }
        return out;
    }

    /** Splits {@code m,l='a,b',m,l2='c'} into its {@code key=value} entries, quotes kept whole. */
    private static List<String> entries(String value) {
        List<String> out = new java.util.ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean inValue = false;
        char quote = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (quote != 0) {
                current.append(c);
                if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            if (inValue && (c == '\'' || c == '"') && current.charAt(current.length() - 1) == '=') {
                quote = c;
                current.append(c);
                continue;
            }
            if (c == '=' && !inValue) {
                inValue = true;
            } else if (c == ',' && inValue && looksLikeNextKey(value, i + 1)) {
                out.add(current.toString());
                current.setLength(0);
                inValue = false;
                continue;
            }
            current.append(c);
        }
        if (!current.isEmpty()) {
            out.add(current.toString());
        }
        return out;
    }

    /** Whether the text from {@code from} starts a new {@code metric,label=} key. */
    private static boolean looksLikeNextKey(String value, int from) {
        int eq = value.indexOf('=', from);
        if (eq < 0) {
            return false;
        }
        String key = value.substring(from, eq);
        return key.chars().filter(ch -> ch == ',').count() == 1 && !key.contains("'") && !key.contains("\"");
    }
}
