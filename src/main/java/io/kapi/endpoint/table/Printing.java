package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.registry.table.KindPrinter;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * How the objects of one resource print, as its definition says; the assembly gives the {@link TableConvertor}
 * each resource's. A resource without any prints kube's default NAME / CREATED AT table.
 */
public sealed interface Printing {

    /**
     * A built-in kind's columns. A resource served in several versions prints, as kube-apiserver prints its
     * internal object whatever version is asked for, its stored form with the stored kind's columns.
     *
     * @param printer the kind's columns, made on first use
     * @param read the object the columns read: the object itself, or its stored form (it must not change its
     *        argument)
     */
    record Builtin(Supplier<KindPrinter> printer, UnaryOperator<JsonNode> read) implements Printing {

        public Builtin {
            Objects.requireNonNull(printer, "printer");
            Objects.requireNonNull(read, "read");
        }

        /** The columns of {@code printer}, read off the object itself. */
        public static Builtin of(Supplier<KindPrinter> printer) {
            return new Builtin(printer, UnaryOperator.identity());
        }
    }

    /**
     * A custom resource version's columns.
     *
     * @param printerColumns its {@code additionalPrinterColumns} (an empty array for the default NAME and AGE)
     */
    record Custom(JsonNode printerColumns) implements Printing {
    }
}
