package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.registry.DeleteOptions;
import io.kapi.workloads.JobController.JobBackoff;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One sync of one Job, as kube's {@code syncJob}: claim the Pods, count what ended since the status was
 * written, decide whether the Job has failed or met its success criteria, otherwise create or delete Pods
 * ({@code manageJob}), then {@code trackJobStatusAndRemoveFinalizers}: ended Pods go into
 * {@code status.uncountedTerminatedPods} (written first), lose their finalizer, and only then move into the
 * counters; the terminal condition is set once nothing is uncounted and no Pod is terminating.
 */
final class JobSync {

    /** kube's {@code MaxPodCreateDeletePerSync} and {@code MaxUncountedPods}. */
    private static final int MAX_PER_SYNC = 500;
    private static final int MAX_UNCOUNTED = 500;

    private record Cond(String type, String reason, String message) {
    }

    private final JobController c;
    private final String key;
    private final Instant now;
    private ObjectNode job;
    private final JsonNode spec;
    private final boolean indexed;
    private final Integer completions;
    private final int parallelism;
    private List<ObjectNode> pods;
    private List<ObjectNode> active;
    private int ready;
    private int terminating;
    private Set<String> uncountedSucceeded;
    private Set<String> uncountedFailed;
    private Set<String> expectedRemovals;
    private int succeeded;
    private IndexSet prevSucceededIndexes = IndexSet.EMPTY;
    private IndexSet succeededIndexes = IndexSet.EMPTY;
    private Cond finished;
    private JobBackoff newBackoff;

    JobSync(JobController controller, String key, ObjectNode job) {
        this.c = controller;
        this.key = key;
        this.job = job;
        this.now = controller.clock.instant();
        this.spec = job.path("spec");
        this.indexed = spec.path("completionMode").asText("NonIndexed").equals("Indexed");
        this.completions = spec.hasNonNull("completions") ? spec.path("completions").asInt() : null;
        this.parallelism = spec.path("parallelism").asInt(1);
    }

    private ObjectNode status() {
        return job.with("status");
    }

    private boolean suspended() {
        return spec.path("suspend").asBoolean(false);
    }

    void run() throws InterruptedException {
        String mode = spec.path("completionMode").asText("NonIndexed");
        if (!mode.equals("NonIndexed") && !mode.equals("Indexed")) {
            c.events.warning(job, "UnknownCompletionMode", "Skipped Job sync because completion mode is unknown");
            return;
        }
        if (!status().path("uncountedTerminatedPods").isObject()) {
            status().putObject("uncountedTerminatedPods");
        }
        boolean satisfied = c.expectations.satisfied(key);
        LabelSelector selector = LabelSelector.fromObject(spec.path("selector"));
        claim(selector);
        active = pods.stream().filter(Pods::active).toList();
        ready = (int) active.stream().filter(Pods::ready).count();
        terminating = (int) pods.stream().filter(JobPods::terminatingPod).count();
        uncountedSucceeded = uids("succeeded");
        uncountedFailed = uids("failed");
        expectedRemovals = Set.copyOf(c.removingFinalizers.getOrDefault(key, Set.of()));
        List<ObjectNode> newSucceeded = uncountedPods(uncountedSucceeded, p -> JobPods.phase(p).equals("Succeeded"));
        List<ObjectNode> newFailed = uncountedPods(uncountedFailed, this::failed);
        succeeded = status().path("succeeded").asInt(0) + newSucceeded.size() + uncountedSucceeded.size();
        int failedCount = status().path("failed").asInt(0) + uncountedFailed.size() + (int) newFailed.stream()
                .filter(p -> JobPolicies.matchFailure(spec.path("podFailurePolicy"), p).countFailed()).count();
        if (!status().hasNonNull("startTime") && !suspended()) {
            status().put("startTime", ObjectMeta.format(now));
        }
        newBackoff = backoff(newSucceeded, newFailed);
        decideFinished(failedCount);
        int activeCount = active.size();
        boolean suspendChanged = false;
        ApiException manageError = null;
        if (finished != null) {
            int[] deleted = delete(active, false);
            if (deleted[1] != activeCount || !satisfied) {
                finished = null; // Pods still to go, or not yet seen: not finished yet
            }
            activeCount -= deleted[1];
            terminating += deleted[1];
            ready -= deleted[0];
        } else {
            boolean managed = false;
            if (satisfied && !Pods.terminating(job)) {
                try {
                    activeCount = manage();
                } catch (ApiException e) {
                    manageError = e;
                    activeCount = active.size();
                }
                managed = true;
            }
            boolean complete = completions == null ? succeeded > 0 && activeCount == 0
                    : succeeded >= completions && activeCount == 0;
            if (complete) {
                finished = new Cond("SuccessCriteriaMet", "CompletionsReached", "Reached expected number of succeeded pods");
            } else if (managed) {
                suspendChanged = suspendCondition();
            }
        }
        boolean needsUpdate = suspendChanged || activeCount != status().path("active").asInt(0)
                || !status().path("ready").isInt() || ready != status().path("ready").asInt()
                || !status().path("terminating").isInt() || terminating != status().path("terminating").asInt();
        if (activeCount == 0) {
            status().remove("active");
        } else {
            status().put("active", activeCount);
        }
        status().put("ready", ready);
        status().put("terminating", terminating);
        track(needsUpdate);
        if (manageError != null) {
            throw manageError;
        }
    }

