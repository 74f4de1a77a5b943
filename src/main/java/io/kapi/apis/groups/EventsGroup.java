package io.kapi.apis.groups;

import io.kapi.apis.conversion.EventsV1Conversion;
import io.kapi.apis.validation.EventRules;
import io.kapi.endpoint.table.Events;
import io.kapi.machinery.GroupVersion;
import java.util.List;

/**
 * The kinds of {@code events.k8s.io}: its Events are core Events (stored as core {@code v1}, under the same
 * key), with stricter validation.
 */
final class EventsGroup {

    private static final GroupVersion V1 = new GroupVersion("events.k8s.io", "v1");

    static final List<BuiltinKind> KINDS = List.of(
            BuiltinKind.of(V1, "Event")
                    .validation(EventRules.STRICT)
                    .conversion(new EventsV1Conversion())
                    .printer(Events::eventsGroupEvents));

    private EventsGroup() {
    }
}
