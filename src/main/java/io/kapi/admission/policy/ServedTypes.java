package io.kapi.admission.policy;

import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.cel.CelSchema;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.machinery.schema.Schemas;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The type checker's view of the served API as it is now (custom resources included): kinds from the
 * resource table, schemas from the OpenAPI definitions.
 */
public record ServedTypes(Supplier<ResourceTable> table, Supplier<Schemas> schemas) implements PolicyTypeChecker.Types {

    @Override
    public List<GroupVersionKind> kindsFor(String group, String version, String resource) {
        return table.get().find(group, version, resource).map(ApiResource::gvk).stream().toList();
    }

    @Override
    public Optional<CelSchema> schema(GroupVersionKind kind) {
        Schemas s = schemas.get();
        return s.definitionName(kind).map(name -> CelSchema.of(s.definition(name), s::resolve, kind.kind()));
    }
}
