package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.registry.KindValidator;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Events written through {@code events.k8s.io/v1}, checked in their stored core/v1 form as kube's
 * {@code ValidateEventCreate} and {@code ValidateEventUpdate} check them for a request of that version:
 * the legacy rules every Event passes ({@link Cluster#EVENT}), then the strict ones: on create an
 * {@code eventTime}, a type of {@code Normal} or {@code Warning}, none of the deprecated core fields,
 * a well-formed series; on update nothing but the series and metadata may change. Paths name the core
 * fields ({@code firstTimestamp}, {@code count}, ...), as kube's do.
 */
public final class EventRules {

    private static final List<String> TYPES = List.of("Normal", "Warning");
    private static final DateTimeFormatter GO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private EventRules() {
    }

    public static final KindValidator STRICT = new Rules(EventRules::create, EventRules::update);

    private static void create(ObjectNode ev, Errs e) {
        Cluster.event(ev, e);
        series(ev, e);
        if (GoValues.text(ev, "eventTime").isEmpty()) {
            e.required("eventTime", "");
        }
        String type = GoValues.text(ev, "type");
        if (!TYPES.contains(type)) {
            e.invalidString("type", "", "has invalid value: " + type);
        }
        for (String f : List.of("firstTimestamp", "lastTimestamp")) {
            if (!GoValues.text(ev, f).isEmpty()) {
                e.invalidString(f, "", "needs to be unset");
            }
        }
        if (ev.path("count").asLong(0) != 0) {
            e.invalidString("count", "", "needs to be unset");
        }
        if (!GoValues.text(GoValues.at(ev, "source"), "component").isEmpty() || !GoValues.text(GoValues.at(ev, "source"), "host").isEmpty()) {
            e.invalidString("source", "", "needs to be unset");
        }
    }

    private static void update(ObjectNode ev, ObjectNode old, Errs e) {
        Cluster.event(ev, e);
        if (!GoValues.same(ev.get("series"), old.get("series"))) {
            series(ev, e);
        }
        immutable(ev, old, "involvedObject", "involvedObject", EventRules::reference, e);
        immutable(ev, old, "reason", "reason", EventRules::string, e);
        immutable(ev, old, "message", "message", EventRules::string, e);
        immutable(ev, old, "source", "source", EventRules::source, e);
        immutable(ev, old, "firstTimestamp", "firstTimestamp", EventRules::time, e);
        immutable(ev, old, "lastTimestamp", "lastTimestamp", EventRules::time, e);
        immutable(ev, old, "count", "count", v -> Long.toString(v == null ? 0 : v.asLong(0)), e);
        immutable(ev, old, "reason", "reason", EventRules::string, e);
        immutable(ev, old, "type", "type", EventRules::string, e);
        immutable(ev, old, "eventTime", "eventTime", EventRules::time, e);
        immutable(ev, old, "action", "action", EventRules::string, e);
        immutable(ev, old, "related", "related", v -> v == null || v.isNull() ? "null" : reference(v), e);
        immutable(ev, old, "reportingComponent", "reportingController", EventRules::string, e);
        immutable(ev, old, "reportingInstance", "reportingInstance", EventRules::string, e);
    }

    private static void series(ObjectNode ev, Errs e) {
        JsonNode series = ev.get("series");
        if (series == null || series.isNull()) {
            return;
        }
        if (series.path("count").asLong(0) < 2) {
            e.invalidString("series.count", "", "should be at least 2");
        }
        if (GoValues.text(series, "lastObservedTime").isEmpty()) {
            e.required("series.lastObservedTime", "");
        }
    }

    private static void immutable(ObjectNode ev, ObjectNode old, String field, String path,
                                  java.util.function.Function<JsonNode, String> render, Errs e) {
        JsonNode now = ev.get(field);
        if (!GoValues.same(now, old.get(field))) {
            e.invalid(path, render.apply(now), Errs.IMMUTABLE);
        }
    }

    private static String string(JsonNode v) {
        return GoStrings.quote(v == null || v.isNull() ? "" : v.asText());
    }

    /** Go's {@code %#v} of a {@code core.ObjectReference}. */
    private static String reference(JsonNode r) {
        return "core.ObjectReference{Kind:" + q(r, "kind") + ", Namespace:" + q(r, "namespace") + ", Name:" + q(r, "name")
                + ", UID:" + q(r, "uid") + ", APIVersion:" + q(r, "apiVersion") + ", ResourceVersion:"
                + q(r, "resourceVersion") + ", FieldPath:" + q(r, "fieldPath") + "}";
    }

    private static String source(JsonNode s) {
        return "core.EventSource{Component:" + q(s, "component") + ", Host:" + q(s, "host") + "}";
    }

    private static String q(JsonNode parent, String field) {
        return GoStrings.quote(GoValues.text(parent, field));
    }

    /** Go's {@code time.Time.String()} of a timestamp (zero for none), as metav1.Time prints it. */
    private static String time(JsonNode v) {
        String text = v == null || v.isNull() ? "" : v.asText();
        if (text.isEmpty()) {
            return "0001-01-01 00:00:00 +0000 UTC";
        }
        try {
            OffsetDateTime t = OffsetDateTime.parse(text).withOffsetSameInstant(ZoneOffset.UTC);
            String fraction = t.getNano() == 0 ? "" : ("." + String.format("%09d", t.getNano())).replaceAll("0+$", "");
            return GO_TIME.format(t) + fraction + " +0000 UTC";
        } catch (DateTimeParseException ex) {
            return GoStrings.quote(text);
        }
    }
}
