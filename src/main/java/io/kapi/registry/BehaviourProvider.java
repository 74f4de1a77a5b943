package io.kapi.registry;

import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;

/**
 * Gives each built-in resource its behaviour (strategy, conversion, ...) from its kind's registration; the
 * built-in API groups supply theirs.
 */
@FunctionalInterface
public interface BehaviourProvider {

    /** The behaviour of the served {@code resource}, whose table facts are {@code facts}. */
    ResourceBehaviour forResource(ApiResource resource, ResourceFacts facts);
}
