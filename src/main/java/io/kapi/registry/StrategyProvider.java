package io.kapi.registry;

import io.kapi.machinery.conversion.Converter;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;

/**
 * Chooses the behaviour of each resource's store: its strategy and its conversion to the storage
 * version; the built-in API groups supply theirs.
 */
@FunctionalInterface
public interface StrategyProvider {

    Strategy forResource(ApiResource resource, ResourceFacts facts);

    /** The conversion of the served {@code resource} to its storage version; none by default. */
    default Converter converterFor(ApiResource resource, ResourceFacts facts) {
        return Converter.NONE;
    }
}
