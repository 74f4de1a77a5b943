package io.kapi.apis.defaults;

import static io.kapi.apis.defaults.Fields.bool;
import static io.kapi.apis.defaults.Fields.child;
import static io.kapi.apis.defaults.Fields.ensure;
import static io.kapi.apis.defaults.Fields.integerPointer;
import static io.kapi.apis.defaults.Fields.items;
import static io.kapi.apis.defaults.Fields.text;
import static io.kapi.apis.defaults.Fields.textPointer;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The defaults of apps/v1 and batch/v1 workloads, each including its pod template. */
public final class WorkloadDefaults {

    /** The backoff limit of a Job using backoffLimitPerIndex: unbounded (Go's MaxInt32). */
    static final int UNBOUNDED_BACKOFF = Integer.MAX_VALUE;

    private WorkloadDefaults() {
    }

    public static void deployment(ObjectNode object) {
        ObjectNode spec = ensure(object, "spec");
        integerPointer(spec, "replicas", 1);
        ObjectNode strategy = ensure(spec, "strategy");
        text(strategy, "type", "RollingUpdate");
        if (Fields.text(strategy, "type").equals("RollingUpdate")) {
            ObjectNode rolling = ensure(strategy, "rollingUpdate");
            textPointer(rolling, "maxUnavailable", "25%");
            textPointer(rolling, "maxSurge", "25%");
        }
        integerPointer(spec, "revisionHistoryLimit", 10);
        integerPointer(spec, "progressDeadlineSeconds", 600);
        template(spec);
    }

    public static void replicaSet(ObjectNode object) {
        ObjectNode spec = ensure(object, "spec");
        integerPointer(spec, "replicas", 1);
        template(spec);
    }

    public static void daemonSet(ObjectNode object) {
        ObjectNode spec = ensure(object, "spec");
        ObjectNode strategy = ensure(spec, "updateStrategy");
        text(strategy, "type", "RollingUpdate");
        if (Fields.text(strategy, "type").equals("RollingUpdate")) {
            ObjectNode rolling = ensure(strategy, "rollingUpdate");
            integerPointer(rolling, "maxUnavailable", 1);
            integerPointer(rolling, "maxSurge", 0);
        }
        integerPointer(spec, "revisionHistoryLimit", 10);
        template(spec);
    }

    public static void statefulSet(ObjectNode object) {
        ObjectNode spec = ensure(object, "spec");
        text(spec, "podManagementPolicy", "OrderedReady");
        ObjectNode strategy = ensure(spec, "updateStrategy");
        if (Fields.blank(strategy, "type")) {
            strategy.put("type", "RollingUpdate");
            Fields.emptyObject(strategy, "rollingUpdate");
        }
        ObjectNode rolling = child(strategy, "rollingUpdate");
        if (Fields.text(strategy, "type").equals("RollingUpdate") && rolling != null) {
            integerPointer(rolling, "partition", 0);
        }
        ObjectNode retention = ensure(spec, "persistentVolumeClaimRetentionPolicy");
        text(retention, "whenDeleted", "Retain");
        text(retention, "whenScaled", "Retain");
        integerPointer(spec, "replicas", 1);
        integerPointer(spec, "revisionHistoryLimit", 10);
        template(spec);
        for (ObjectNode claim : items(spec, "volumeClaimTemplates")) {
            CoreDefaults.persistentVolumeClaim(claim);
        }
    }

    public static void job(ObjectNode object) {
        ObjectNode spec = ensure(object, "spec");
        jobSpec(spec);
        ObjectNode templateLabels = child(child(child(spec, "template"), "metadata"), "labels");
        ObjectNode metadata = ensure(object, "metadata");
        if (templateLabels != null && Fields.empty(metadata, "labels")) {
            metadata.set("labels", templateLabels.deepCopy());
        }
        template(spec);
    }

    public static void cronJob(ObjectNode object) {
        ObjectNode spec = ensure(object, "spec");
        text(spec, "concurrencyPolicy", "Allow");
        bool(spec, "suspend", false);
        integerPointer(spec, "successfulJobsHistoryLimit", 3);
        integerPointer(spec, "failedJobsHistoryLimit", 1);
        template(child(child(spec, "jobTemplate"), "spec"));
    }

    private static void jobSpec(ObjectNode spec) {
        if (Fields.unset(spec, "completions") && Fields.unset(spec, "parallelism")) {
            spec.put("completions", 1);
        }
        integerPointer(spec, "parallelism", 1);
        integerPointer(spec, "backoffLimit", Fields.unset(spec, "backoffLimitPerIndex") ? 6 : UNBOUNDED_BACKOFF);
        textPointer(spec, "completionMode", "NonIndexed");
        bool(spec, "suspend", false);
        ObjectNode failurePolicy = child(spec, "podFailurePolicy");
        for (ObjectNode rule : items(failurePolicy, "rules")) {
            for (ObjectNode pattern : items(rule, "onPodConditions")) {
                text(pattern, "status", "True");
            }
        }
        textPointer(spec, "podReplacementPolicy", failurePolicy != null ? "Failed" : "TerminatingOrFailed");
    }

    private static void template(ObjectNode spec) {
        ObjectNode template = child(spec, "template");
        if (template != null) {
            PodSpecs.template(template);
        }
    }
}
