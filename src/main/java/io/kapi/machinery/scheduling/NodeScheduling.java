package io.kapi.machinery.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's {@code component-helpers/scheduling/corev1} rules over core/v1 JSON, shared by the scheduler and the
 * daemonset controller: whether a Pod's tolerations tolerate a taint, and whether a node selector requirement
 * matches a value.
 */
public final class NodeScheduling {

    private NodeScheduling() {
    }

    /** {@code TolerationsTolerateTaint}: whether any of {@code tolerations} (a JSON array, or missing) tolerates. */
    public static boolean tolerated(JsonNode tolerations, JsonNode taint) {
        for (JsonNode t : tolerations) {
            if (tolerates(t, taint)) {
                return true;
            }
        }
        return false;
    }

    /** {@code Toleration.ToleratesTaint}: effect empty or equal; key empty (with Exists) or equal; then the operator. */
    public static boolean tolerates(JsonNode toleration, JsonNode taint) {
        String effect = toleration.path("effect").asText("");
        if (!effect.isEmpty() && !effect.equals(taint.path("effect").asText(""))) {
            return false;
        }
        String key = toleration.path("key").asText("");
        if (!key.isEmpty() && !key.equals(taint.path("key").asText(""))) {
            return false;
        }
        return switch (toleration.path("operator").asText("")) {
            case "Exists" -> true;
            case "", "Equal" -> toleration.path("value").asText("").equals(taint.path("value").asText(""));
            default -> false;
        };
    }

    /**
     * Whether a {@code NodeSelectorRequirement} ({@code key}, {@code operator}, {@code values}) matches
     * {@code value}, the node's label or field (null when it has none): In, NotIn, Exists, DoesNotExist, and Gt/Lt
     * on integers.
     */
    public static boolean requirementMatches(JsonNode requirement, String value) {
        List<String> values = new ArrayList<>();
        requirement.path("values").forEach(v -> values.add(v.asText()));
        String operator = requirement.path("operator").asText();
        return switch (operator) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            case "Gt", "Lt" -> value != null && values.size() == 1 && compare(value, values.getFirst(), operator.equals("Gt"));
            default -> false;
        };
    }

    private static boolean compare(String value, String bound, boolean greater) {
        try {
            long v = Long.parseLong(value);
            long b = Long.parseLong(bound);
            return greater ? v > b : v < b;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
