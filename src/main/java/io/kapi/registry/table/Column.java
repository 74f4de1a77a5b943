package io.kapi.registry.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * One column of a kind's table: the {@code TableColumnDefinition} fields and the function computing its cell.
 *
 * @param name the header, e.g. {@code Ready}; kubectl upper-cases it
 * @param type the OpenAPI type: {@code string}, {@code integer}, {@code boolean}, {@code number}, {@code date}
 * @param format e.g. {@code name}; empty for most columns
 * @param priority 0 for the default columns, 1 for those {@code kubectl get -o wide} adds
 * @param doc where the description comes from
 * @param cell the cell of an object
 */
public record Column(String name, String type, String format, int priority, Doc doc, Cell cell) {

    /** The value of a column for one object: a String, Long, Boolean, or null. */
    @FunctionalInterface
    public interface Cell {
        Object value(JsonNode obj, Instant now);
    }

    public static Column string(String name, Doc doc, Cell cell) {
        return new Column(name, "string", "", 0, doc, cell);
    }

    public static Column integer(String name, Doc doc, Cell cell) {
        return new Column(name, "integer", "", 0, doc, cell);
    }

    public static Column bool(String name, Doc doc, Cell cell) {
        return new Column(name, "boolean", "", 0, doc, cell);
    }

    /** This column shown only with {@code -o wide}. */
    public Column wide() {
        return new Column(name, type, format, 1, doc, cell);
    }

    public Column withFormat(String newFormat) {
        return new Column(name, type, newFormat, priority, doc, cell);
    }
}
