package io.kapi.apis.subresources;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** {@code metav1.LabelSelector} matching for objects that select others (PodDisruptionBudgets). */
final class Selectors {

    private Selectors() {
    }

    /**
     * Whether {@code selector} matches {@code labels}. A missing, empty or malformed selector matches
     * nothing, as kube-apiserver's eviction code treats it.
     */
    static boolean matches(JsonNode selector, Map<String, String> labels) {
        JsonNode matchLabels = selector.path("matchLabels");
        JsonNode expressions = selector.path("matchExpressions");
        if (matchLabels.isEmpty() && expressions.isEmpty()) {
            return false;
        }
        for (var e : matchLabels.properties()) {
            if (!e.getValue().asText().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        for (JsonNode expr : expressions) {
            String key = expr.path("key").asText();
            Set<String> values = new HashSet<>();
            expr.path("values").forEach(v -> values.add(v.asText()));
            boolean ok = switch (expr.path("operator").asText()) {
                case "In" -> labels.containsKey(key) && values.contains(labels.get(key));
                case "NotIn" -> !labels.containsKey(key) || !values.contains(labels.get(key));
                case "Exists" -> labels.containsKey(key);
                case "DoesNotExist" -> !labels.containsKey(key);
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
