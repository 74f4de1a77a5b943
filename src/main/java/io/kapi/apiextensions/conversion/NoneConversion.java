package io.kapi.apiextensions.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** Conversion strategy {@code None}: only {@code apiVersion} changes. */
public record NoneConversion() implements ObjectConversion {

    @Override
    public List<ObjectNode> convert(List<ObjectNode> objects, String toApiVersion, boolean list) {
        objects.forEach(o -> o.put("apiVersion", toApiVersion));
        return objects;
    }
}
