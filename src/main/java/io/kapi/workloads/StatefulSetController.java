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
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.registry.DeleteOptions;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube-controller-manager's statefulset controller ({@code pkg/controller/statefulset}, 1.34): a set of
 * {@code replicas} Pods {@code <set>-<ordinal>} from {@code spec.ordinals.start} up ({@link StatefulPods}),
 * each with its claims from {@code volumeClaimTemplates} (created as objects first; they stay Pending).
 * With {@code podManagementPolicy} OrderedReady a sync creates one Pod and waits for it to be Running and
 * Ready (and available for {@code minReadySeconds}) before the next, and scales down one at a time from the
 * highest ordinal; Parallel does all at once. The template's versions are ControllerRevisions
 * ({@link ControllerHistory}): Pods carry their revision's name in {@code controller-revision-hash}.
 * RollingUpdate deletes, from the highest ordinal down to {@code partition}, one Pod at a time not at the
 * update revision, waiting for each to come back healthy; OnDelete only makes new Pods at it. The status
 * follows kube's counts; events are kube's ({@code create Pod web-0 in StatefulSet web successful}).
 */
final class StatefulSetController implements WorkloadController {

    private static final System.Logger LOG = System.getLogger(StatefulSetController.class.getName());
    static final GroupVersionResource SETS = new GroupVersionResource("apps", "v1", "statefulsets");
    static final GroupVersionResource CLAIMS = new GroupVersionResource("", "v1", "persistentvolumeclaims");
    private static final String KIND = "StatefulSet";
    /** kube's {@code --concurrent-statefulset-syncs} default. */
    private static final int WORKERS = 5;

    private final ResourceClient sets;
    private final ResourceClient pods;
    private final ResourceClient claims;
    private final Informer setInformer;
    private final Informer podInformer;
    private final Informer claimInformer;
    private final ControllerHistory history;
    private final ControllerRefs refs;
    private final EventRecorder events;
    private final QueueController controller;
    private final Clock clock;

    StatefulSetController(LocalClient client, SharedInformers informers, Clock clock) {
        this.clock = clock;
        this.sets = client.resource(SETS);
        this.pods = client.resource(ReplicaSetController.PODS);
        this.claims = client.resource(CLAIMS);
        this.setInformer = informers.informer(SETS);
        this.podInformer = informers.informer(ReplicaSetController.PODS);
        this.claimInformer = informers.informer(CLAIMS);
        this.history = new ControllerHistory(client.resource(ControllerHistory.REVISIONS),
                informers.informer(ControllerHistory.REVISIONS), sets);
        this.refs = new ControllerRefs(sets, pods);
        this.events = new EventRecorder(client.resource("", "v1", "events"), "statefulset-controller", clock);
        this.controller = new QueueController("statefulset-controller", WORKERS, this::sync);
        setInformer.addHandler(controller.enqueueing());
        podInformer.addHandler(EventHandler.onAnyChange(this::podChanged));
    }

    @Override
    public String name() {
        return "start-kapi-statefulset-controller";
    }

    @Override
    public void run() {
        controller.start();
    }

    @Override
    public void close() {
        controller.close();
    }

    /** A Pod's set, or for an orphan every set whose selector matches it. */
    private void podChanged(ObjectNode pod) {
        String namespace = ObjectMeta.of(pod).namespace();
        var ref = Pods.controllerOf(pod);
        if (ref.isPresent()) {
            if (ref.get().path("kind").asText().equals(KIND)) {
                controller.queue().add(namespace + "/" + ref.get().path("name").asText());
            }
            return;
        }
        for (ObjectNode set : setInformer.list(namespace)) {
            try {
                if (LabelSelector.fromObject(set.path("spec").path("selector")).matches(pod.path("metadata").path("labels"))) {
                    controller.enqueue(set);
                }
            } catch (IllegalArgumentException e) {
                // an invalid selector matches nothing
            }
        }
    }

