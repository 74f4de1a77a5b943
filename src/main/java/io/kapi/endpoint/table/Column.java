package io.kapi.endpoint.table;

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
record Column(String name, String type, String format, int priority, Doc doc, Cell cell) {

    /** The value of a column for one object: a String, Long, Boolean, or null. */
    @FunctionalInterface
    interface Cell {
        Object value(JsonNode obj, Instant now);
    }

    static Column string(String name, Doc doc, Cell cell) {
        return new Column(name, "string", "", 0, doc, cell);
    }

    static Column integer(String name, Doc doc, Cell cell) {
        return new Column(name, "integer", "", 0, doc, cell);
    }

    static Column bool(String name, Doc doc, Cell cell) {
        return new Column(name, "boolean", "", 0, doc, cell);
    }

    /** The NAME column every printer starts with. */
    static Column nameColumn() {
        return new Column("Name", "string", "name", 0, Doc.meta("name"), (o, now) -> Obj.name(o));
    }

    /** The AGE column: the human age of {@code metadata.creationTimestamp}. */
    static Column age() {
        return string("Age", Doc.meta("creationTimestamp"), Obj::age);
    }

    /** This column shown only with {@code -o wide}. */
    Column wide() {
        return new Column(name, type, format, 1, doc, cell);
    }

    Column withFormat(String newFormat) {
        return new Column(name, type, newFormat, priority, doc, cell);
    }
}
