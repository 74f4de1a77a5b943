package io.kapi.assembly;

import io.kapi.endpoint.openapi.OpenApiHandler;
import io.kapi.machinery.schema.Schemas;
import io.kapi.registry.ApiModel;
import io.kapi.registry.Registry;
import java.util.function.Supplier;

/**
 * What OpenAPI is made from, following the registry's API model: the built-in schemas plus those of
 * the resources added at run time, merged once per model version.
 */
final class OpenApiModels implements Supplier<OpenApiHandler.Model> {

    private final Registry registry;
    private final Schemas builtin;
    private volatile OpenApiHandler.Model last;

    OpenApiModels(Registry registry, Schemas builtin) {
        this.registry = registry;
        this.builtin = builtin;
    }

    @Override
    public OpenApiHandler.Model get() {
        ApiModel model = registry.model();
        OpenApiHandler.Model seen = last;
        if (seen == null || seen.version() != model.version()) {
            seen = new OpenApiHandler.Model(model.version(), model.table(), builtin.plus(model.schemas()));
            last = seen;
        }
        return seen;
    }
}
