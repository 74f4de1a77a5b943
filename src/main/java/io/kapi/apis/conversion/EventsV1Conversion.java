package io.kapi.apis.conversion;

import static io.kapi.apis.conversion.Nodes.copy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.conversion.Converter;

/**
 * {@code events.k8s.io/v1} Events, stored as core {@code v1} Events (kube-apiserver keeps both under
 * {@code /registry/events/} in the core encoding), converted as {@code pkg/apis/events/v1/conversion.go}:
 * {@code regarding} is {@code involvedObject}, {@code note} is {@code message},
 * {@code reportingController} is {@code reportingComponent}, and the {@code deprecated*} fields are the
 * core Event's {@code source}, {@code firstTimestamp}, {@code lastTimestamp} and {@code count}; the other
 * fields have the same names. Fields are written in the order of each version's Go type; the object
 * reference, a Go struct in both, is always written.
 */
public final class EventsV1Conversion implements Converter {

    @Override
    public ObjectNode toStorage(ObjectNode ev) {
        ObjectNode core = Nodes.header("v1", "Event", ev);
        core.set("involvedObject", Nodes.object(ev, "regarding").deepCopy());
        copy(ev, "reason", core);
        copy(ev, "note", core, "message");
        copy(ev, "deprecatedSource", core, "source");
        copy(ev, "deprecatedFirstTimestamp", core, "firstTimestamp");
        copy(ev, "deprecatedLastTimestamp", core, "lastTimestamp");
        copy(ev, "deprecatedCount", core, "count");
        copy(ev, "type", core);
        copy(ev, "eventTime", core);
        copy(ev, "series", core);
        copy(ev, "action", core);
        copy(ev, "related", core);
        copy(ev, "reportingController", core, "reportingComponent");
        copy(ev, "reportingInstance", core);
        return core;
    }

    @Override
    public ObjectNode fromStorage(ObjectNode core) {
        ObjectNode ev = Nodes.header("events.k8s.io/v1", "Event", core);
        copy(core, "eventTime", ev);
        copy(core, "series", ev);
        copy(core, "reportingComponent", ev, "reportingController");
        copy(core, "reportingInstance", ev);
        copy(core, "action", ev);
        copy(core, "reason", ev);
        ev.set("regarding", Nodes.object(core, "involvedObject").deepCopy());
        copy(core, "related", ev);
        copy(core, "message", ev, "note");
        copy(core, "type", ev);
        copy(core, "source", ev, "deprecatedSource");
        copy(core, "firstTimestamp", ev, "deprecatedFirstTimestamp");
        copy(core, "lastTimestamp", ev, "deprecatedLastTimestamp");
        copy(core, "count", ev, "deprecatedCount");
        return ev;
    }
}
