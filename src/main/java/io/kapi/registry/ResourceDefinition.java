package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;
import java.util.Map;

/**
 * Everything the server knows of one served resource, in one place: its discovery row, the resource
 * table's facts (storage version and path, generation, create-on-update, selectable fields), its
 * strategy, the storage keys and selectable fields made from those facts, and, for resources added at
 * run time, the OpenAPI definitions of their kinds. Built-ins get theirs from the resource table and
 * the built-in strategies; custom resources from their definition.
 *
 * @param schemas Swagger 2.0 definitions by name for kinds the built-in schemas lack (empty for built-ins)
 */
public record ResourceDefinition(ApiResource api, ResourceFacts facts, Strategy strategy, ObjectKeys keys,
                                 SelectableFields selectable, Map<String, ObjectNode> schemas) {

    public ResourceDefinition {
        schemas = Map.copyOf(schemas);
    }

    /** The definition of {@code api} with {@code facts}, its strategy chosen by {@code strategies}. */
    public static ResourceDefinition of(ApiResource api, ResourceFacts facts, StrategyProvider strategies) {
        return of(api, facts, strategies.forResource(api, facts), Map.of());
    }

    public static ResourceDefinition of(ApiResource api, ResourceFacts facts, Strategy strategy,
                                        Map<String, ObjectNode> schemas) {
        return new ResourceDefinition(api, facts, strategy, ObjectKeys.of(facts, api.namespaced()),
                SelectableFields.of(facts.selectableFields()), schemas);
    }
}
