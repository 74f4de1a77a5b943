package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.Json;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.registry.KindValidator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** batch/v1 Jobs and CronJobs, as kube's {@code pkg/apis/batch/validation}. */
public final class Batch {

    private static final List<String> JOB_RESTART = List.of("OnFailure", "Never");
    private static final List<String> CONCURRENCY = List.of("Allow", "Forbid", "Replace");
    private static final Pattern TZ_PART = Pattern.compile("[A-Za-z._+\\-0-9]+");

    private Batch() {
    }

    /**
     * On update, a job stored without a selector (by a Kapi from before selectors were generated; its
     * selector can never be set, being immutable) is judged without the selector rules.
     */
    public static final KindValidator JOB = new Rules(Batch::job, (job, old, e) -> {
        if (GoValues.at(old, "spec").path("selector").isObject()) {
            job(job, e);
        } else {
            jobSpec(GoValues.at(job, "spec"), "spec", e);
        }
        jobImmutable(job, old, e);
    });

    private static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
    private static final String JOB_NAME = "batch.kubernetes.io/job-name";
    public static final KindValidator CRON_JOB = Rules.of(Batch::cronJob);

    private static void job(ObjectNode job, Errs e) {
        JsonNode spec = GoValues.at(job, "spec");
        generatedSelector(job, e);
        jobSpec(spec, "spec", e);
        JsonNode selector = spec.get("selector");
        if (selector == null || !selector.isObject()) {
            e.required("spec.selector", "");
        } else {
            Selectors.validate(selector, "spec.selector", e);
            JsonNode labels = GoValues.at(spec, "template", "metadata", "labels");
            LabelSelector matcher = Selectors.asSelector(selector);
            if (matcher != null && !matcher.matches(labels)) {
                e.invalid("spec.template.metadata.labels", Go.stringMap(labels.isObject() ? labels : null),
                        Workloads.NO_MATCH);
            }
        }
    }

    /**
     * kube's {@code validateGeneratedSelector}: unless {@code manualSelector}, the pod template carries
     * the job's uid and name under the legacy and the {@code batch.kubernetes.io/} keys, and the
     * selector selects them.
     */
    private static void generatedSelector(ObjectNode job, Errs e) {
        JsonNode spec = GoValues.at(job, "spec");
        JsonNode selector = spec.get("selector");
        if (GoValues.at(spec, "manualSelector").asBoolean(false) || selector == null || !selector.isObject()) {
            return;
        }
        String uid = GoValues.text(GoValues.at(job, "metadata"), "uid");
        String name = GoValues.text(GoValues.at(job, "metadata"), "name");
        if (uid.isEmpty()) {
            e.required("metadata.uid", "");
        }
        JsonNode labels = GoValues.at(spec, "template", "metadata", "labels");
        ObjectNode expected = Json.NODES.objectNode();
        for (String[] label : new String[][] {{"controller-uid", uid}, {"job-name", name}, {CONTROLLER_UID, uid},
                {JOB_NAME, name}}) {
            hasLabel(labels, label[0], label[1], e);
            expected.put(label[0], label[1]);
        }
        LabelSelector matcher = Selectors.asSelector(selector);
        if (matcher != null && !matcher.matches(expected)) {
            e.invalid("spec.selector", Go.labelSelector(selector), "`selector` not auto-generated");
        }
    }

    /** kube's {@code ValidateHasLabel} on the pod template's metadata. */
    private static void hasLabel(JsonNode labels, String key, String value, Errs e) {
        String path = "spec.template.metadata.labels[" + key + "]";
        if (!labels.has(key)) {
            e.required(path, value);
        } else if (!labels.get(key).asText().equals(value)) {
            e.invalid(path, Go.stringMap(labels), "must be '" + value + "'");
        }
    }

    /** validateJobSpec: counts, completion mode and the pod template with its restart policy. */
    private static void jobSpec(JsonNode spec, String path, Errs e) {
        for (String f : List.of("parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
                "backoffLimitPerIndex", "maxFailedIndexes", "ttlSecondsAfterFinished")) {
            e.nonNegative(spec, f, path + "." + f);
        }
        String mode = GoValues.text(spec, "completionMode");
        if (!mode.isEmpty() && !mode.equals("NonIndexed") && !mode.equals("Indexed")) {
            e.notSupported(path + ".completionMode", GoStrings.quote(mode), List.of("NonIndexed", "Indexed"));
        }
        if (mode.equals("Indexed") && !GoValues.has(spec, "completions")) {
            e.required(path + ".completions", "when completion mode is Indexed");
        }
        JsonNode template = GoValues.at(spec, "template");
        PodSpecs.template(template, path + ".template", e);
        String restart = GoValues.text(GoValues.at(template, "spec"), "restartPolicy");
        String effective = restart.isEmpty() ? "Always" : restart;
        if (!JOB_RESTART.contains(effective)) {
            e.notSupported(path + ".template.spec.restartPolicy", GoStrings.quote(effective), JOB_RESTART);
        }
    }

