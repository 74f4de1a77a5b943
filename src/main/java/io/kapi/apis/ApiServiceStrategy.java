package io.kapi.apis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Conditions;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyDecorator;
import java.time.Instant;

/**
 * APIServices as kube-aggregator's strategy makes them: a created APIService starts with no status but,
 * when it is local (no {@code spec.service}: served by this server), the condition {@code Available=True},
 * reason {@code Local}, which kube's local availability controller keeps. The condition is also what that
 * controller and the automanaged APIServices write ({@link #markLocalAvailable}).
 */
public record ApiServiceStrategy(Strategy base) implements StrategyDecorator {

    public static final String AVAILABLE = "Available";
    public static final String LOCAL = "Local";
    public static final String LOCAL_MESSAGE = "Local APIServices are always available";

    @Override
    public void prepareForCreate(ObjectNode apiService) {
        base.prepareForCreate(apiService);
        if (isLocal(apiService)) {
            markLocalAvailable(apiService, Instant.parse(apiService.path("metadata").path("creationTimestamp").asText()));
        }
    }

    /** Whether the APIService is served by this server: it names no service. */
    public static boolean isLocal(JsonNode apiService) {
        return !apiService.path("spec").path("service").isObject();
    }

    /** Whether its {@code Available} condition is True. */
    public static boolean isAvailable(JsonNode apiService) {
        for (JsonNode c : apiService.path("status").path("conditions")) {
            if (c.path("type").asText().equals(AVAILABLE)) {
                return c.path("status").asText().equals("True");
            }
        }
        return false;
    }

    /** Whether its {@code Available} condition is the one a local APIService has. */
    public static boolean isLocalAvailable(JsonNode apiService) {
        for (JsonNode c : apiService.path("status").path("conditions")) {
            if (c.path("type").asText().equals(AVAILABLE)) {
                return c.path("status").asText().equals("True") && c.path("reason").asText().equals(LOCAL)
                        && c.path("message").asText().equals(LOCAL_MESSAGE);
            }
        }
        return false;
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