    /** kube's {@code getPodsForJob}: claimed Pods; adopted ones count as carrying the finalizer. */
    private void claim(LabelSelector selector) {
        List<ObjectNode> claimed = c.refs.claim(job, selector, c.podInformer.list(ObjectMeta.of(job).namespace()));
        pods = new ArrayList<>(claimed);
    }

    private Set<String> uids(String field) {
        Set<String> uids = new HashSet<>();
        status().path("uncountedTerminatedPods").path(field).forEach(u -> uids.add(u.asText()));
        return uids;
    }

    /** kube's {@code onlyReplaceFailedPods}: podReplacementPolicy Failed, or a pod failure policy. */
    private boolean onlyReplaceFailed() {
        return spec.path("podReplacementPolicy").asText("").equals("Failed") || spec.hasNonNull("podFailurePolicy");
    }

    /** kube's {@code isPodFailed}: Failed, or deleted before it succeeded (unless only failed Pods count). */
    boolean failed(JsonNode pod) {
        if (JobPods.phase(pod).equals("Failed")) {
            return true;
        }
        return !onlyReplaceFailed() && Pods.terminating(pod) && !JobPods.phase(pod).equals("Succeeded");
    }

    private boolean validIndex(int ix) {
        return ix >= 0 && completions != null && ix < completions;
    }

    /** kube's {@code getValidPodsWithFilter}: ended Pods not yet counted. */
    private List<ObjectNode> uncountedPods(Set<String> uncounted, java.util.function.Predicate<JsonNode> filter) {
        List<ObjectNode> result = new ArrayList<>();
        for (ObjectNode p : pods) {
            String uid = ObjectMeta.of(p).uid();
            if (!JobController.hasTrackingFinalizer(p) || uncounted.contains(uid) || expectedRemovals.contains(uid)) {
                continue;
            }
            if (indexed && !validIndex(JobPods.index(p))) {
                continue;
            }
            if (filter.test(p)) {
                result.add(p);
            }
        }
        return result;
    }

    /** kube's {@code newBackoffRecord}: failures since the last success, and when the last one ended. */
    private JobBackoff backoff(List<ObjectNode> newSucceeded, List<ObjectNode> newFailed) {
        JobBackoff stored = c.backoffs.getOrDefault(key, JobBackoff.NONE);
        if (newSucceeded.isEmpty()) {
            if (newFailed.isEmpty()) {
                return stored;
            }
            Instant last = newFailed.stream().map(JobPods::finishTime).max(Comparator.naturalOrder()).orElseThrow();
            if (stored.lastFailure() != null && stored.lastFailure().isAfter(last)) {
                last = stored.lastFailure();
            }
            return new JobBackoff(stored.failures() + newFailed.size(), last);
        }
        Instant lastSuccess = newSucceeded.stream().map(JobPods::finishTime).max(Comparator.naturalOrder()).orElseThrow();
        List<Instant> after = newFailed.stream().map(JobPods::finishTime).filter(t -> t.isAfter(lastSuccess)).toList();
        return after.isEmpty() ? JobBackoff.NONE
                : new JobBackoff(after.size(), after.stream().max(Comparator.naturalOrder()).orElseThrow());
    }

