package io.kapi.endpoint.table;

import static io.kapi.endpoint.table.Columns.age;
import static io.kapi.endpoint.table.Columns.nameColumn;
import static io.kapi.registry.table.Column.bool;
import static io.kapi.registry.table.Column.integer;
import static io.kapi.registry.table.Column.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.registry.table.Column;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The tables of the {@code batch} group: jobs (STATUS COMPLETIONS DURATION AGE) and cron jobs. */
public final class BatchPrinters {

    private static final String V1 = "batch.v1";

    private BatchPrinters() {
    }

    public static KindPrinter jobs() {
        List<Column> cols = new ArrayList<>(List.of(nameColumn(),
                string("Status", Doc.text("Status of the job."), (o, now) -> jobStatus(o)),
                string("Completions", Doc.api(V1, "JobStatus", "succeeded"), (o, now) -> completions(o)),
                string("Duration", Doc.text("Time required to complete the job."), BatchPrinters::duration),
                age()));
        cols.addAll(Containers.wideColumns("spec", "template", "spec"));
        cols.add(AppsPrinters.selector(Doc.api(V1, "JobSpec", "selector")));
        return new KindPrinter(List.copyOf(cols), null);
    }

    private static String completions(JsonNode job) {
        long succeeded = GoValues.integer(job, "status", "succeeded");
        if (GoValues.has(job, "spec", "completions")) {
            return succeeded + "/" + GoValues.integer(job, "spec", "completions");
        }
        long parallelism = GoValues.integer(job, "spec", "parallelism");
        return parallelism > 1 ? succeeded + "/1 of " + parallelism : succeeded + "/1";
    }

    /** Empty before the job starts; running time so far; start to completion once complete. */
    private static String duration(JsonNode job, Instant now) {
        Instant start = Obj.time(job, "status", "startTime");
        if (start == null) {
            return "";
        }
        Instant end = Obj.time(job, "status", "completionTime");
        return HumanDuration.human(Duration.between(start, end == null ? now : end));
    }

    private static String jobStatus(JsonNode job) {
        if (condition(job, "Complete")) {
            return "Complete";
        } else if (condition(job, "Failed")) {
            return "Failed";
        } else if (Obj.deleting(job)) {
            return "Terminating";
        } else if (condition(job, "Suspended")) {
            return "Suspended";
        } else if (condition(job, "FailureTarget")) {
            return "FailureTarget";
        }
        return "Running";
    }

    /** Whether the first condition of {@code type} is True. */
    private static boolean condition(JsonNode job, String type) {
        for (JsonNode c : GoValues.items(job, "status", "conditions")) {
            if (type.equals(GoValues.text(c, "type"))) {
                return "True".equals(GoValues.text(c, "status"));
            }
        }
        return false;
    }

    public static KindPrinter cronJobs() {
        String[] jobTemplate = {"spec", "jobTemplate", "spec"};
        List<Column> cols = new ArrayList<>(List.of(nameColumn(),
                string("Schedule", Doc.api(V1, "CronJobSpec", "schedule"), (o, now) -> GoValues.text(o, "spec", "schedule")),
                string("Timezone", Doc.api(V1, "CronJobSpec", "timeZone"), (o, now) -> GoValues.textOr(o, Labels.NONE, "spec", "timeZone")),
                bool("Suspend", Doc.api(V1, "CronJobSpec", "suspend"), (o, now) -> boolPtr(GoValues.at(o, "spec", "suspend"))),
                integer("Active", Doc.api(V1, "CronJobStatus", "active"), (o, now) -> (long) GoValues.size(o, "status", "active")),
                string("Last Schedule", Doc.api(V1, "CronJobStatus", "lastScheduleTime"),
                        (o, now) -> GoValues.has(o, "status", "lastScheduleTime") ? Obj.age(o, now, "status", "lastScheduleTime") : Labels.NONE),
                age()));
        cols.addAll(Containers.wideColumns("spec", "jobTemplate", "spec", "template", "spec"));
        cols.add(string("Selector", Doc.api(V1, "JobSpec", "selector"),
                (o, now) -> Labels.formatSelector(GoValues.at(o, jobTemplate).path("selector"))).wide());
        return new KindPrinter(List.copyOf(cols), null);
    }

    /** {@code printBoolPtr}: True, False, or {@code <unset>}. */
    static String boolPtr(JsonNode value) {
        if (value == null || !value.isBoolean()) {
            return "<unset>";
        }
        return value.asBoolean() ? "True" : "False";
    }
}