    private static void jobImmutable(ObjectNode job, ObjectNode old, Errs e) {
        JsonNode spec = GoValues.at(job, "spec");
        JsonNode before = GoValues.at(old, "spec");
        if (!GoValues.text(spec, "completionMode").equals("Indexed")) {
            e.immutableScalar(spec.get("completions"), before.get("completions"), "spec.completions");
        }
        if (!GoValues.same(spec.get("selector"), before.get("selector"))) {
            e.invalid("spec.selector", Go.labelSelector(spec.get("selector")), Errs.IMMUTABLE);
        }
        boolean suspended = GoValues.at(before, "suspend").asBoolean(false);
        if (!suspended && !GoValues.same(spec.get("template"), before.get("template"))) {
            e.invalid("spec.template", "core.PodTemplateSpec{...}", Errs.IMMUTABLE);
        }
        e.immutableScalar(spec.get("completionMode"), before.get("completionMode"), "spec.completionMode");
        if (!GoValues.same(spec.get("podFailurePolicy"), before.get("podFailurePolicy"))) {
            e.invalid("spec.podFailurePolicy", "&batch.PodFailurePolicy{...}", Errs.IMMUTABLE);
        }
    }

    private static void cronJob(ObjectNode cj, Errs e) {
        String name = GoValues.text(GoValues.at(cj, "metadata"), "name");
        if (name.length() > 52) {
            e.invalidString("metadata.name", name, "must be no more than 52 characters");
        }
        JsonNode spec = GoValues.at(cj, "spec");
        String schedule = GoValues.text(spec, "schedule");
        if (schedule.isEmpty()) {
            e.required("spec.schedule", "");
        } else {
            String err = Cron.check(schedule);
            if (err != null) {
                e.invalidString("spec.schedule", schedule, err);
            }
            if (GoValues.has(spec, "timeZone") && schedule.contains("TZ")) {
                e.invalidString("spec.schedule", schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule");
            } else if (schedule.contains("TZ")) {
                e.invalidString("spec.schedule", schedule,
                        "cannot use TZ or CRON_TZ in schedule, use timeZone field instead");
            }
        }
        timeZone(spec, e);
        e.nonNegative(spec, "startingDeadlineSeconds", "spec.startingDeadlineSeconds");
        String concurrency = GoValues.text(spec, "concurrencyPolicy");
        if (!concurrency.isEmpty() && !CONCURRENCY.contains(concurrency)) {
            e.notSupported("spec.concurrencyPolicy", GoStrings.quote(concurrency), CONCURRENCY);
        }
        e.nonNegative(spec, "successfulJobsHistoryLimit", "spec.successfulJobsHistoryLimit");
        e.nonNegative(spec, "failedJobsHistoryLimit", "spec.failedJobsHistoryLimit");
        JsonNode jobSpec = GoValues.at(spec, "jobTemplate", "spec");
        jobSpec(jobSpec, "spec.jobTemplate.spec", e);
        if (GoValues.has(jobSpec, "selector")) {
            e.invalid("spec.jobTemplate.spec.selector", Go.labelSelector(jobSpec.get("selector")),
                    "`selector` will be auto-generated");
        }
        if (GoValues.at(jobSpec, "manualSelector").asBoolean(false)) {
            e.notSupported("spec.jobTemplate.spec.manualSelector", "true", List.of("nil", "false"));
        }
    }

    private static void timeZone(JsonNode spec, Errs e) {
        if (!GoValues.has(spec, "timeZone")) {
            return;
        }
        String tz = GoValues.text(spec, "timeZone");
        String path = "spec.timeZone";
        if (tz.isEmpty()) {
            e.invalidString(path, tz, "timeZone must be nil or non-empty string");
            return;
        }
        if (tz.toLowerCase(Locale.ROOT).equals("local")) {
            e.invalidString(path, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones");
        }
        String err = TimeZones.check(tz);
        if (err != null) {
            e.invalidString(path, tz, err);
        }
        for (String part : tz.split("/", -1)) {
            if (part.equals(".") || part.equals("..") || part.startsWith("-") || !TZ_PART.matcher(part).matches()) {
                e.invalidString(path, tz, "unknown time zone " + tz);
            }
        }
    }
}
