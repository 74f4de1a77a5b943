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
 * behaviour (strategy, conversion to the storage version), the storage keys and selectable fields made
 * from those facts, and, for resources added at run time, the OpenAPI definitions of their kinds.
 * Built-ins get their behaviour from their kind's registration in the API groups; custom resources from
 * their definition.
 *
 * <p>A resource served in several versions is one definition per version, all with the same storage
 * path and storage version; each converts between its version and that one (see {@link #storedKind}).
 *
 * @param behaviour what writes and conversions do with its objects
 * @param schemas Swagger 2.0 definitions by name for kinds the built-in schemas lack (empty for built-ins)
 * @param custom what a custom resource version has beyond a built-in, or null for built-ins
 */
public record ResourceDefinition(ApiResource api, ResourceFacts facts, ResourceBehaviour behaviour, ObjectKeys keys,
                                 SelectableFields selectable, Map<String, ObjectNode> schemas, CustomKind custom) {

    public ResourceDefinition {
        schemas = Map.copyOf(schemas);
    }

    /** The definition of the built-in {@code api} with {@code facts}, its behaviour chosen by {@code behaviours}. */
    public static ResourceDefinition of(ApiResource api, ResourceFacts facts, BehaviourProvider behaviours) {
        return of(api, facts, behaviours.forResource(api, facts), Map.of());
    }

    /** A definition of objects kept as served (no conversion). */
    public static ResourceDefinition of(ApiResource api, ResourceFacts facts, Strategy strategy,
                                        Map<String, ObjectNode> schemas) {
        return of(api, facts, ResourceBehaviour.of(strategy), schemas);
    }

    public static ResourceDefinition of(ApiResource api, ResourceFacts facts, ResourceBehaviour behaviour,
                                        Map<String, ObjectNode> schemas) {
        return new ResourceDefinition(api, facts, behaviour, ObjectKeys.of(facts, api.namespaced()),
                SelectableFields.of(facts.selectableFields()), schemas, null);
    }

    /** The definition of a custom resource version. */
    public static ResourceDefinition custom(ApiResource api, ResourceFacts facts, Strategy strategy, Converter converter,
                                            Map<String, ObjectNode> schemas, CustomKind custom) {
        return new ResourceDefinition(api, facts, new ResourceBehaviour(strategy, converter, null, null, Converter.NONE),
                ObjectKeys.of(facts, api.namespaced()), SelectableFields.of(facts.selectableFields()), schemas, custom);
    }

    /** How its objects are written: {@link ResourceBehaviour#strategy()}. */
    public Strategy strategy() {
        return behaviour.strategy();
    }

    /** How objects of this version become those of the storage version and back: {@link ResourceBehaviour#converter()}. */
    public Converter converter() {
        return behaviour.converter();
    }

    /** Whether objects are converted between the served and the storage version (else kept as served). */
    public boolean converts() {
        return converter() != Converter.NONE;
    }

    /**
     * The kind stored objects have: the storage version when the definition converts, else the served
     * kind (a resource served in one version only is kept in it, whatever kube's storage version).
     */
    public GroupVersionKind storedKind() {
        return converts() ? facts.storageVersion() : api.gvk();
    }
}
