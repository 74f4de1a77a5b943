package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-controller-manager's job controller: each Job runs Pods from its template until
 * {@code spec.completions} succeed (NonIndexed), or until each index {@code 0..completions-1} has one that
 * succeeded (Indexed: the index in the annotation and label {@code batch.kubernetes.io/job-completion-index},
 * the env {@code JOB_COMPLETION_INDEX}, hostname {@code <job>-<index>}), at most {@code spec.parallelism} at a
 * time; fails it past {@code backoffLimit} (failed Pods replaced after kube's 10 s doubling back-off), past
 * {@code activeDeadlineSeconds}, or when a {@code podFailurePolicy} FailJob rule matches; finishes it early
 * on a {@code successPolicy} rule; suspends and resumes it. Pods carry the finalizer
 * {@code batch.kubernetes.io/job-tracking} until their end is counted in {@code status.succeeded/failed}
 * (through {@code status.uncountedTerminatedPods}, so a Pod deleted meanwhile is never lost nor counted
 * twice). As kube 1.34 does, the terminal condition waits for the Job's Pods to be gone: FailureTarget or
 * SuccessCriteriaMet first, then Failed or Complete with the same reason. One {@link JobSync} per sync
 * holds the logic; this class holds the informers, the queue and what persists between syncs.
 */
final class JobController implements WorkloadController {

    static final GroupVersionResource JOBS = new GroupVersionResource("batch", "v1", "jobs");
    static final String TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking";
    static final String INDEX = "batch.kubernetes.io/job-completion-index";
    static final String MANAGED_BY = "kubernetes.io/job-controller";
    /** kube's {@code --concurrent-job-syncs} default. */
    private static final int WORKERS = 5;
    private static final String ORPHAN = "pod:";

    final ResourceClient jobs;
    final ResourceClient pods;
    final Informer jobInformer;
    final Informer podInformer;
    final EventRecorder events;
    final Expectations expectations = new Expectations();
    /** kube's {@code finalizerExpectations}: Pods (by uid) whose finalizer removal the informer has yet to show. */
    final Map<String, Set<String>> removingFinalizers = new ConcurrentHashMap<>();
    final Map<String, JobBackoff> backoffs = new ConcurrentHashMap<>();
    final ControllerRefs refs;
    final QueueController controller;
    final Clock clock;

    JobController(LocalClient client, SharedInformers informers, Clock clock) {
        this.clock = clock;
        this.jobs = client.resource(JOBS);
        this.pods = client.resource(ReplicaSetController.PODS);
        this.events = new EventRecorder(client.resource("", "v1", "events"), "job-controller", clock);
        this.jobInformer = informers.informer(JOBS);
        this.podInformer = informers.informer(ReplicaSetController.PODS);
        this.refs = new ControllerRefs(jobs, pods).adoptingWith(TRACKING_FINALIZER);
        this.controller = new QueueController("job-controller", WORKERS, this::sync);
        jobInformer.addHandler(new JobChanges());
        podInformer.addHandler(new PodChanges());
    }

    @Override
    public String name() {
        return "start-kapi-job-controller";
    }

    @Override
    public void run() {
        controller.start();
    }

    @Override
    public void close() {
        controller.close();
    }

    private void sync(String key) throws InterruptedException {
        if (key.startsWith(ORPHAN)) {
            syncOrphan(key.substring(ORPHAN.length()));
            return;
        }
        ObjectNode job = jobInformer.get(QueueController.namespace(key), QueueController.name(key)).orElse(null);
        if (job == null) {
            expectations.forget(key);
            removingFinalizers.remove(key);
            backoffs.remove(key);
            return;
        }
        if (finished(job)) {
            backoffs.remove(key);
            return;
        }
        String managedBy = job.path("spec").path("managedBy").asText(MANAGED_BY);
        if (!managedBy.equals(MANAGED_BY)) {
            return; // kube leaves a Job managed by another controller alone
        }
        new JobSync(this, key, typed(job)).run();
    }

    static ObjectNode typed(ObjectNode job) {
        ObjectNode copy = job.deepCopy();
        copy.put("apiVersion", "batch/v1");
        copy.put("kind", "Job");
        return copy;
    }

    /** kube's {@code IsJobFinished}: a Complete or Failed condition that is True. */
    static boolean finished(JsonNode job) {
        for (JsonNode c : job.path("status").path("conditions")) {
            String type = c.path("type").asText();
            if ((type.equals("Complete") || type.equals("Failed")) && c.path("status").asText().equals("True")) {
                return true;
            }
        }
        return false;
    }

    static boolean hasTrackingFinalizer(JsonNode pod) {
        for (JsonNode f : pod.path("metadata").path("finalizers")) {
            if (f.asText().equals(TRACKING_FINALIZER)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Removes the tracking finalizer (a Pod already gone has nothing left to remove). kube sends a strategic
     * merge patch {@code $deleteFromPrimitiveList/finalizers}; Kapi would keep an emptied list as
     * {@code finalizers: []} where kube's typed round trip drops it, so this is a merge patch of the remaining
     * finalizers (null for none) on the Pod's uid and resourceVersion: a Pod changed meanwhile is a conflict,
     * and the sync is retried.
     */
    void removeFinalizer(JsonNode pod) {
        ObjectNode patch = Json.object();
        ObjectNode meta = patch.putObject("metadata");
        meta.put("uid", pod.path("metadata").path("uid").asText());
        meta.put("resourceVersion", pod.path("metadata").path("resourceVersion").asText());
        com.fasterxml.jackson.databind.node.ArrayNode rest = Json.NODES.arrayNode();
        for (JsonNode f : pod.path("metadata").path("finalizers")) {
            if (!f.asText().equals(TRACKING_FINALIZER)) {
                rest.add(f.asText());
            }
        }
        if (rest.isEmpty()) {
            meta.putNull("finalizers");
        } else {
            meta.set("finalizers", rest);
        }
        try {
            pods.mergePatch(pod.path("metadata").path("namespace").asText(), pod.path("metadata").path("name").asText(),
                    patch);
        } catch (ApiException e) {
            if (e.reason() != StatusReason.NOT_FOUND) {
                throw e;
            }
        }
    }

    /** kube's {@code syncOrphanPod}: a Pod whose Job is gone or finished loses the tracking finalizer. */
    private void syncOrphan(String podKey) {
        ObjectNode pod = podInformer.get(QueueController.namespace(podKey), QueueController.name(podKey)).orElse(null);
        if (pod == null || !hasTrackingFinalizer(pod)) {
            return;
        }
        Optional<JsonNode> ref = Pods.controllerOf(pod);
        if (ref.isPresent()) {
            if (!ref.get().path("kind").asText().equals("Job") || !ref.get().path("apiVersion").asText().equals("batch/v1")) {
                return;
            }
            ObjectNode job = jobFor(pod, ref.get()).orElse(null);
            if (job != null && !finished(job)) {
                return; // adopted meanwhile
            }
        }
        removeFinalizer(pod);
    }

    private Optional<ObjectNode> jobFor(JsonNode pod, JsonNode ref) {
        return jobInformer.get(pod.path("metadata").path("namespace").asText(), ref.path("name").asText())
                .filter(j -> ObjectMeta.of(j).uid().equals(ref.path("uid").asText()));
    }

    /** The queue key of the Job controlling {@code pod}, or null. */
    private String jobKey(JsonNode pod) {
        return Pods.controllerOf(pod).filter(r -> r.path("kind").asText().equals("Job"))
                .flatMap(r -> jobFor(pod, r)).map(QueueController::key).orElse(null);
    }

    private void orphan(JsonNode pod) {
        if (hasTrackingFinalizer(pod)) {
            controller.queue().add(ORPHAN + pod.path("metadata").path("namespace").asText() + "/"
                    + pod.path("metadata").path("name").asText());
        }
    }

    private void finalizerGone(String key, JsonNode pod) {
        Set<String> uids = removingFinalizers.get(key);
        if (uids != null) {
            uids.remove(pod.path("metadata").path("uid").asText());
        }
    }

    /** kube's addJob, updateJob, deleteJob: a deleted Job's Pods lose their finalizers. */
    private final class JobChanges implements EventHandler {
        @Override
        public void onAdd(ObjectNode job) {
            controller.enqueue(job);
        }

        @Override
        public void onUpdate(ObjectNode before, ObjectNode after) {
            controller.enqueue(after);
        }

        @Override
        public void onDelete(ObjectNode job) {
            controller.enqueue(job);
            String uid = ObjectMeta.of(job).uid();
            for (ObjectNode pod : podInformer.list(ObjectMeta.of(job).namespace())) {
                if (Pods.controlledBy(pod, "Job", uid)) {
                    orphan(pod);
                }
            }
        }
    }

    /** kube's addPod, updatePod, deletePod. */
    private final class PodChanges implements EventHandler {
        @Override
        public void onAdd(ObjectNode pod) {
            if (Pods.terminating(pod)) {
                onDelete(pod);
                return;
            }
            String key = jobKey(pod);
            if (key != null) {
                expectations.creationObserved(key);
                controller.queue().add(key);
            } else if (Pods.controllerOf(pod).isEmpty()) {
                enqueueMatching(pod);
                orphan(pod);
            } else {
                orphan(pod);
            }
        }

        @Override
        public void onUpdate(ObjectNode before, ObjectNode after) {
            String oldKey = jobKey(before);
            String key = jobKey(after);
            if (Pods.terminating(after) && !Pods.terminating(before) && key != null) {
                expectations.deletionObserved(key, ObjectMeta.of(after).name());
            }
            if (hasTrackingFinalizer(before) && !hasTrackingFinalizer(after) && key != null) {
                finalizerGone(key, after);
            }
            if (oldKey != null && !oldKey.equals(key)) {
                finalizerGone(oldKey, before);
                controller.queue().add(oldKey);
            }
            if (key != null) {
                controller.queue().add(key);
            } else {
                if (Pods.controllerOf(after).isEmpty()) {
                    enqueueMatching(after);
                }
                orphan(after);
            }
        }

        @Override
        public void onDelete(ObjectNode pod) {
            String key = jobKey(pod);
            if (key != null) {
                expectations.deletionObserved(key, ObjectMeta.of(pod).name());
                finalizerGone(key, pod);
                controller.queue().add(key);
            }
        }

        private void enqueueMatching(JsonNode pod) {
            for (ObjectNode job : jobInformer.list(pod.path("metadata").path("namespace").asText())) {
                try {
                    if (io.kapi.machinery.labels.LabelSelector.fromObject(job.path("spec").path("selector"))
                            .matches(pod.path("metadata").path("labels"))) {
                        controller.enqueue(job);
                    }
                } catch (IllegalArgumentException e) {
                    // an invalid selector matches nothing
                }
            }
        }
    }

    /**
     * kube's {@code backoffRecord}: failures since the last success and when the last one ended; a new Pod
     * waits {@code 10 s × 2^(failures-1)}, at most 6 minutes, after it.
     */
    record JobBackoff(int failures, Instant lastFailure) {
        static final JobBackoff NONE = new JobBackoff(0, null);
        static final Duration BASE = Duration.ofSeconds(10);
        static final Duration MAX = Duration.ofMinutes(6);

        Duration remaining(Instant now) {
            if (failures == 0 || lastFailure == null) {
                return Duration.ZERO;
            }
            Duration backoff = failures > 10 ? MAX : BASE.multipliedBy(1L << (failures - 1));
            if (backoff.compareTo(MAX) > 0) {
                backoff = MAX;
            }
            Duration elapsed = Duration.between(lastFailure, now);
            return backoff.compareTo(elapsed) <= 0 ? Duration.ZERO : backoff.minus(elapsed);
        }
    }
}
