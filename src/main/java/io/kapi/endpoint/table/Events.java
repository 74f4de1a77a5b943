package io.kapi.endpoint.table;

import static io.kapi.registry.table.Column.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.Json;
import io.kapi.registry.table.Column;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;
import java.time.Instant;
import java.util.Locale;

/**
 * The table of events. kube-apiserver prints {@code events.k8s.io/v1} Events through the core printer (both
 * are one stored kind), so those are first mapped to core/v1 field names.
 */
public final class Events {

    private Events() {
    }

    /** The table of core/v1 Events (and of events.k8s.io/v1 Events once stored, as core Events). */
    public static KindPrinter coreEvents() {
        return printer(false);
    }

    /** The table of events.k8s.io/v1 Events as that version has them (field names mapped to core/v1's). */
    public static KindPrinter eventsGroupEvents() {
        return printer(true);
    }

    /** The Event printer; {@code eventsGroup} when the objects are {@code events.k8s.io} Events. */
    private static KindPrinter printer(boolean eventsGroup) {
        return KindPrinter.of(
                col(eventsGroup, string("Last Seen", Doc.core("Event", "lastTimestamp"), Events::lastSeen)),
                col(eventsGroup, string("Type", Doc.core("Event", "type"), (o, now) -> GoValues.text(o, "type"))),
                col(eventsGroup, string("Reason", Doc.core("Event", "reason"), (o, now) -> GoValues.text(o, "reason"))),
                col(eventsGroup, string("Object", Doc.core("Event", "involvedObject"), (o, now) -> target(o))),
                col(eventsGroup, string("Subobject", Doc.core("ObjectReference", "fieldPath"),
                        (o, now) -> GoValues.text(o, "involvedObject", "fieldPath")).wide()),
                col(eventsGroup, string("Source", Doc.core("Event", "source"), (o, now) -> source(o)).wide()),
                col(eventsGroup, string("Message", Doc.core("Event", "message"), (o, now) -> GoValues.text(o, "message").strip())),
                col(eventsGroup, string("First Seen", Doc.core("Event", "firstTimestamp"), Events::firstSeen).wide()),
                col(eventsGroup, string("Count", Doc.core("Event", "count"), (o, now) -> count(o)).wide()),
                col(eventsGroup, Columns.nameColumn().wide()));
    }

    private static Column col(boolean eventsGroup, Column c) {
        if (!eventsGroup) {
            return c;
        }
        Column.Cell core = c.cell();
        return new Column(c.name(), c.type(), c.format(), c.priority(), c.doc(), (o, now) -> core.value(toCore(o), now));
    }

    private static String firstSeen(JsonNode e, Instant now) {
        Instant first = Obj.time(e, "firstTimestamp");
        return first != null ? HumanDuration.since(first, now) : Obj.age(e, now, "eventTime");
    }

    private static String lastSeen(JsonNode e, Instant now) {
        if (GoValues.has(e, "series")) {
            return Obj.age(e, now, "series", "lastObservedTime");
        }
        Instant last = Obj.time(e, "lastTimestamp");
        return last != null ? HumanDuration.since(last, now) : firstSeen(e, now);
    }

    private static long count(JsonNode e) {
        if (GoValues.has(e, "series")) {
            return GoValues.integer(e, "series", "count");
        }
        long count = GoValues.integer(e, "count");
        return count == 0 ? 1 : count;
    }

    private static String target(JsonNode e) {
        String kind = GoValues.text(e, "involvedObject", "kind").toLowerCase(Locale.ROOT);
        String name = GoValues.text(e, "involvedObject", "name");
        return name.isEmpty() ? kind : kind + "/" + name;
    }

    /** {@code formatEventSource}: component (else reporting controller), then {@code , host} (else reporting instance) when set. */
    private static String source(JsonNode e) {
        String component = GoValues.textOr(e, GoValues.text(e, "reportingComponent"), "source", "component");
        String instance = GoValues.textOr(e, GoValues.text(e, "reportingInstance"), "source", "host");
        return instance.isEmpty() ? component : component + ", " + instance;
    }

    /** An events.k8s.io/v1 Event under core/v1 field names, as kube's conversion to the internal Event. */
    static ObjectNode toCore(JsonNode ev) {
        ObjectNode core = Json.object();
        copy(ev, "metadata", core, "metadata");
        copy(ev, "type", core, "type");
        copy(ev, "reason", core, "reason");
        copy(ev, "regarding", core, "involvedObject");
        copy(ev, "note", core, "message");
        copy(ev, "deprecatedSource", core, "source");
        copy(ev, "deprecatedFirstTimestamp", core, "firstTimestamp");
        copy(ev, "deprecatedLastTimestamp", core, "lastTimestamp");
        copy(ev, "deprecatedCount", core, "count");
        copy(ev, "eventTime", core, "eventTime");
        copy(ev, "series", core, "series");
        copy(ev, "reportingController", core, "reportingComponent");
        copy(ev, "reportingInstance", core, "reportingInstance");
        return core;
    }

    private static void copy(JsonNode from, String field, ObjectNode to, String as) {
        JsonNode v = from.get(field);
        if (v != null && !v.isNull()) {
            to.set(as, v);
        }
    }
}
