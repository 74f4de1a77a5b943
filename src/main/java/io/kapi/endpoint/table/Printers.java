package io.kapi.endpoint.table;

import io.kapi.registry.table.Column;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;

/** Every kind's printer, keyed {@code group/Kind} ({@code /Pod} for core). */
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

    /** Every kind's printer, made on first use (a server prints its first table long after it starts). */
    static Map<String, KindPrinter> all() {
        return Builtin.ALL;
    }

    /** The printer of {@code group}/{@code kind}, or {@link #DEFAULT} when it has none. */
    static KindPrinter of(String group, String kind) {
        return all().getOrDefault(key(group, kind), DEFAULT);
    }

    private static final class Builtin {
        static final Map<String, KindPrinter> ALL = make();
    }

    private static Map<String, KindPrinter> make() {
        Map<String, KindPrinter> all = new HashMap<>();
        CorePrinters.register(all);
        AppsPrinters.register(all);
        BatchPrinters.register(all);
        NetworkingPrinters.register(all);
        StoragePrinters.register(all);
        RbacPrinters.register(all);
        AutoscalingPrinters.register(all);
        PolicyPrinters.register(all);
        ControlPlanePrinters.register(all);
        all.put("events.k8s.io/Event", Events.printer(true));
        return Map.copyOf(all);
    }

    static String key(String group, String kind) {
        return (group == null ? "" : group) + "/" + kind;
    }

    private static String createdAt(Instant t) {
        Instant at = t == null ? Instant.parse("0001-01-01T00:00:00Z") : t.truncatedTo(ChronoUnit.SECONDS);
        return RFC3339.format(at.atOffset(ZoneOffset.UTC));
    }
}
