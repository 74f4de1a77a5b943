package io.kapi.assembly;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectShapes;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.apply.FieldManager;
import io.kapi.machinery.apply.FieldManagers;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceDefinition;
import io.kapi.registry.ResourceStore;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The admission plugins' view of kinds' structure, from what the registry serves: a custom resource's
 * own schema and strategy, else the built-in schemas and the kind's strategy defaults.
 */
final class RegistryShapes implements ObjectShapes {

    private final Supplier<Registry> registry;
    private final FieldManagers fields;

    RegistryShapes(Supplier<Registry> registry, FieldManagers fields) {
        this.registry = registry;
        this.fields = fields;
    }

    @Override
    public ObjectNode mergeConfiguration(GroupVersionKind kind, ObjectNode live, ObjectNode configuration) {
        FieldManager manager = definition(kind).filter(d -> d.custom() != null)
                .map(d -> d.custom().schema().fieldManager()).orElseGet(() -> fields.forKind(kind));
        return manager.mergeConfiguration(live, configuration);
    }

    @Override
    public void applyDefaults(GroupVersionKind kind, ObjectNode object) {
        definition(kind).ifPresent(d -> d.strategy().applyDefaults(object));
    }

    private Optional<ResourceDefinition> definition(GroupVersionKind kind) {
        Registry r = registry.get();
        if (r == null) {
            return Optional.empty();
        }
        return r.stores().stream().map(ResourceStore::definition).filter(d -> d.api().gvk().equals(kind)).findFirst();
    }
}