    /** The failure or success criteria of kube's syncJob, in its order. */
    private void decideFinished(int failedCount) {
        JsonNode met = condition("SuccessCriteriaMet");
        if (met != null && met.path("status").asText().equals("True")) {
            finished = new Cond("SuccessCriteriaMet", met.path("reason").asText(""), met.path("message").asText(""));
        }
        if (finished == null) {
            JsonNode target = condition("FailureTarget");
            if (target != null && target.path("status").asText().equals("True")) {
                finished = new Cond("Failed", target.path("reason").asText(""), target.path("message").asText(""));
            } else {
                for (ObjectNode p : pods) {
                    String message = failed(p) ? JobPolicies.matchFailure(spec.path("podFailurePolicy"), p).failJob() : null;
                    if (message != null) {
                        finished = new Cond("FailureTarget", "PodFailurePolicy", message);
                        break;
                    }
                }
            }
        }
        if (finished == null) {
            long deadline = spec.path("activeDeadlineSeconds").asLong(-1);
            if (failedCount > spec.path("backoffLimit").asInt(6) || pastBackoffLimitOnFailure()) {
                finished = new Cond("FailureTarget", "BackoffLimitExceeded", "Job has reached the specified backoff limit");
            } else if (deadline >= 0 && !suspended() && status().hasNonNull("startTime")) {
                Duration left = Duration.ofSeconds(deadline)
                        .minus(Duration.between(Instant.parse(status().path("startTime").asText()), now));
                if (!left.isPositive()) {
                    finished = new Cond("FailureTarget", "DeadlineExceeded", "Job was active longer than specified deadline");
                } else {
                    c.controller.queue().addAfter(key, left);
                }
            }
        }
        if (indexed && completions != null) {
            prevSucceededIndexes = IndexSet.parse(status().path("completedIndexes").asText(""), completions);
            List<Integer> fresh = new ArrayList<>();
            for (ObjectNode p : pods) {
                int ix = JobPods.index(p);
                if (JobPods.phase(p).equals("Succeeded") && validIndex(ix) && JobController.hasTrackingFinalizer(p)) {
                    fresh.add(ix);
                }
            }
            succeededIndexes = prevSucceededIndexes.with(fresh);
            succeeded = succeededIndexes.total();
            if (finished == null) {
                JobPolicies.matchSuccess(spec.path("successPolicy"), completions, succeededIndexes).ifPresent(
                        m -> finished = new Cond("SuccessCriteriaMet", "SuccessPolicy", m));
            }
        }
    }

    /** kube's {@code pastBackoffLimitOnFailure}: restarts of Pods restarted in place (restartPolicy OnFailure). */
    private boolean pastBackoffLimitOnFailure() {
        if (!spec.path("template").path("spec").path("restartPolicy").asText().equals("OnFailure")) {
            return false;
        }
        int restarts = 0;
        for (ObjectNode p : pods) {
            if (JobPods.phase(p).equals("Running") || JobPods.phase(p).equals("Pending")) {
                for (String list : new String[] {"initContainerStatuses", "containerStatuses"}) {
                    for (JsonNode s : p.path("status").path(list)) {
                        restarts += s.path("restartCount").asInt(0);
                    }
                }
            }
        }
        int limit = spec.path("backoffLimit").asInt(6);
        return limit == 0 ? restarts > 0 : restarts >= limit;
    }

    JsonNode condition(String type) {
        for (JsonNode cond : status().path("conditions")) {
            if (cond.path("type").asText().equals(type)) {
                return cond;
            }
        }
        return null;
    }

