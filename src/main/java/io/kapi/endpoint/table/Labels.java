package io.kapi.endpoint.table;

import io.kapi.machinery.GoValues;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Labels and label selectors as kube's printers write them ({@code labels.FormatLabels}, {@code metav1.FormatLabelSelector}). */
final class Labels {

    static final String NONE = "<none>";

    private Labels() {
    }

    /** {@code a=b,c=d} with keys sorted, or {@code <none>} for an empty or absent map. */
    static String format(JsonNode labelMap) {
        String s = setString(labelMap);
        return s.isEmpty() ? NONE : s;
    }

    /** {@code labels.Set.String()}: sorted {@code k=v} pairs, empty for none. */
    static String setString(JsonNode labelMap) {
        Map<String, String> sorted = new TreeMap<>();
        if (labelMap != null && labelMap.isObject()) {
            labelMap.properties().forEach(e -> sorted.put(e.getKey(), e.getValue().asText()));
        }
        List<String> parts = new ArrayList<>();
        sorted.forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(",", parts);
    }

    /** {@code metav1.FormatLabelSelector}: the selector string, {@code <none>} when it selects by nothing, {@code <error>} when invalid. */
    static String formatSelector(JsonNode selector) {
        String s = selectorString(selector);
        if (s == null) {
            return "<error>";
        }
        return s.isEmpty() ? NONE : s;
    }

    /**
     * {@code LabelSelectorAsSelector(sel).String()}: requirements sorted by key, values of set operators
     * sorted; empty for a null or empty selector; null when the selector is invalid.
     */
    static String selectorString(JsonNode selector) {
        if (selector == null || !selector.isObject()) {
            return "";
        }
        record Req(String key, String text) {
        }
        List<Req> reqs = new ArrayList<>();
        JsonNode matchLabels = selector.path("matchLabels");
        if (matchLabels.isObject()) {
            matchLabels.properties().forEach(e -> reqs.add(new Req(e.getKey(), e.getKey() + "=" + e.getValue().asText())));
        }
        for (JsonNode expr : GoValues.items(selector, "matchExpressions")) {
            String key = GoValues.text(expr, "key");
            List<String> values = new ArrayList<>();
            GoValues.items(expr, "values").forEach(v -> values.add(v.asText()));
            String text = switch (GoValues.text(expr, "operator")) {
                case "In" -> values.isEmpty() ? null : key + " in (" + joinSorted(values) + ")";
                case "NotIn" -> values.isEmpty() ? null : key + " notin (" + joinSorted(values) + ")";
                case "Exists" -> values.isEmpty() ? key : null;
                case "DoesNotExist" -> values.isEmpty() ? "!" + key : null;
                default -> null;
            };
            if (text == null) {
                return null;
            }
            reqs.add(new Req(key, text));
        }
        reqs.sort(Comparator.comparing(Req::key));
        return String.join(",", reqs.stream().map(Req::text).toList());
    }

    private static String joinSorted(List<String> values) {
        List<String> copy = new ArrayList<>(values);
        copy.sort(null);
        return String.join(",", copy);
    }
}
