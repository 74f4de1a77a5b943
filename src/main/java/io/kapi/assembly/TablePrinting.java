package io.kapi.assembly;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.groups.BuiltinKind;
import io.kapi.apis.groups.BuiltinKinds;
import io.kapi.endpoint.table.Printing;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceDefinition;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * How the table convertor prints each resource, from its definition in the registry's current snapshot: a
 * custom resource version with its printer columns, a built-in with its kind's printer (of the stored form
 * when the resource converts). A kind printed without a resource of its own (the Scale of a {@code scale}
 * subresource) prints as its kind's registration says; anything else with the default columns (null).
 *
 * @param registry the served resources
 */
record TablePrinting(Registry registry) implements Function<ApiResource, Printing> {

    @Override
    public Printing apply(ApiResource resource) {
        ResourceDefinition d = registry.definition(resource.gvr())
                .filter(def -> def.api().gvk().equals(resource.gvk())).orElse(null);
        if (d == null) {
            return BuiltinKinds.find(resource.gvk()).map(BuiltinKind::printer).map(Printing.Builtin::of).orElse(null);
        }
        if (d.custom() != null) {
            return new Printing.Custom(d.custom().printerColumns());
        }
        if (d.behaviour().printer() == null) {
            return null;
        }
        return new Printing.Builtin(d.behaviour().printer(), d.converts() ? stored(d) : UnaryOperator.identity());
    }

    /** The object as stored: converted to the storage version. */
    private static UnaryOperator<JsonNode> stored(ResourceDefinition d) {
        return o -> o instanceof ObjectNode object ? d.converter().toStorage(object) : o;
    }
}
