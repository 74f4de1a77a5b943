package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.schema.Schemas;
import io.kapi.registry.table.Column;
import io.kapi.registry.table.Doc;

/**
 * Column descriptions from the OpenAPI definitions of the built-in kinds: the same Go doc comments
 * kube-apiserver takes its {@code SwaggerDoc()} text from, minus the {@code Possible enum values} list the
 * OpenAPI generator appends.
 */
final class Descriptions {

    private static final String ENUM_SUFFIX = "\n\nPossible enum values:";

    private final Schemas schemas;

    private Descriptions(Schemas schemas) {
        this.schemas = schemas;
    }

    static Descriptions from(Schemas schemas) {
        return new Descriptions(schemas);
    }

    /** Field descriptions all empty: for tests and callers without schemas. */
    static Descriptions none() {
        return new Descriptions(null);
    }

    String of(Doc doc) {
        return switch (doc) {
            case Doc.Text t -> t.text();
            case Doc.Field f -> field(f);
        };
    }

    private String field(Doc.Field f) {
        if (schemas == null) {
            return "";
        }
        ObjectNode def = schemas.definition(f.definition());
        String text = def == null ? "" : def.path("properties").path(f.property()).path("description").asText("");
        int cut = text.indexOf(ENUM_SUFFIX);
        return cut < 0 ? text : text.substring(0, cut);
    }
}
