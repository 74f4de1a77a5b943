package io.kapi.flowcontrol;

import io.kapi.machinery.GoBool;
import io.kapi.request.RequestInfo;
import io.kapi.request.Verb;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A request's cost in seats, as kube's default work estimator:
 * <ul>
 *   <li>a LIST touches the objects it lists, 100 objects a seat (1 to 10 seats): from the watch cache all
 *       stored objects of the resource; from storage twice the page ({@code limit}), plus the stored
 *       objects when a selector filters;</li>
 *   <li>a WATCH asking for initial events ({@code sendInitialEvents=true}) costs the LIST it starts with,
 *       any other 1 seat;</li>
 *   <li>a write costs 1 seat, then, when 10 or more watchers follow the resource, one seat per 10
 *       watchers, held 5 ms after it finished (kube: 5 ms of one seat per 10 watchers, reshaped to at most
 *       10 seats), for its events fanning out;</li>
 *   <li>everything else 1 seat.</li>
 * </ul>
 * Simplified from kube: the count is of the whole resource, not of the request's namespace.
 */
final class WorkEstimator {

    static final int MAX_SEATS = 10;
    static final int OBJECTS_PER_SEAT = 100;
    static final int WATCHES_PER_SEAT = 10;
    static final Duration EVENT_DURATION = Duration.ofMillis(5);

    private final ObjectCounts counts;

    WorkEstimator(ObjectCounts counts) {
        this.counts = counts;
    }

    WorkEstimate estimate(RequestInfo info, Map<String, List<String>> query) {
        if (!info.resourceRequest() || info.verb() == null) {
            return WorkEstimate.ONE;
        }
        return switch (info.verb()) {
            case LIST -> list(info, query, false);
            case WATCH -> GoBool.query(first(query, "sendInitialEvents"), false) ? list(info, query, true)
                    : WorkEstimate.ONE;
            case CREATE, UPDATE, PATCH, DELETE, DELETECOLLECTION -> write(info);
            default -> WorkEstimate.ONE;
        };
    }

    private WorkEstimate list(RequestInfo info, Map<String, List<String>> query, boolean watch) {
        ObjectCounts.Counts c = counts.counts(info.group(), info.version(), info.resource());
        if (c == null) {
            return WorkEstimate.ONE;
        }
        long stored = c.objects();
        long limit = stored;
        try {
            String asked = first(query, "limit");
            if (asked != null && Long.parseLong(asked) > 0) {
                limit = Math.min(limit, Long.parseLong(asked));
            }
        } catch (NumberFormatException e) {
            // the handler refuses it
        }
        String rv = first(query, "resourceVersion");
        boolean fromCache = watch || (rv != null && !rv.isEmpty()) || limit == stored;
        boolean filtered = first(query, "labelSelector") != null || first(query, "fieldSelector") != null;
        long objects = fromCache ? stored : filtered ? stored + limit : 2 * limit;
        return new WorkEstimate(seats(objects, OBJECTS_PER_SEAT), 0, Duration.ZERO);
    }

    private WorkEstimate write(RequestInfo info) {
        ObjectCounts.Counts c = counts.counts(info.group(), info.version(), info.resource());
        if (c == null || c.watchers() < WATCHES_PER_SEAT) {
            return WorkEstimate.ONE;
        }
        long raw = (c.watchers() + WATCHES_PER_SEAT - 1) / WATCHES_PER_SEAT;
        int seats = (int) Math.min(raw, MAX_SEATS);
        Duration latency = EVENT_DURATION.multipliedBy(raw).dividedBy(seats);
        return new WorkEstimate(1, seats, latency);
    }

    private static int seats(long objects, int perSeat) {
        long seats = (objects + perSeat - 1) / perSeat;
        return (int) Math.max(1, Math.min(MAX_SEATS, seats));
    }

    private static String first(Map<String, List<String>> query, String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }
}
