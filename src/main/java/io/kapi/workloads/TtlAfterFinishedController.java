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
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.registry.DeleteOptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * kube-controller-manager's ttl-after-finished controller: a Job with {@code spec.ttlSecondsAfterFinished}
 * is deleted that many seconds after its Complete or Failed condition turned True, with kube's foreground
 * propagation (its Pods go first, through the garbage collector) and a uid precondition. The Job is read
 * afresh from the API before deleting, so a TTL lengthened meanwhile, or a Job made again under the same
 * name, is not deleted on the informer's stale copy.
 */
final class TtlAfterFinishedController implements WorkloadController {

    /** kube's {@code --concurrent-ttl-after-finished-syncs} default. */
    private static final int WORKERS = 5;

    private final ResourceClient jobs;
    private final Informer jobInformer;
    private final QueueController controller;
    private final Clock clock;

    TtlAfterFinishedController(LocalClient client, SharedInformers informers, Clock clock) {
        this.clock = clock;
        this.jobs = client.resource(JobController.JOBS);
        this.jobInformer = informers.informer(JobController.JOBS);
        this.controller = new QueueController("ttl-after-finished-controller", WORKERS, this::sync);
        jobInformer.addHandler(new EventHandler() {
            @Override
            public void onAdd(ObjectNode job) {
                if (needsCleanup(job)) {
                    controller.enqueue(job);
                }
            }

            @Override
            public void onUpdate(ObjectNode before, ObjectNode after) {
                onAdd(after);
            }
        });
    }

    @Override
    public String name() {
        return "start-kapi-ttl-after-finished-controller";
    }

    @Override
    public void run() {
        controller.start();
    }

    @Override
    public void close() {
        controller.close();
    }

    static boolean needsCleanup(JsonNode job) {
        return job.path("spec").hasNonNull("ttlSecondsAfterFinished") && finishedAt(job).isPresent();
    }

    /** When the Job's Complete or Failed condition turned True. */
    static Optional<Instant> finishedAt(JsonNode job) {
        for (JsonNode c : job.path("status").path("conditions")) {
            String type = c.path("type").asText();
            if ((type.equals("Complete") || type.equals("Failed")) && c.path("status").asText().equals("True")
                    && !c.path("lastTransitionTime").asText("").isEmpty()) {
                return Optional.of(Instant.parse(c.path("lastTransitionTime").asText()));
            }
        }
        return Optional.empty();
    }

    /** How long after {@code now} {@code job} expires: zero or negative when it has; empty when it never does. */
    static Optional<Duration> timeLeft(JsonNode job, Instant now) {
        if (!needsCleanup(job) || Pods.terminating(job)) {
            return Optional.empty();
        }
        Instant expires = finishedAt(job).orElseThrow().plusSeconds(job.path("spec").path("ttlSecondsAfterFinished").asLong());
        return Optional.of(Duration.between(now, expires));
    }

    private void sync(String key) {
        String namespace = QueueController.namespace(key);
        String name = QueueController.name(key);
        ObjectNode cached = jobInformer.get(namespace, name).orElse(null);
        if (cached == null || !expired(key, cached)) {
            return;
        }
        ObjectNode fresh = jobs.find(namespace, name).orElse(null);
        if (fresh == null || !expired(key, fresh)) {
            return;
        }
        try {
            jobs.delete(namespace, name, new DeleteOptions(ObjectMeta.of(fresh).uid(), null, false, "Foreground", null));
        } catch (ApiException e) {
            if (e.reason() != StatusReason.NOT_FOUND) {
                throw e;
            }
        }
    }

    /** Whether {@code job} has expired; when it will later, the key comes back then. */
    private boolean expired(String key, JsonNode job) {
        Optional<Duration> left = timeLeft(job, clock.instant());
        if (left.isEmpty()) {
            return false;
        }
        if (left.get().isPositive()) {
            controller.queue().addAfter(key, left.get());
            return false;
        }
        return true;
    }
}
