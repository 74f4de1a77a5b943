package io.kapi.machinery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * An APIService's {@code Available} condition, as kube-aggregator's apiregistration helpers read and write it: a
 * local APIService (no {@code spec.service}: served by the API server itself) is always available, reason
 * {@code Local}. Shared by the APIService strategy, the local availability controller and the autoregistration.
 */
public final class ApiServiceConditions {

    public static final String AVAILABLE = "Available";
    public static final String LOCAL = "Local";
    public static final String LOCAL_MESSAGE = "Local APIServices are always available";

    private ApiServiceConditions() {
    }

    /** Whether the APIService is served by this server: it names no service. */
    public static boolean isLocal(JsonNode apiService) {
        return !apiService.path("spec").path("service").isObject();
    }

    /** Whether its {@code Available} condition is True. */
    public static boolean isAvailable(JsonNode apiService) {
        JsonNode c = availableCondition(apiService);
        return c != null && c.path("status").asText().equals("True");
    }

    /** Whether its {@code Available} condition is the one a local APIService has. */
    public static boolean isLocalAvailable(JsonNode apiService) {
        JsonNode c = availableCondition(apiService);
        return c != null && c.path("status").asText().equals("True") && c.path("reason").asText().equals(LOCAL)
                && c.path("message").asText().equals(LOCAL_MESSAGE);
    }

    private static JsonNode availableCondition(JsonNode apiService) {
        for (JsonNode c : apiService.path("status").path("conditions")) {
            if (c.path("type").asText().equals(AVAILABLE)) {
                return c;
            }
        }
        return null;
    }

    /**
     * Sets the local {@code Available} condition (its transition time {@code now} when its status changes).
     *
     * @return whether anything changed
     */
    public static boolean markLocalAvailable(ObjectNode apiService, Instant now) {
        return Conditions.set(apiService, AVAILABLE, "True", LOCAL, LOCAL_MESSAGE, now);
    }
}