    private void sync(String key) {
        ObjectNode set = setInformer.get(QueueController.namespace(key), QueueController.name(key)).orElse(null);
        if (set == null) {
            return;
        }
        set = typed(set);
        LabelSelector selector;
        try {
            selector = LabelSelector.fromObject(set.path("spec").path("selector"));
        } catch (IllegalArgumentException e) {
            return;
        }
        List<ObjectNode> owned = ownedPods(set, selector);
        Revisions revisions = revisions(set, selector);
        int minReady = set.path("spec").path("minReadySeconds").asInt(0);
        Status status = new Status(revisions, minReady);
        owned.forEach(status::count);
        if (!Pods.terminating(set)) {
            new Round(set, revisions, status, owned).run();
        }
        updateStatus(set, status, revisions);
        history.truncate(history.owned(set, selector), live(revisions, owned),
                set.path("spec").path("revisionHistoryLimit").asInt(10));
        if (minReady > 0 && status.ready > status.available) {
            controller.queue().addAfter(key, Duration.ofSeconds(minReady));
        }
    }

    private static ObjectNode typed(ObjectNode set) {
        if (set.hasNonNull("kind") && set.hasNonNull("apiVersion")) {
            return set;
        }
        ObjectNode copy = set.deepCopy();
        copy.put("apiVersion", "apps/v1");
        copy.put("kind", KIND);
        return copy;
    }

    /**
     * kube's {@code getPodsForStatefulSet}: the Pods the set controls once claimed (orphans it selects adopted,
     * those it no longer selects released), of those whose names make them its members.
     */
    private List<ObjectNode> ownedPods(ObjectNode set, LabelSelector selector) {
        String uid = ObjectMeta.of(set).uid();
        String name = ObjectMeta.of(set).name();
        List<ObjectNode> candidates = podInformer.list(ObjectMeta.of(set).namespace()).stream()
                .filter(p -> StatefulPods.ordinal(p, name) >= 0 || Pods.controlledBy(p, KIND, uid)).toList();
        return refs.claim(set, selector, candidates).stream().filter(p -> StatefulPods.ordinal(p, name) >= 0).toList();
    }

    private static Set<String> live(Revisions revisions, List<ObjectNode> owned) {
        Set<String> live = new HashSet<>();
        live.add(ObjectMeta.of(revisions.current()).name());
        live.add(ObjectMeta.of(revisions.update()).name());
        owned.forEach(p -> live.add(StatefulPods.revision(p)));
        return live;
    }

    /** The current and update revisions and the collision count after making them. */
    record Revisions(ObjectNode current, ObjectNode update, int collisionCount) {
    }

    /** kube's {@code getStatefulSetRevisions}. */
    private Revisions revisions(ObjectNode set, LabelSelector selector) {
        List<ObjectNode> owned = history.owned(set, selector);
        int[] collisions = {set.path("status").path("collisionCount").asInt(0)};
        ObjectNode wanted = ControllerHistory.newRevision(set, ControllerHistory.patchOf(set),
                ControllerHistory.nextRevision(owned), collisions[0]);
        if (set.path("metadata").path("annotations").isObject()) { // kube's newRevision copies the set's annotations
            wanted.with("metadata").set("annotations", set.path("metadata").path("annotations").deepCopy());
        }
        List<ObjectNode> equal = ControllerHistory.equalTo(owned, wanted);
        ObjectNode update;
        if (!equal.isEmpty() && ObjectMeta.of(equal.getLast()).name().equals(ObjectMeta.of(owned.getLast()).name())) {
            update = equal.getLast();
        } else if (!equal.isEmpty()) {
            update = history.renumber(equal.getLast(), wanted.path("revision").asLong());
        } else {
            update = history.create(set, wanted, collisions);
        }
        String currentName = set.path("status").path("currentRevision").asText("");
        ObjectNode current = owned.stream().filter(r -> ObjectMeta.of(r).name().equals(currentName)).findFirst()
                .orElse(update);
        return new Revisions(current, update, collisions[0]);
    }

    /** kube's status counts over the set's Pods. */
    private final class Status {
        final Revisions revisions;
        final long minReadySeconds;
        int replicas;
        int ready;
        int available;
        int current;
        int updated;

        Status(Revisions revisions, long minReadySeconds) {
            this.revisions = revisions;
            this.minReadySeconds = minReadySeconds;
        }

        void count(JsonNode pod) {
            add(pod, 1);
        }

        void add(JsonNode pod, int sign) {
            if (StatefulPods.created(pod)) {
                replicas += sign;
            }
            if (StatefulPods.runningAndReady(pod)) {
                ready += sign;
                if (Pods.available(pod, minReadySeconds, clock.instant())) {
                    available += sign;
                }
            }
            if (StatefulPods.created(pod) && !Pods.terminating(pod)) {
                String revision = StatefulPods.revision(pod);
                if (revision.equals(ObjectMeta.of(revisions.current()).name())) {
                    current += sign;
                }
                if (revision.equals(ObjectMeta.of(revisions.update()).name())) {
                    updated += sign;
                }
            }
        }
    }

