package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.kapi.registry.table.Column;
import io.kapi.registry.table.KindPrinter;
import java.util.function.UnaryOperator;

/**
 * How one resource prints: its columns (with their definitions already rendered) and the apiVersion and kind
 * an embedded object gets when its stored tree lacks them. Obtained from {@link TableConvertor#printer} or
 * {@link TableConvertor#customResourcePrinter}; immutable and safe to cache per resource.
 */
public final class ResourcePrinter {

    private final KindPrinter printer;
    private final ArrayNode columnDefinitions;
    private final String apiVersion;
    private final String kind;
    private final UnaryOperator<JsonNode> printed;

    ResourcePrinter(KindPrinter printer, ArrayNode columnDefinitions, String apiVersion, String kind,
                    UnaryOperator<JsonNode> printed) {
        this.printer = printer;
        this.columnDefinitions = columnDefinitions;
        this.apiVersion = apiVersion;
        this.kind = kind;
        this.printed = printed;
    }

    KindPrinter printer() {
        return printer;
    }

    /** What the columns read of {@code object}: itself, or its stored form for a resource served in several versions. */
    JsonNode printed(JsonNode object) {
        return printed.apply(object);
    }

    /** The {@code columnDefinitions}: a fresh copy, the caller may change it. */
    public ArrayNode columnDefinitions() {
        return columnDefinitions.deepCopy();
    }

    /** The column names, e.g. {@code [Name, Ready, Status, ...]}. */
    public java.util.List<String> columnNames() {
        return printer.columns().stream().map(Column::name).toList();
    }

    String apiVersion() {
        return apiVersion;
    }

    String kind() {
        return kind;
    }
}
