package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
import io.kapi.informers.EventHandler;
import io.kapi.informers.Informer;
import io.kapi.informers.QueueController;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.registry.DeleteOptions;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * kube-controller-manager's cronjob controller (v2): at each time its schedule names (in
 * {@code spec.timeZone}, else the clock's zone, as kube uses the controller-manager's local time) a CronJob
 * creates a Job {@code <cronjob>-<scheduled time in minutes since the epoch>} from its template, annotated
 * {@code batch.kubernetes.io/cronjob-scheduled-timestamp}, unless the start is later than
 * {@code startingDeadlineSeconds} (MissSchedule), the CronJob is suspended, or Forbid finds a Job still
 * active (JobAlreadyActive); Replace deletes the active Jobs first. {@code status.active},
 * {@code lastScheduleTime} and {@code lastSuccessfulTime} follow its Jobs; finished Jobs beyond
 * {@code successfulJobsHistoryLimit}/{@code failedJobsHistoryLimit} are deleted, oldest start first. A CronJob
 * is synced again 100 ms after its next scheduled time (a queue delay on the injected {@link Clock}), not by
 * polling.
 */
final class CronJobController implements WorkloadController {

    static final GroupVersionResource CRON_JOBS = new GroupVersionResource("batch", "v1", "cronjobs");
    static final String SCHEDULED = "batch.kubernetes.io/cronjob-scheduled-timestamp";
    /** kube's {@code nextScheduleDelta}. */
    static final Duration NEXT_DELTA = Duration.ofMillis(100);
    /** kube's {@code --concurrent-cron-job-syncs} default. */
    private static final int WORKERS = 5;
    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX");
    private static final DateTimeFormatter RFC1123Z = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss Z",
            Locale.US);

    private final ResourceClient cronJobs;
    private final ResourceClient jobs;
    private final Informer cronJobInformer;
    private final Informer jobInformer;
    private final EventRecorder events;
    private final QueueController controller;
    private final Clock clock;

    CronJobController(LocalClient client, SharedInformers informers, Clock clock) {
        this.clock = clock;
        this.cronJobs = client.resource(CRON_JOBS);
        this.jobs = client.resource(JobController.JOBS);
        this.events = new EventRecorder(client.resource("", "v1", "events"), "cronjob-controller", clock);
        this.cronJobInformer = informers.informer(CRON_JOBS);
        this.jobInformer = informers.informer(JobController.JOBS);
        this.controller = new QueueController("cronjob-controller", WORKERS, this::sync);
        cronJobInformer.addHandler(controller.enqueueing());
        jobInformer.addHandler(EventHandler.onAnyChange(job -> Pods.controllerOf(job)
                .filter(r -> r.path("kind").asText().equals("CronJob"))
                .ifPresent(r -> controller.queue().add(ObjectMeta.of(job).namespace() + "/" + r.path("name").asText()))));
    }

    @Override
    public String name() {
        return "start-kapi-cronjob-controller";
    }

    @Override
    public void run() {
        controller.start();
    }

    @Override
    public void close() {
        controller.close();
    }

    private void sync(String key) {
        ObjectNode found = cronJobInformer.get(QueueController.namespace(key), QueueController.name(key)).orElse(null);
        if (found == null) {
            return;
        }
        ObjectNode cj = found.deepCopy();
        cj.put("apiVersion", "batch/v1");
        cj.put("kind", "CronJob");
        String uid = ObjectMeta.of(cj).uid();
        List<ObjectNode> children = jobInformer.list(ObjectMeta.of(cj).namespace()).stream()
                .filter(j -> Pods.controllerOf(j).map(r -> r.path("uid").asText().equals(uid)).orElse(false))
                .map(j -> {
                    ObjectNode t = j.deepCopy();
                    t.put("apiVersion", "batch/v1");
                    t.put("kind", "Job");
                    return t;
                }).toList();
        boolean update = cleanupFinished(cj, children);
        CronJobSync result = new CronJobSync(cj, children);
        ApiException failure = null;
        try {
            result.run();
        } catch (ApiException e) {
            failure = e;
        }
        if (update || result.update) {
            cronJobs.update(result.cj, "status");
        }
        if (result.requeueAfter != null) {
            controller.queue().addAfter(key, result.requeueAfter.isNegative() ? Duration.ZERO : result.requeueAfter);
            return;
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** kube's {@code cleanupFinishedJobs}: finished Jobs beyond the history limits, oldest start first. */
    private boolean cleanupFinished(ObjectNode cj, List<ObjectNode> children) {
        JsonNode spec = cj.path("spec");
        if (!spec.hasNonNull("successfulJobsHistoryLimit") && !spec.hasNonNull("failedJobsHistoryLimit")) {
            return false;
        }
        List<ObjectNode> succeeded = new ArrayList<>();
        List<ObjectNode> failed = new ArrayList<>();
        for (ObjectNode job : children) {
            String finished = finishedType(job);
            if ("Complete".equals(finished)) {
                succeeded.add(job);
            } else if ("Failed".equals(finished)) {
                failed.add(job);
            }
        }
        boolean update = false;
        if (spec.hasNonNull("successfulJobsHistoryLimit")) {
            update |= removeOldest(cj, succeeded, spec.path("successfulJobsHistoryLimit").asInt());
        }
        if (spec.hasNonNull("failedJobsHistoryLimit")) {
            update |= removeOldest(cj, failed, spec.path("failedJobsHistoryLimit").asInt());
        }
        return update;
    }

    private boolean removeOldest(ObjectNode cj, List<ObjectNode> finished, int keep) {
        int excess = finished.size() - keep;
        if (excess <= 0) {
            return false;
        }
        List<ObjectNode> sorted = new ArrayList<>(finished);
        sorted.sort(BY_START);
        boolean update = false;
        for (int i = 0; i < excess; i++) {
            update |= deleteJob(cj, sorted.get(i));
        }
        return update;
    }

    /** kube's {@code byJobStartTime}: earlier start first, Jobs never started last, then by name. */
    static final Comparator<JsonNode> BY_START = Comparator
            .<JsonNode, Boolean>comparing(j -> !j.path("status").hasNonNull("startTime"))
            .thenComparing(j -> Instant.parse(j.path("status").path("startTime").asText("1970-01-01T00:00:00Z")))
            .thenComparing(j -> j.path("metadata").path("name").asText());

    /** kube's {@code deleteJob}: background propagation, then out of the active list. */
    private boolean deleteJob(ObjectNode cj, JsonNode job) {
        String name = job.path("metadata").path("name").asText();
        try {
            jobs.delete(ObjectMeta.of(cj).namespace(), name, new DeleteOptions(null, null, false, "Background", null));
        } catch (ApiException e) {
            if (e.reason() != StatusReason.NOT_FOUND) {
                events.warning(cj, "FailedDelete", "Deleted job: " + e.getMessage());
                return false;
            }
        }
        removeFromActive(cj, job.path("metadata").path("uid").asText());
        events.normal(cj, "SuccessfulDelete", "Deleted job " + name);
        return true;
    }

    private static void removeFromActive(ObjectNode cj, String uid) {
        ArrayNode kept = Json.NODES.arrayNode();
        for (JsonNode ref : cj.path("status").path("active")) {
            if (!ref.path("uid").asText().equals(uid)) {
                kept.add(ref);
            }
        }
        if (kept.isEmpty()) {
            cj.with("status").remove("active");
        } else {
            cj.with("status").set("active", kept);
        }
    }

    private static boolean inActive(JsonNode cj, String uid) {
        for (JsonNode ref : cj.path("status").path("active")) {
            if (ref.path("uid").asText().equals(uid)) {
                return true;
            }
        }
        return false;
    }

    /** The type of a Job's True Complete or Failed condition, or null (kube's {@code FinishedCondition}). */
    static String finishedType(JsonNode job) {
        for (JsonNode c : job.path("status").path("conditions")) {
            String type = c.path("type").asText();
            if ((type.equals("Complete") || type.equals("Failed")) && c.path("status").asText().equals("True")) {
                return type;
            }
        }
        return null;
    }

    /** kube's {@code getJobName}: the scheduled time in minutes since the epoch, so one time makes one Job. */
    static String jobName(String cronJob, Instant scheduled) {
        return cronJob + "-" + scheduled.getEpochSecond() / 60;
    }

    /** kube's {@code syncCronJob} for one CronJob, on a copy it updates in place. */
    private final class CronJobSync {
        ObjectNode cj;
        final List<ObjectNode> children;
        boolean update;
        Duration requeueAfter;

        CronJobSync(ObjectNode cj, List<ObjectNode> children) {
            this.cj = cj;
            this.children = children;
        }

        void run() {
            Instant now = clock.instant();
            reconcileActive();
            if (Pods.terminating(cj)) {
                return;
            }
            JsonNode spec = cj.path("spec");
            ZoneId zone = clock.getZone();
            if (spec.hasNonNull("timeZone")) {
                String tz = spec.path("timeZone").asText();
                try {
                    zone = ZoneId.of(tz);
                } catch (DateTimeException e) {
                    events.warning(cj, "UnknownTimeZone", "invalid timeZone: \"" + tz + "\": unknown time zone " + tz);
                    return;
                }
            }
            if (spec.path("suspend").asBoolean(false)) {
                return;
            }
            String text = spec.path("schedule").asText();
            if (text.contains("TZ")) {
                events.warning(cj, "UnsupportedSchedule", "CRON_TZ or TZ used in schedule \"" + text + "\" is not "
                        + "officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ "
                        + "for more details");
            }
            CronSchedule schedule;
            try {
                schedule = CronSchedule.parse(text, zone);
            } catch (IllegalArgumentException e) {
                events.warning(cj, "UnparseableSchedule", "unparseable schedule: \"" + text + "\" : " + e.getMessage());
                return;
            }
            ScheduleTimes times = times(now);
            ScheduleTimes.Recent recent;
            try {
                recent = times.mostRecent(schedule, true);
            } catch (IllegalArgumentException e) {
                events.warning(cj, "InvalidSchedule", "invalid schedule: " + text + " : " + e.getMessage());
                return;
            }
            requeueAfter = times.untilNext(schedule);
            Instant scheduled = recent.mostRecent();
            if (scheduled == null) {
                return;
            }
            if (recent.tooMany()) {
                events.warning(cj, "TooManyMissedTimes", "too many missed start times. Set or decrease "
                        + ".spec.startingDeadlineSeconds or check clock skew");
            }
            if (spec.hasNonNull("startingDeadlineSeconds")
                    && scheduled.plusSeconds(spec.path("startingDeadlineSeconds").asLong()).isBefore(now)) {
                events.warning(cj, "MissSchedule", "Missed scheduled time to start a job: "
                        + RFC1123Z.format(scheduled.atZone(java.time.ZoneOffset.UTC)));
                return;
            }
            String name = jobName(ObjectMeta.of(cj).name(), scheduled);
            String last = cj.path("status").path("lastScheduleTime").asText("");
            boolean processed = !last.isEmpty() && Instant.parse(last).equals(scheduled);
            for (JsonNode ref : cj.path("status").path("active")) {
                processed |= ref.path("name").asText().equals(name);
            }
            if (processed) {
                return;
            }
            String policy = spec.path("concurrencyPolicy").asText("Allow");
            if (policy.equals("Forbid") && !cj.path("status").path("active").isEmpty()) {
                events.normal(cj, "JobAlreadyActive",
                        "Not starting job because prior execution is running and concurrency policy is Forbid");
                return;
            }
            if (policy.equals("Replace")) {
                for (JsonNode ref : List.copyOf(iterable(cj.path("status").path("active")))) {
                    ObjectNode job;
                    try {
                        job = jobs.get(ref.path("namespace").asText(), ref.path("name").asText());
                    } catch (ApiException e) {
                        events.warning(cj, "FailedGet", "Get job: " + e.getMessage());
                        requeueAfter = null;
                        throw e;
                    }
                    if (!deleteJob(cj, job)) {
                        requeueAfter = null;
                        throw ApiException.internal("could not replace job " + ref.path("namespace").asText() + "/"
                                + ref.path("name").asText());
                    }
                    update = true;
                }
            }
            create(name, scheduled, zone);
        }

        private ScheduleTimes times(Instant now) {
            String last = cj.path("status").path("lastScheduleTime").asText("");
            Long deadline = cj.path("spec").hasNonNull("startingDeadlineSeconds")
                    ? cj.path("spec").path("startingDeadlineSeconds").asLong() : null;
            return new ScheduleTimes(Instant.parse(cj.path("metadata").path("creationTimestamp").asText()),
                    last.isEmpty() ? null : Instant.parse(last), deadline, now);
        }

        /** kube's {@code getJobFromTemplate2} and the create that follows. */
        private void create(String name, Instant scheduled, ZoneId zone) {
            JsonNode template = cj.path("spec").path("jobTemplate");
            ObjectNode job = Json.object();
            job.put("apiVersion", "batch/v1");
            job.put("kind", "Job");
            ObjectNode meta = job.putObject("metadata");
            meta.put("name", name);
            meta.put("namespace", ObjectMeta.of(cj).namespace());
            meta.set("labels", template.path("metadata").path("labels").isObject()
                    ? template.path("metadata").path("labels").deepCopy() : Json.object());
            ObjectNode annotations = template.path("metadata").path("annotations").isObject()
                    ? template.path("metadata").path("annotations").deepCopy() : Json.object();
            annotations.put(SCHEDULED, RFC3339.format(scheduled.atZone(cj.path("spec").hasNonNull("timeZone")
                    ? zone : java.time.ZoneOffset.UTC)));
            meta.set("annotations", annotations);
            meta.putArray("ownerReferences").add(Pods.controllerRef(cj));
            job.set("spec", template.path("spec").deepCopy());
            ObjectNode made;
            try {
                made = jobs.create(ObjectMeta.of(cj).namespace(), job);
            } catch (ApiException e) {
                boolean quiet = e.reason() == StatusReason.ALREADY_EXISTS
                        || (e.getMessage() != null && e.getMessage().contains("because it is being terminated"));
                if (!quiet) {
                    events.warning(cj, "FailedCreate", "Error creating job: " + e.getMessage());
                }
                requeueAfter = null;
                throw e;
            }
            events.normal(cj, "SuccessfulCreate", "Created job " + name);
            ObjectNode ref = cj.with("status").withArray("active").addObject();
            ref.put("kind", "Job");
            ref.put("namespace", ObjectMeta.of(made).namespace());
            ref.put("name", ObjectMeta.of(made).name());
            ref.put("uid", ObjectMeta.of(made).uid());
            ref.put("apiVersion", "batch/v1");
            ref.put("resourceVersion", ObjectMeta.of(made).resourceVersion());
            cj.with("status").put("lastScheduleTime", ObjectMeta.format(scheduled));
            update = true;
            requeueAfter = times(clock.instant()).untilNext(CronSchedule.parse(cj.path("spec").path("schedule").asText(),
                    zone));
        }

        /** The first half of kube's syncCronJob: the active list and lastSuccessfulTime against the Jobs. */
        private void reconcileActive() {
            java.util.Set<String> childUids = new java.util.HashSet<>();
            for (ObjectNode job : children) {
                String uid = ObjectMeta.of(job).uid();
                childUids.add(uid);
                boolean found = inActive(cj, uid);
                String finished = finishedType(job);
                if (!found && finished == null) {
                    ObjectNode fresh = cronJobs.get(ObjectMeta.of(cj).namespace(), ObjectMeta.of(cj).name());
                    if (inActive(fresh, uid)) {
                        fresh.put("apiVersion", "batch/v1");
                        fresh.put("kind", "CronJob");
                        cj = fresh;
                        continue;
                    }
                    events.warning(cj, "UnexpectedJob", "Saw a job that the controller did not create or forgot: "
                            + ObjectMeta.of(job).name());
                } else if (found && finished != null) {
                    removeFromActive(cj, uid);
                    events.normal(cj, "SawCompletedJob", "Saw completed job: " + ObjectMeta.of(job).name()
                            + ", condition: " + finished);
                    update = true;
                }
                String completion = job.path("status").path("completionTime").asText("");
                if ("Complete".equals(finished) && !completion.isEmpty()) {
                    String last = cj.path("status").path("lastSuccessfulTime").asText("");
                    if (last.isEmpty() || Instant.parse(completion).isAfter(Instant.parse(last))) {
                        cj.with("status").put("lastSuccessfulTime", completion);
                        update = true;
                    }
                }
            }
            for (JsonNode ref : List.copyOf(iterable(cj.path("status").path("active")))) {
                if (childUids.contains(ref.path("uid").asText())) {
                    continue;
                }
                if (jobs.find(ref.path("namespace").asText(), ref.path("name").asText()).isEmpty()) {
                    events.normal(cj, "MissingJob", "Active job went missing: " + ref.path("name").asText());
                    removeFromActive(cj, ref.path("uid").asText());
                    update = true;
                }
            }
        }
    }

    private static List<JsonNode> iterable(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }
}