    /** One pass of kube's {@code updateStatefulSet}: stops where OrderedReady must wait. */
    private final class Round {
        private final ObjectNode set;
        private final Revisions revisions;
        private final Status status;
        private final List<ObjectNode> owned;
        private final boolean monotonic;
        private final int start;
        private final int replicas;

        Round(ObjectNode set, Revisions revisions, Status status, List<ObjectNode> owned) {
            this.set = set;
            this.revisions = revisions;
            this.status = status;
            this.owned = owned;
            this.monotonic = !set.path("spec").path("podManagementPolicy").asText("OrderedReady").equals("Parallel");
            this.start = StatefulPods.start(set);
            this.replicas = set.path("spec").path("replicas").asInt(1);
        }

        void run() {
            ObjectNode[] slots = new ObjectNode[replicas];
            List<ObjectNode> condemned = new ArrayList<>();
            String name = ObjectMeta.of(set).name();
            for (ObjectNode pod : owned) {
                int ord = StatefulPods.ordinal(pod, name);
                if (ord >= start && ord < start + replicas) {
                    slots[ord - start] = pod;
                } else {
                    condemned.add(pod);
                }
            }
            condemned.sort(Comparator.comparingInt((ObjectNode p) -> StatefulPods.ordinal(p, name)).reversed());
            if (!replicasOk(slots) || !condemnedOk(condemned, slots)) {
                return;
            }
            updateClaimOwners(owned);
            if (set.path("spec").path("updateStrategy").path("type").asText("RollingUpdate").equals("RollingUpdate")) {
                rollingUpdate(slots);
            }
        }

        /** kube's pass over the replicas in ordinal order; false where OrderedReady has to wait. */
        private boolean replicasOk(ObjectNode[] slots) {
            for (int i = 0; i < slots.length; i++) {
                ObjectNode pod = slots[i];
                if (pod != null && StatefulPods.failedOrSucceeded(pod) && !Pods.terminating(pod)) {
                    delete(pod);
                    status.add(pod, -1);
                    pod = null;
                }
                if (pod == null) {
                    ObjectNode made = newVersionedPod(start + i);
                    create(made);
                    if (monotonic) {
                        return false;
                    }
                    continue;
                }
                if (monotonic && (Pods.terminating(pod) || !StatefulPods.runningAndReady(pod)
                        || !Pods.available(pod, status.minReadySeconds, clock.instant()))) {
                    LOG.log(Level.DEBUG, "StatefulSet {0} is waiting for Pod {1} to be Running and Ready",
                            ObjectMeta.of(set).name(), ObjectMeta.of(pod).name());
                    return false;
                }
                if (!pod.path("metadata").path("labels").path(StatefulPods.POD_NAME_LABEL).asText("")
                        .equals(ObjectMeta.of(pod).name())) {
                    fixIdentity(pod, start + i);
                }
            }
            return true;
        }

        /** {@code UpdateStatefulPod} of a Pod whose identity does not match (one adopted): its identity labels set. */
        private void fixIdentity(ObjectNode pod, int ordinal) {
            ObjectNode changed = pod.deepCopy();
            changed.put("apiVersion", "v1");
            changed.put("kind", "Pod");
            ObjectNode labels = changed.with("metadata").with("labels");
            labels.put(StatefulPods.POD_NAME_LABEL, ObjectMeta.of(pod).name());
            labels.put(StatefulPods.POD_INDEX_LABEL, Integer.toString(ordinal));
            try {
                pods.update(changed);
                podEvent("update", pod, null);
            } catch (ApiException e) {
                if (e.reason() != StatusReason.NOT_FOUND) {
                    podEvent("update", pod, e);
                    throw e;
                }
            }
        }

        /** kube's pass over the Pods beyond the replicas, highest ordinal first. */
        private boolean condemnedOk(List<ObjectNode> condemned, ObjectNode[] slots) {
            JsonNode firstUnhealthy = firstUnhealthy(slots, condemned);
            for (ObjectNode pod : condemned) {
                if (Pods.terminating(pod)) {
                    if (monotonic) {
                        return false;
                    }
                    continue;
                }
                if (monotonic && !StatefulPods.runningAndReady(pod) && pod != firstUnhealthy) {
                    return false;
                }
                updateClaimOwners(List.of(pod));
                delete(pod);
                if (monotonic) {
                    return false;
                }
            }
            return true;
        }

