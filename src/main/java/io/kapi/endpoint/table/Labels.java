package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.labels.LabelSelector;
import java.util.ArrayList;
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
        try {
            return LabelSelector.fromObject(selector).toString();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
