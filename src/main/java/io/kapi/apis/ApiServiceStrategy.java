package io.kapi.apis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiServiceConditions;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyDecorator;
import java.time.Instant;

/**
 * APIServices as kube-aggregator's strategy makes them: a created APIService starts with no status (the
 * kind's {@code StatusPolicy}) but, when it is local (no {@code spec.service}: served by this server), the
 * condition {@code Available=True}, reason {@code Local}, which kube's local availability controller keeps.
 */
public record ApiServiceStrategy(Strategy base) implements StrategyDecorator {

    @Override
    public void prepareForCreate(ObjectNode apiService) {
        base.prepareForCreate(apiService);
        if (ApiServiceConditions.isLocal(apiService)) {
            Instant created = Instant.parse(apiService.path("metadata").path("creationTimestamp").asText());
            ApiServiceConditions.markLocalAvailable(apiService, created);
        }
    }
}