        private JsonNode firstUnhealthy(ObjectNode[] slots, List<ObjectNode> condemned) {
            for (ObjectNode pod : slots) {
                if (pod != null && (!StatefulPods.runningAndReady(pod) || Pods.terminating(pod))) {
                    return pod;
                }
            }
            List<ObjectNode> ascending = new ArrayList<>(condemned);
            java.util.Collections.reverse(ascending);
            for (ObjectNode pod : ascending) {
                if (!StatefulPods.runningAndReady(pod) || Pods.terminating(pod)) {
                    return pod;
                }
            }
            return null;
        }

        /** From the highest ordinal down to the partition: one stale Pod deleted, or wait for an unhealthy one. */
        private void rollingUpdate(ObjectNode[] slots) {
            int partition = set.path("spec").path("updateStrategy").path("rollingUpdate").path("partition").asInt(0);
            String update = ObjectMeta.of(revisions.update()).name();
            for (int i = slots.length - 1; i >= Math.max(0, partition - start); i--) {
                ObjectNode pod = slots[i];
                if (pod == null) {
                    return;
                }
                if (!StatefulPods.revision(pod).equals(update) && !Pods.terminating(pod)) {
                    delete(pod);
                    status.add(pod, -1);
                    return;
                }
                if (Pods.terminating(pod) || !StatefulPods.runningAndReady(pod)
                        || !Pods.available(pod, status.minReadySeconds, clock.instant())) {
                    return;
                }
            }
        }

        /** {@code newVersionedStatefulSetPod}: below the partition at the current revision, else the update's. */
        private ObjectNode newVersionedPod(int ordinal) {
            JsonNode strategy = set.path("spec").path("updateStrategy");
            boolean rolling = strategy.path("type").asText("RollingUpdate").equals("RollingUpdate");
            boolean current = rolling && (strategy.has("rollingUpdate")
                    ? ordinal < start + strategy.path("rollingUpdate").path("partition").asInt(0)
                    : ordinal < start + set.path("status").path("currentReplicas").asInt(0));
            ObjectNode revision = current ? revisions.current() : revisions.update();
            return StatefulPods.newPod(StatefulPods.applyRevision(set, revision), ordinal, ObjectMeta.of(revision).name());
        }

        /** {@code CreateStatefulPod}: its claims first, then the Pod; one already there is left to the next sync. */
        private void create(ObjectNode pod) {
            int ordinal = StatefulPods.ordinal(pod, ObjectMeta.of(set).name());
            for (ObjectNode claim : StatefulPods.claims(set, ordinal)) {
                ObjectMeta meta = ObjectMeta.of(claim);
                if (claimInformer.get(meta.namespace(), meta.name()).isPresent()) {
                    continue;
                }
                ArrayNode refs = StatefulPods.retentionRefs(claim, set, pod, true);
                if (!refs.isEmpty()) {
                    claim.with("metadata").set("ownerReferences", refs);
                }
                try {
                    claims.create(meta.namespace(), claim);
                    events.normal(set, "SuccessfulCreate", "create Claim %s Pod %s in StatefulSet %s success"
                            .formatted(meta.name(), ObjectMeta.of(pod).name(), ObjectMeta.of(set).name()));
                } catch (ApiException e) {
                    if (e.reason() != StatusReason.ALREADY_EXISTS) {
                        events.warning(set, "FailedCreate", "create Claim %s for Pod %s in StatefulSet %s failed error: %s"
                                .formatted(meta.name(), ObjectMeta.of(pod).name(), ObjectMeta.of(set).name(), e.getMessage()));
                        throw e;
                    }
                }
            }
            try {
                ObjectNode created = pods.create(ObjectMeta.of(set).namespace(), pod);
                podEvent("create", pod, null);
                status.count(created);
            } catch (ApiException e) {
                if (e.reason() != StatusReason.ALREADY_EXISTS) {
                    podEvent("create", pod, e);
                    throw e;
                }
            }
        }

