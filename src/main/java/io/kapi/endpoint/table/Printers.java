package io.kapi.endpoint.table;

import io.kapi.registry.table.Column;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * The printer of every kind without one of its own (a built-in kind's comes with its resource definition,
 * from the kind's registration in the API groups).
 */
final class Printers {

    /**
     * kube-apiserver's {@code DefaultTableConvertor}, for every kind without a printer: NAME and CREATED AT,
     * the creation time in RFC 3339 UTC to the second ({@code 0001-01-01T00:00:00Z} when unset).
     */
    static final KindPrinter DEFAULT = KindPrinter.of(
            Columns.nameColumn(),
            new Column("Created At", "date", "", 0, Doc.meta("creationTimestamp"),
                    (o, now) -> createdAt(Obj.time(o, "metadata", "creationTimestamp"))));

    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'");

    private Printers() {
    }

    private static String createdAt(Instant t) {
        Instant at = t == null ? Instant.parse("0001-01-01T00:00:00Z") : t.truncatedTo(ChronoUnit.SECONDS);
        return RFC3339.format(at.atOffset(ZoneOffset.UTC));
    }
}