    /** kube's {@code ensureJobConditionStatus}: whether the conditions changed. */
    boolean ensureCondition(String type, String status, String reason, String message) {
        ObjectNode cond = io.kapi.machinery.Json.object();
        cond.put("type", type);
        cond.put("status", status);
        cond.put("lastProbeTime", ObjectMeta.format(now));
        cond.put("lastTransitionTime", ObjectMeta.format(now));
        if (!reason.isEmpty()) {
            cond.put("reason", reason);
        }
        if (!message.isEmpty()) {
            cond.put("message", message);
        }
        ArrayNode list = status().withArray("conditions");
        for (int i = 0; i < list.size(); i++) {
            JsonNode old = list.get(i);
            if (old.path("type").asText().equals(type)) {
                if (old.path("status").asText().equals(status) && old.path("reason").asText("").equals(reason)
                        && old.path("message").asText("").equals(message)) {
                    return false;
                }
                list.set(i, cond);
                return true;
            }
        }
        if (status.equals("False")) {
            if (list.isEmpty()) {
                status().remove("conditions");
            }
            return false;
        }
        list.add(cond);
        return true;
    }

    /** The Suspended condition and its events, when manageJob ran. */
    private boolean suspendCondition() {
        if (suspended()) {
            boolean changed = ensureCondition("Suspended", "True", "JobSuspended", "Job suspended");
            if (changed) {
                c.events.normal(job, "Suspended", "Job suspended");
            }
            return changed;
        }
        boolean changed = ensureCondition("Suspended", "False", "JobResumed", "Job resumed");
        if (changed) {
            c.events.normal(job, "Resumed", "Job resumed");
            status().put("startTime", ObjectMeta.format(now)); // the deadline counts from the resumption
        }
        return changed;
    }

    /** kube's {@code manageJob}: the number of active Pods after creating or deleting. */
    private int manage() throws InterruptedException {
        int activeCount = active.size();
        if (suspended()) {
            List<ObjectNode> victims = JobPods.forRemoval(active, completions, indexed, activeCount);
            c.expectations.expectDeletions(key, victims.stream().map(p -> ObjectMeta.of(p).name()).toList());
            int[] deleted = delete(victims, true);
            terminating += deleted[1];
            ready -= deleted[0];
            return activeCount - deleted[1];
        }
        int want;
        if (completions == null) {
            want = succeeded > 0 ? activeCount : parallelism;
        } else {
            want = Math.max(0, Math.min(completions - succeeded, parallelism));
        }
        List<ObjectNode> victims = JobPods.forRemoval(active, completions, indexed, Math.max(0, activeCount - want));
        if (victims.size() > MAX_PER_SYNC) {
            victims = victims.subList(0, MAX_PER_SYNC);
        }
        if (!victims.isEmpty()) {
            c.expectations.expectDeletions(key, victims.stream().map(p -> ObjectMeta.of(p).name()).toList());
            int[] deleted = delete(victims, true);
            terminating += deleted[1];
            ready -= deleted[0];
            return activeCount - deleted[1];
        }
        int diff = want - (onlyReplaceFailed() ? terminating : 0) - activeCount;
        if (diff <= 0) {
            return activeCount;
        }
        Duration wait = newBackoff.remaining(now);
        if (wait.isPositive()) {
            c.controller.queue().addAfter(key, wait.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : wait);
            return 0; // as kube's manageJob reports while backing off
        }
        diff = Math.min(diff, MAX_PER_SYNC);
        List<Integer> indexes = new ArrayList<>();
        if (indexed) {
            indexes = pendingIndexes(diff);
            diff = indexes.size();
        }
        return activeCount + create(diff, indexes);
    }