        private void delete(ObjectNode pod) {
            ObjectMeta meta = ObjectMeta.of(pod);
            try {
                pods.delete(meta.namespace(), meta.name(), new DeleteOptions(meta.uid(), null, false, null, null));
                podEvent("delete", pod, null);
            } catch (ApiException e) {
                if (e.reason() != StatusReason.NOT_FOUND) {
                    podEvent("delete", pod, e);
                    throw e;
                }
            }
        }

        /** kube's {@code recordPodEvent}. */
        private void podEvent(String verb, ObjectNode pod, ApiException failure) {
            String upper = Character.toUpperCase(verb.charAt(0)) + verb.substring(1);
            String pod1 = ObjectMeta.of(pod).name();
            String set1 = ObjectMeta.of(set).name();
            if (failure == null) {
                events.normal(set, "Successful" + upper, "%s Pod %s in StatefulSet %s successful".formatted(verb, pod1, set1));
            } else {
                events.warning(set, "Failed" + upper, "%s Pod %s in StatefulSet %s failed error: %s"
                        .formatted(verb, pod1, set1, failure.getMessage()));
            }
        }

        /** The claims of {@code pods} given the owners the retention policy wants ({@code UpdatePodClaimForRetentionPolicy}). */
        private void updateClaimOwners(List<ObjectNode> pods) {
            String name = ObjectMeta.of(set).name();
            for (ObjectNode pod : pods) {
                int ordinal = StatefulPods.ordinal(pod, name);
                boolean inRange = ordinal >= start && ordinal < start + replicas;
                for (ObjectNode wanted : StatefulPods.claims(set, ordinal)) {
                    ObjectMeta meta = ObjectMeta.of(wanted);
                    ObjectNode claim = claimInformer.get(meta.namespace(), meta.name()).orElse(null);
                    if (claim == null) {
                        continue;
                    }
                    ArrayNode refs = StatefulPods.retentionRefs(claim, set, pod, inRange);
                    JsonNode had = claim.path("metadata").path("ownerReferences");
                    if (refs.equals(had) || (refs.isEmpty() && had.isMissingNode())) {
                        continue;
                    }
                    // an update, as kube's: the controller's role may update claims, not patch them
                    ObjectNode changed = claim.deepCopy();
                    changed.put("apiVersion", "v1");
                    changed.put("kind", "PersistentVolumeClaim");
                    if (refs.isEmpty()) {
                        changed.with("metadata").remove("ownerReferences");
                    } else {
                        changed.with("metadata").set("ownerReferences", refs);
                    }
                    try {
                        claims.update(changed);
                    } catch (ApiException e) {
                        if (e.code() != 404) { // a conflict retries the sync: no Pod goes before its claims are right
                            throw e;
                        }
                    }
                }
            }
        }
    }

    /** kube's {@code updateStatefulSetStatus} with {@code completeRollingUpdate}; written only when it changed. */
    private void updateStatus(ObjectNode set, Status s, Revisions revisions) {
        String currentRevision = ObjectMeta.of(revisions.current()).name();
        String updateRevision = ObjectMeta.of(revisions.update()).name();
        int current = s.current;
        int spec = set.path("spec").path("replicas").asInt(1);
        boolean rolling = set.path("spec").path("updateStrategy").path("type").asText("RollingUpdate").equals("RollingUpdate");
        if (rolling && s.updated == spec && s.ready == spec && s.replicas == spec) {
            current = s.updated;
            currentRevision = updateRevision;
        }
        ObjectNode updated = set.deepCopy();
        ObjectNode status = updated.putObject("status");
        putOrOmit(status, "observedGeneration", ObjectMeta.of(set).generation());
        status.put("replicas", s.replicas);
        putOrOmit(status, "readyReplicas", s.ready);
        putOrOmit(status, "currentReplicas", current);
        putOrOmit(status, "updatedReplicas", s.updated);
        status.put("currentRevision", currentRevision);
        status.put("updateRevision", updateRevision);
        status.put("collisionCount", revisions.collisionCount());
        status.put("availableReplicas", s.available);
        if (set.path("status").has("conditions")) {
            status.set("conditions", set.path("status").path("conditions"));
        }
        // compared as JSON text: the stored 1 (an int node) and the computed 1L (a long node) are not equal() trees
        if (ControllerHistory.goJson(status).equals(ControllerHistory.goJson(set.path("status")))) {
            return;
        }
        sets.update(updated, "status");
    }

    private static void putOrOmit(ObjectNode status, String field, long value) {
        if (value != 0) {
            status.put(field, value);
        }
    }
}
