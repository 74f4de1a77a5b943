package io.kapi.scheduler;

import com.fasterxml.jackson.databind.JsonNode;

/** kube's {@code Toleration.ToleratesTaint} over a Pod's tolerations. */
final class Tolerations {

    private Tolerations() {
    }

    static boolean tolerated(JsonNode tolerations, JsonNode taint) {
        for (JsonNode t : tolerations) {
            if (tolerates(t, taint)) {
                return true;
            }
        }
        return false;
    }

    /** Effect empty or equal; key empty (with Exists) or equal; then Exists, or Equal with the same value. */
    static boolean tolerates(JsonNode toleration, JsonNode taint) {
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
}
