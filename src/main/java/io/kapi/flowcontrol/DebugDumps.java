package io.kapi.flowcontrol;

import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.GoDuration;
import java.nio.charset.StandardCharsets;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * kube-apiserver's flow-control debug endpoints, same columns and layout (comma-separated cells aligned
 * by Go's {@code tabwriter}: minimum width 8, padding 1):
 * <ul>
 *   <li>{@code /debug/api_priority_and_fairness/dump_priority_levels}: a row per priority level, by name;</li>
 *   <li>{@code dump_queues}: a row per queue;</li>
 *   <li>{@code dump_requests}: a row per waiting request ({@code ?includeRequestDetails=1} adds who and what).</li>
 * </ul>
 * Authorized as any non-resource path (kube's {@code system:masters} and cluster-admins may read them);
 * answers null for other paths.
 */
final class DebugDumps implements RestHandler {

    static final String PREFIX = "/debug/api_priority_and_fairness/";
    private static final DateTimeFormatter RFC3339_NANO = DateTimeFormatter.ofPattern(
            "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'", Locale.ROOT).withZone(java.time.ZoneOffset.UTC);

    private final PriorityAndFairness dispatcher;

    DebugDumps(PriorityAndFairness dispatcher) {
        this.dispatcher = dispatcher;
    }

    /** Serves /debug/api_priority_and_fairness/ only, never a resource request. */
    @Override
    public boolean servesResources() {
        return false;
    }

    @Override
    public RestResponse handle(RestRequest request) {
        if (!request.path().startsWith(PREFIX) || !"GET".equals(request.method())) {
            return null;
        }
        String table = switch (request.path().substring(PREFIX.length())) {
            case "dump_priority_levels" -> dispatcher.inspect(DebugDumps::priorityLevels);
            case "dump_queues" -> dispatcher.inspect(DebugDumps::queues);
            case "dump_requests" -> {
                String details = request.param("includeRequestDetails");
                yield dispatcher.inspect(levels -> requests(levels, details != null && !details.isEmpty()));
            }
            default -> null;
        };
        return table == null ? null
                : RestResponse.bytes(200, "text/plain; charset=utf-8", table.getBytes(StandardCharsets.UTF_8));
    }

    private static List<Level> byName(List<Level> levels) {
        List<Level> sorted = new ArrayList<>(levels);
        sorted.sort(Comparator.comparing(l -> l.config.name()));
        return sorted;
    }

    static String priorityLevels(List<Level> levels) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("PriorityLevelName", "ActiveQueues", "IsIdle", "IsQuiescing", "WaitingRequests",
                "ExecutingRequests", "DispatchedRequests", "RejectedRequests", "TimedoutRequests", "CancelledRequests"));
        for (Level l : byName(levels)) {
            int active = 0;
            if (l.queues != null) {
                for (QueueSet.Queue q : l.queues.queues) {
                    active += q.waiting.isEmpty() ? 0 : 1;
                }
            }
            rows.add(List.of(l.config.name(), Integer.toString(active), Boolean.toString(l.idle()),
                    Boolean.toString(l.quiescing), Integer.toString(l.waiting()), Integer.toString(l.executingNow()),
                    Long.toString(l.dispatchedTotal()), Long.toString(l.rejected), Long.toString(l.timedOut),
                    Long.toString(l.cancelled)));
        }
        return tabulate(rows);
    }

    static String queues(List<Level> levels) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("PriorityLevelName", "Index", "PendingRequests", "ExecutingRequests", "SeatsInUse",
                "NextDispatchR", "InitialSeatsSum", "MaxSeatsSum", "TotalWorkSum"));
        for (Level l : byName(levels)) {
            if (l.queues == null) {
                continue;
            }
            for (int i = 0; i < l.queues.queues.size(); i++) {
                QueueSet.Queue q = l.queues.queues.get(i);
                int initial = 0;
                int max = 0;
                double work = 0;
                for (Waiter w : q.waiting) {
                    initial += w.estimate.initialSeats();
                    max += w.estimate.maxSeats();
                    work += w.seats * QueueSet.ESTIMATED_SECONDS;
                }
                rows.add(List.of(l.config.name(), Integer.toString(i), Integer.toString(q.waiting.size()),
                        Integer.toString(q.executing), Integer.toString(q.seatsInUse), seatSeconds(q.nextDispatch),
                        Integer.toString(initial), Integer.toString(max), seatSeconds(work)));
            }
        }
        return tabulate(rows);
    }

    static String requests(List<Level> levels, boolean details) {
        List<List<String>> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("PriorityLevelName", "FlowSchemaName", "QueueIndex",
                "RequestIndexInQueue", "FlowDistingsher", "ArriveTime", "InitialSeats", "FinalSeats", "AdditionalLatency"));
        if (details) {
            header.addAll(List.of("UserName", "Verb", "APIPath", "Namespace", "Name", "APIVersion", "Resource",
                    "SubResource"));
        }
        rows.add(header);
        for (Level l : byName(levels)) {
            if (l.queues == null) {
                continue;
            }
            for (int qi = 0; qi < l.queues.queues.size(); qi++) {
                int ri = 0;
                for (Waiter w : l.queues.queues.get(qi).waiting) {
                    List<String> row = new ArrayList<>(List.of(l.config.name(), w.match.schema().name(),
                            Integer.toString(qi), Integer.toString(ri++), w.match.distinguisher(),
                            RFC3339_NANO.format(w.arrival), Integer.toString(w.estimate.initialSeats()),
                            Integer.toString(w.estimate.finalSeats()), GoDuration.format(w.estimate.additionalLatency())));
                    if (details) {
                        String gv = w.info.group().isEmpty() ? w.info.version() : w.info.group() + "/" + w.info.version();
                        row.addAll(List.of(w.user, w.info.verb() == null ? "" : w.info.verb().apiName(), w.info.path(),
                                w.info.namespace(), w.info.name(), gv, w.info.resource(), w.info.subresource()));
                    }
                    rows.add(row);
                }
            }
        }
        return tabulate(rows);
    }

    /** kube's SeatSeconds as text: seconds with nine decimals, then {@code ss}. */
    private static String seatSeconds(double seconds) {
        return String.format(Locale.ROOT, "%.9fss", seconds);
    }

    /**
     * Rows joined by {@code ",\t"} and aligned as Go's {@code tabwriter.NewWriter(w, 8, 0, 1, ' ', 0)}: every
     * cell but a row's last is padded to its column's widest cell plus one space, and to at least 8.
     */
    static String tabulate(List<List<String>> rows) {
        int columns = 0;
        for (List<String> row : rows) {
            columns = Math.max(columns, row.size());
        }
        int[] widths = new int[columns];
        for (List<String> row : rows) {
            for (int c = 0; c < row.size() - 1; c++) {
                widths[c] = Math.max(widths[c], Math.max(8, row.get(c).length() + 2));
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : rows) {
            for (int c = 0; c < row.size(); c++) {
                if (c == row.size() - 1) {
                    out.append(row.get(c));
                } else {
                    String cell = row.get(c) + ",";
                    out.append(cell).append(" ".repeat(widths[c] - cell.length()));
                }
            }
            out.append('\n');
        }
        return out.toString();
    }
}
