package io.kapi.registry.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.Comparator;
import java.util.List;

/**
 * The table of one kind: its columns and, for the few kinds that have them, row conditions. A built-in
 * kind's comes with its resource definition (made on first use by the kind's registration); the endpoint
 * layer's table convertor renders it.
 *
 * @param columns in kube's order, wide ones included (kube-apiserver always prints wide; kubectl hides
 *                priority-1 columns unless asked)
 * @param conditions the row's {@code conditions}, or null for none
 * @param order the order kube prints a list in, or null to keep the list's order
 */
public record KindPrinter(List<Column> columns, Conditions conditions, Comparator<JsonNode> order) {

    public KindPrinter(List<Column> columns, Conditions conditions) {
        this(columns, conditions, null);
    }

    /** Row conditions of an object: an array of {@code TableRowCondition}, or null. */
    @FunctionalInterface
    public interface Conditions {
        ArrayNode of(JsonNode obj);
    }

    public static KindPrinter of(Column... columns) {
        return new KindPrinter(List.of(columns), null);
    }

    public KindPrinter withConditions(Conditions c) {
        return new KindPrinter(columns, c, order);
    }

    public KindPrinter withOrder(Comparator<JsonNode> o) {
        return new KindPrinter(columns, conditions, o);
    }
}