    /** kube's {@code firstPendingIndexes}: the lowest indexes neither succeeded nor active. */
    private List<Integer> pendingIndexes(int count) {
        List<Integer> busy = new ArrayList<>();
        active.forEach(p -> busy.add(JobPods.index(p)));
        if (spec.path("podReplacementPolicy").asText("").equals("Failed")) {
            pods.stream().filter(JobPods::terminatingPod).forEach(p -> busy.add(JobPods.index(p)));
        }
        IndexSet nonPending = succeededIndexes.with(busy);
        List<Integer> result = new ArrayList<>();
        for (int i = 0; i < completions && result.size() < count; i++) {
            if (!nonPending.has(i)) {
                result.add(i);
            }
        }
        return result;
    }

    /**
     * Deletes {@code victims} in parallel (kube's {@code deleteJobPods} when {@code dropFinalizer}, which
     * first removes the tracking finalizer, else {@code deleteActivePods}); returns {ready deleted, deleted}.
     */
    private int[] delete(List<ObjectNode> victims, boolean dropFinalizer) throws InterruptedException {
        AtomicInteger deleted = new AtomicInteger();
        AtomicInteger deletedReady = new AtomicInteger();
        AtomicReference<ApiException> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (ObjectNode pod : victims) {
            threads.add(Thread.ofVirtual().start(() -> {
                ObjectMeta meta = ObjectMeta.of(pod);
                try {
                    if (dropFinalizer && JobController.hasTrackingFinalizer(pod)) {
                        c.removeFinalizer(pod);
                    }
                    c.pods.delete(meta.namespace(), meta.name(), DeleteOptions.DEFAULT);
                    c.events.normal(job, "SuccessfulDelete", "Deleted pod: " + meta.name());
                    deleted.incrementAndGet();
                } catch (ApiException e) {
                    if (dropFinalizer) {
                        c.expectations.deletionObserved(key, meta.name());
                    }
                    if (e.reason() == StatusReason.NOT_FOUND) {
                        deleted.incrementAndGet();
                    } else {
                        c.events.warning(job, "FailedDelete", "Error deleting: " + e.getMessage());
                        failure.compareAndSet(null, e);
                    }
                }
                if (Pods.ready(pod)) {
                    deletedReady.incrementAndGet();
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null && dropFinalizer) {
            throw failure.get();
        }
        return new int[] {deletedReady.get(), deleted.get()};
    }

    /** kube's slow-start creation (batches 1, 2, 4, ...); the number created. */
    private int create(int count, List<Integer> indexes) throws InterruptedException {
        c.expectations.expectCreations(key, count);
        ObjectNode template = spec.path("template").deepCopy();
        if (indexed) {
            JobPods.addIndexEnv(template);
        }
        ArrayNode finalizers = template.with("metadata").withArray("finalizers");
        boolean present = false;
        for (JsonNode f : finalizers) {
            present |= f.asText().equals(JobController.TRACKING_FINALIZER);
        }
        if (!present) {
            finalizers.add(JobController.TRACKING_FINALIZER);
        }
        AtomicInteger created = new AtomicInteger();
        AtomicReference<ApiException> failure = new AtomicReference<>();
        int done = 0;
        for (int batch = 1; done < count; batch = Math.min(2 * batch, count - done)) {
            int size = Math.min(batch, count - done);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                int ix = indexes.isEmpty() ? -1 : indexes.get(done + i);
                threads.add(Thread.ofVirtual().start(() -> createOne(template, ix, created, failure)));
            }
            for (Thread t : threads) {
                t.join();
            }
            done += size;
            if (failure.get() != null) {
                break;
            }
        }
        for (int i = created.get(); i < count; i++) {
            c.expectations.creationObserved(key); // failed or skipped: never to be seen
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        return created.get();
    }

    private void createOne(ObjectNode template, int ix, AtomicInteger created, AtomicReference<ApiException> failure) {
        ObjectNode pod = Pods.fromTemplate(template, job);
        if (ix >= 0) {
            JobPods.index(pod, ObjectMeta.of(job).name(), ix);
        }
        try {
            ObjectNode made = c.pods.create(ObjectMeta.of(job).namespace(), pod);
            created.incrementAndGet();
            c.events.normal(job, "SuccessfulCreate", "Created pod: " + ObjectMeta.of(made).name());
        } catch (ApiException e) {
            if (e.getMessage() != null && e.getMessage().contains("because it is being terminated")) {
                return; // the namespace goes: every later creation would fail the same way
            }
            c.events.warning(job, "FailedCreate", "Error creating: " + e.getMessage());
            failure.compareAndSet(null, e);
        }
    }

    /**
     * kube's {@code trackJobStatusAndRemoveFinalizers}: ended Pods into {@code uncountedTerminatedPods} (at most
     * {@link #MAX_UNCOUNTED} per sync), that written, their finalizers removed, then the counters; the
     * interim condition (FailureTarget, SuccessCriteriaMet) written before, the terminal one after.
     */
    private void track(boolean needsFlush) throws InterruptedException {
        List<ObjectNode> ordered = new ArrayList<>(pods);
        if (indexed) {
            ordered.sort(Comparator.comparingInt(JobPods::index));
        }
        Set<String> withFinalizer = new HashSet<>();
        for (ObjectNode p : ordered) {
            if (JobController.hasTrackingFinalizer(p) && !expectedRemovals.contains(ObjectMeta.of(p).uid())) {
                withFinalizer.add(ObjectMeta.of(p).uid());
            }
        }
        needsFlush |= countRemoved(withFinalizer);
        List<ObjectNode> toRemove = new ArrayList<>();
        List<Integer> newIndexes = new ArrayList<>();
        ArrayNode succeededUids = status().with("uncountedTerminatedPods").withArray("succeeded");
        ArrayNode failedUids = status().with("uncountedTerminatedPods").withArray("failed");
        boolean reachedMax = false;
        for (ObjectNode p : ordered) {
            String uid = ObjectMeta.of(p).uid();
            if (!JobController.hasTrackingFinalizer(p) || expectedRemovals.contains(uid)) {
                continue;
            }
            boolean podFailed = failed(p);
            if (!Pods.terminating(job) && finished == null && !JobPods.phase(p).equals("Succeeded") && !podFailed) {
                continue; // kube's canRemoveFinalizer
            }
            toRemove.add(p);
            if (JobPods.phase(p).equals("Succeeded") && !uncountedFailed.contains(uid)) {
                if (indexed) {
                    int ix = JobPods.index(p);
                    if (validIndex(ix) && !prevSucceededIndexes.has(ix)) {
                        newIndexes.add(ix);
                        needsFlush = true;
                    }
                } else if (!uncountedSucceeded.contains(uid)) {
                    succeededUids.add(uid);
                    needsFlush = true;
                }
            } else if (podFailed || (finished != null && !finished.type().equals("SuccessCriteriaMet"))) {
                if (!uncountedFailed.contains(uid) && (!indexed || validIndex(JobPods.index(p)))
                        && JobPolicies.matchFailure(spec.path("podFailurePolicy"), p).countFailed()) {
                    failedUids.add(uid);
                    needsFlush = true;
                }
            }
            if (newIndexes.size() + succeededUids.size() + failedUids.size() >= MAX_UNCOUNTED) {
                reachedMax = true;
                break;
            }
        }
        if (indexed) {
            succeededIndexes = succeededIndexes.with(newIndexes);
            String text = succeededIndexes.toString();
            needsFlush |= !text.equals(status().path("completedIndexes").asText(""));
            putOrOmit("succeeded", succeededIndexes.total());
            if (text.isEmpty()) {
                status().remove("completedIndexes");
            } else {
                status().put("completedIndexes", text);
            }
        }
        if (finished != null && finished.type().equals("FailureTarget")) {
            ensureCondition("FailureTarget", "True", finished.reason(), finished.message());
            needsFlush = true;
            finished = new Cond("Failed", finished.reason(), finished.message());
        }
        if (finished != null && finished.type().equals("SuccessCriteriaMet")) {
            JsonNode met = condition("SuccessCriteriaMet");
            if (met == null || !met.path("status").asText().equals("True")) {
                ensureCondition("SuccessCriteriaMet", "True", finished.reason(), finished.message());
                needsFlush = true;
            }
            finished = new Cond("Complete", finished.reason(), finished.message());
        }
        needsFlush = flushAndRemoveFinalizers(toRemove, withFinalizer, needsFlush);
        boolean jobFinished = !reachedMax && enactFinished();
        if (jobFinished || needsFlush) {
            writeStatus();
            if (jobFinished) {
                if (finished.type().equals("Complete")) {
                    if (completions != null && status().path("succeeded").asInt(0) > completions) {
                        c.events.warning(job, "TooManySucceededPods",
                                "Too many succeeded pods running after completion count reached");
                    }
                    c.events.normal(job, "Completed", "Job completed");
                } else {
                    c.events.warning(job, finished.reason(), finished.message());
                }
            }
        }
    }

    /** kube's {@code flushUncountedAndRemoveFinalizers}; whether changes are left to write. */
    private boolean flushAndRemoveFinalizers(List<ObjectNode> toRemove, Set<String> withFinalizer, boolean needsFlush)
            throws InterruptedException {
        if (needsFlush) {
            writeStatus();
            c.backoffs.put(key, newBackoff);
            needsFlush = false;
        }
        ApiException failure = null;
        if (!toRemove.isEmpty()) {
            Set<String> expected = c.removingFinalizers.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet());
            toRemove.forEach(p -> expected.add(ObjectMeta.of(p).uid()));
            AtomicReference<ApiException> error = new AtomicReference<>();
            Set<String> removed = ConcurrentHashMap.newKeySet();
            List<Thread> threads = new ArrayList<>();
            for (ObjectNode p : toRemove) {
                threads.add(Thread.ofVirtual().start(() -> {
                    try {
                        c.removeFinalizer(p);
                        removed.add(ObjectMeta.of(p).uid());
                    } catch (ApiException e) {
                        expected.remove(ObjectMeta.of(p).uid());
                        error.compareAndSet(null, e);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            withFinalizer.removeAll(removed);
            failure = error.get();
        }
        needsFlush |= countRemoved(withFinalizer);
        if (failure != null) {
            if (needsFlush) {
                writeStatus();
            }
            throw failure;
        }
        return needsFlush;
    }

    /** kube's {@code cleanUncountedPodsWithoutFinalizers}: uncounted Pods whose finalizer is gone are counted. */
    private boolean countRemoved(Set<String> withFinalizer) {
        boolean changed = false;
        ObjectNode uncounted = status().with("uncountedTerminatedPods");
        for (String field : new String[] {"succeeded", "failed"}) {
            ArrayNode kept = io.kapi.machinery.Json.NODES.arrayNode();
            int gone = 0;
            for (JsonNode uid : uncounted.path(field)) {
                if (withFinalizer.contains(uid.asText())) {
                    kept.add(uid);
                } else {
                    gone++;
                }
            }
            if (gone > 0) {
                changed = true;
                putOrOmit(field, status().path(field).asInt(0) + gone);
            }
            if (kept.isEmpty()) {
                uncounted.remove(field);
            } else {
                uncounted.set(field, kept);
            }
        }
        return changed;
    }

    /** kube's {@code enactJobFinished}: the terminal condition once nothing is uncounted or terminating. */
    private boolean enactFinished() {
        if (finished == null) {
            return false;
        }
        JsonNode uncounted = status().path("uncountedTerminatedPods");
        if (uncounted.path("succeeded").size() + uncounted.path("failed").size() > 0 || terminating > 0) {
            return false;
        }
        ensureCondition(finished.type(), "True", finished.reason(), finished.message());
        if (finished.type().equals("Complete")) {
            status().put("completionTime", ObjectMeta.format(now));
        }
        return true;
    }

    private void putOrOmit(String field, int value) {
        if (value == 0) {
            status().remove(field);
        } else {
            status().put(field, value);
        }
    }

    private void writeStatus() {
        ObjectNode uncounted = status().with("uncountedTerminatedPods");
        for (String field : new String[] {"succeeded", "failed"}) {
            if (uncounted.path(field).isEmpty()) {
                uncounted.remove(field);
            }
        }
        job = JobController.typed(c.jobs.update(job, "status"));
    }
}
