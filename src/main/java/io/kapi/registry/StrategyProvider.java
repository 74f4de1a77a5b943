package io.kapi.registry;

import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;

/** Chooses the strategy of each resource's store; the built-in API groups supply theirs. */
@FunctionalInterface
public interface StrategyProvider {

    Strategy forResource(ApiResource resource, ResourceFacts facts);
}
