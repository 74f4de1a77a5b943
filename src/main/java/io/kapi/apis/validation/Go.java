package io.kapi.apis.validation;

import io.kapi.machinery.GoJson;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoStrings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How apimachinery's {@code field.Error} renders a bad value, from the JSON tree: strings as Go's {@code %q},
 * numbers and booleans as {@code %v}, and the few composite values kube reports ({@code map[string]string},
 * {@code []string}, {@code metav1.LabelSelector}) as Go's {@code %#v} prints them.
 */
final class Go {

    private Go() {
    }

    /** A scalar as field.Error prints it: quoted string, plain number or bool, {@code null} when absent. */
    static String scalar(JsonNode v) {
        if (v == null || v.isMissingNode() || v.isNull()) {
            return "null";
        }
        return v.isTextual() ? GoStrings.quote(v.asText()) : v.asText();
    }

    /** {@code map[string]string{"a":"b"}} with sorted keys; {@code map[string]string(nil)} when absent. */
    static String stringMap(JsonNode map) {
        if (map == null || !map.isObject()) {
            return "map[string]string(nil)";
        }
        Map<String, String> sorted = new TreeMap<>();
        map.properties().forEach(e -> sorted.put(e.getKey(), e.getValue().asText()));
        List<String> parts = new ArrayList<>();
        sorted.forEach((k, v) -> parts.add(GoStrings.quote(k) + ":" + GoStrings.quote(v)));
        return "map[string]string{" + String.join(", ", parts) + "}";
    }

    /** {@code []string{"a", "b"}}; {@code []string(nil)} when absent. */
    static String stringSlice(JsonNode list) {
        if (list == null || !list.isArray()) {
            return "[]string(nil)";
        }
        List<String> parts = new ArrayList<>();
        list.forEach(v -> parts.add(GoStrings.quote(v.asText())));
        return "[]string{" + String.join(", ", parts) + "}";
    }

    /** A {@code metav1.LabelSelector} as {@code %#v}: {@code v1.LabelSelector{MatchLabels:..., MatchExpressions:...}}. */
    static String labelSelector(JsonNode selector) {
        if (selector == null || !selector.isObject()) {
            return "null";
        }
        JsonNode exprs = selector.get("matchExpressions");
        String expressions;
        if (exprs == null || !exprs.isArray()) {
            expressions = "[]v1.LabelSelectorRequirement(nil)";
        } else {
            List<String> parts = new ArrayList<>();
            for (JsonNode r : exprs) {
                parts.add("v1.LabelSelectorRequirement{Key:" + GoStrings.quote(r.path("key").asText()) + ", Operator:"
                        + GoStrings.quote(r.path("operator").asText()) + ", Values:" + stringSlice(r.get("values")) + "}");
            }
            expressions = "[]v1.LabelSelectorRequirement{" + String.join(", ", parts) + "}";
        }
        return "v1.LabelSelector{MatchLabels:" + stringMap(selector.get("matchLabels")) + ", MatchExpressions:"
                + expressions + "}";
    }

    /** apimachinery's {@code RegexError}: the message, the examples, the regex. */
    static String regexError(String msg, String fmt, String... examples) {
        StringBuilder b = new StringBuilder(msg).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                b.append(" or ");
            }
            b.append('\'').append(examples[i]).append("', ");
        }
        return b.append("regex used for validation is '").append(fmt).append("')").toString();
    }
}
