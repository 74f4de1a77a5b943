package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.conversion.Converter;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;
import java.util.Map;

/**
 * Everything the server knows of one served resource, in one place: its discovery row, the resource
 * table's facts (storage version and path, generation, create-on-update, selectable fields), its
 * strategy, its conversion to the storage version, the storage keys and selectable fields made from
 * those facts, and, for resources added at run time, the OpenAPI definitions of their kinds. Built-ins
 * get theirs from the resource table and the built-in strategies and conversions; custom resources from
 * their definition.
 *
 * <p>A resource served in several versions is one definition per version, all with the same storage
 * path and storage version; each converts between its version and that one (see {@link #storedKind}).
 *
 * @param converter how objects of this version become those of the storage version and back
 * @param schemas Swagger 2.0 definitions by name for kinds the built-in schemas lack (empty for built-ins)
 */
public record ResourceDefinition(ApiResource api, ResourceFacts facts, Strategy strategy, Converter converter,
                                 ObjectKeys keys, SelectableFields selectable, Map<String, ObjectNode> schemas) {

    public ResourceDefinition {
        schemas = Map.copyOf(schemas);
    }

    /** The definition of {@code api} with {@code facts}, its strategy and conversion chosen by {@code strategies}. */
    public static ResourceDefinition of(ApiResource api, ResourceFacts facts, StrategyProvider strategies) {
        return of(api, facts, strategies.forResource(api, facts), strategies.converterFor(api, facts), Map.of());
    }

    /** A definition of objects kept as served (no conversion). */
    public static ResourceDefinition of(ApiResource api, ResourceFacts facts, Strategy strategy,
                                        Map<String, ObjectNode> schemas) {
        return of(api, facts, strategy, Converter.NONE, schemas);
    }

    public static ResourceDefinition of(ApiResource api, ResourceFacts facts, Strategy strategy, Converter converter,
                                        Map<String, ObjectNode> schemas) {
        return new ResourceDefinition(api, facts, strategy, converter, ObjectKeys.of(facts, api.namespaced()),
                SelectableFields.of(facts.selectableFields()), schemas);
    }

    /** Whether objects are converted between the served and the storage version (else kept as served). */
    public boolean converts() {
        return converter != Converter.NONE;
    }

    /**
     * The kind stored objects have: the storage version when the definition converts, else the served
     * kind (a resource served in one version only is kept in it, whatever kube's storage version).
     */
    public GroupVersionKind storedKind() {
        return converts() ? facts.storageVersion() : api.gvk();
    }
}
