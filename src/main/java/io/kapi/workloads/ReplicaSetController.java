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
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.registry.DeleteOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * kube-controller-manager's replicaset controller (and, with {@link Kind#REPLICATION_CONTROLLERS}, its
 * replicationcontroller controller, the same code in kube too): each ReplicaSet has {@code spec.replicas}
 * active Pods made from its template, named {@code <name>-<random>} and controlled by it; orphan Pods its
 * selector matches are adopted, owned ones it no longer matches released. Creations go in kube's slow-start
 * batches (1, 2, 4, ...) of at most {@link #BURST} per sync, deletions take kube's preferred victims first
 * ({@link Pods#DELETE_FIRST}); {@link Expectations} keep a sync from acting again before the informer has
 * seen what the last one did, so it never over-creates. The status (replicas, fullyLabeledReplicas,
 * readyReplicas, availableReplicas, observedGeneration, the ReplicaFailure condition) is written through the
 * {@code status} subresource; events SuccessfulCreate, SuccessfulDelete, FailedCreate, FailedDelete are
 * worded as kube's. Everything goes through the API as the controller's service account.
 */
final class ReplicaSetController implements WorkloadController {

    /** The two kinds this controller runs for. */
    record Kind(GroupVersionResource gvr, String kind, String component, boolean mapSelector) {
        static final Kind REPLICA_SETS = new Kind(new GroupVersionResource("apps", "v1", "replicasets"), "ReplicaSet",
                "replicaset-controller", false);
        static final Kind REPLICATION_CONTROLLERS = new Kind(new GroupVersionResource("", "v1",
                "replicationcontrollers"), "ReplicationController", "replication-controller", true);
    }

    static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    /** kube's {@code BurstReplicas}: at most this many Pods created or deleted per sync. */
    static final int BURST = 500;
    /** kube's {@code --concurrent-replicaset-syncs} default. */
    private static final int WORKERS = 5;

    private final Kind kind;
    private final ResourceClient owners;
    private final ResourceClient pods;
    private final Informer ownerInformer;
    private final Informer podInformer;
    private final EventRecorder events;
    private final Expectations expectations = new Expectations();
    private final ControllerRefs refs;
    private final QueueController controller;
    private final Clock clock;

    ReplicaSetController(Kind kind, LocalClient client, SharedInformers informers, Clock clock) {
        this.kind = kind;
        this.clock = clock;
        this.owners = client.resource(kind.gvr());
        this.pods = client.resource(PODS);
        this.refs = new ControllerRefs(owners, pods);
        this.events = new EventRecorder(client.resource("", "v1", "events"), kind.component(), clock);
        this.ownerInformer = informers.informer(kind.gvr());
        this.podInformer = informers.informer(PODS);
        this.controller = new QueueController(kind.component(), WORKERS, this::sync);
        ownerInformer.addHandler(controller.enqueueing());
        podInformer.addHandler(new PodChanges());
    }

    @Override
    public String name() {
        return "start-kapi-" + kind.component();
    }

    @Override
    public void run() {
        controller.start();
    }

    @Override
    public void close() {
        controller.close();
    }

    private LabelSelector selector(JsonNode owner) {
        JsonNode s = owner.path("spec").path("selector");
        return kind.mapSelector() ? LabelSelector.fromSet(s) : LabelSelector.fromObject(s);
    }

    private void sync(String key) throws InterruptedException {
        String namespace = QueueController.namespace(key);
        ObjectNode owner = ownerInformer.get(namespace, QueueController.name(key)).orElse(null);
        if (owner == null) {
            expectations.forget(key);
            return;
        }
        owner = typed(owner);
        boolean needsSync = expectations.satisfied(key);
        LabelSelector selector;
        try {
            selector = selector(owner);
        } catch (IllegalArgumentException e) {
            return; // an invalid selector never syncs, as kube's
        }
        List<ObjectNode> owned = refs.claim(owner, selector,
                podInformer.list(namespace).stream().filter(Pods::active).toList());
        int replicas = owner.path("spec").path("replicas").asInt(1);
        ApiException failure = null;
        if (needsSync && !Pods.terminating(owner)) {
            failure = manage(owner, owned, replicas, key);
        }
        ObjectNode updated = updateStatus(owner, owned, failure, owned.size() - replicas);
        if (failure != null) {
            throw failure;
        }
        long minReady = owner.path("spec").path("minReadySeconds").asLong(0);
        JsonNode status = updated.path("status");
        if (minReady > 0 && status.path("readyReplicas").asInt(0) == replicas
                && status.path("availableReplicas").asInt(0) != replicas) {
            controller.queue().addAfter(key, Duration.ofSeconds(minReady));
        }
    }

    /** The objects of an informer lack apiVersion and kind when the list gave them without: set them. */
    private ObjectNode typed(ObjectNode owner) {
        if (owner.hasNonNull("kind") && owner.hasNonNull("apiVersion")) {
            return owner;
        }
        ObjectNode copy = owner.deepCopy();
        copy.put("apiVersion", kind.gvr().group().isEmpty() ? kind.gvr().version()
                : kind.gvr().group() + "/" + kind.gvr().version());
        copy.put("kind", kind.kind());
        return copy;
    }

    /** kube's {@code manageReplicas}: creates or deletes the difference; the first failure, or null. */
    private ApiException manage(ObjectNode owner, List<ObjectNode> owned, int replicas, String key)
            throws InterruptedException {
        int diff = owned.size() - replicas;
        if (diff < 0) {
            int n = Math.min(-diff, BURST);
            expectations.expectCreations(key, n);
            return createInBatches(owner, n, key);
        }
        if (diff > 0) {
            List<ObjectNode> victims = new ArrayList<>(owned);
            victims.sort(Pods.DELETE_FIRST);
            victims = victims.subList(0, Math.min(diff, BURST));
            expectations.expectDeletions(key, victims.stream().map(p -> ObjectMeta.of(p).name()).toList());
            return deleteAll(owner, victims, key);
        }
        return null;
    }

    /** kube's {@code slowStartBatch}: batches of 1, 2, 4, ... in parallel, stopping at the first failed batch. */
    private ApiException createInBatches(ObjectNode owner, int count, String key) throws InterruptedException {
        JsonNode template = owner.path("spec").path("template");
        AtomicReference<ApiException> failure = new AtomicReference<>();
        int done = 0;
        int created = 0;
        for (int batch = 1; done < count && failure.get() == null; batch = Math.min(2 * batch, count - done)) {
            int size = Math.min(batch, count - done);
            List<Thread> threads = new ArrayList<>();
            java.util.concurrent.atomic.AtomicInteger ok = new java.util.concurrent.atomic.AtomicInteger();
            for (int i = 0; i < size; i++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    try {
                        ObjectNode pod = pods.create(ObjectMeta.of(owner).namespace(), Pods.fromTemplate(template, owner));
                        ok.incrementAndGet();
                        events.normal(owner, "SuccessfulCreate", "Created pod: " + ObjectMeta.of(pod).name());
                    } catch (ApiException e) {
                        events.warning(owner, "FailedCreate", "Error creating: " + e.getMessage());
                        if (!namespaceTerminating(e)) {
                            failure.compareAndSet(null, e);
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            done += size;
            created += ok.get();
        }
        for (int i = created; i < count; i++) {
            expectations.creationObserved(key); // failed or skipped: never to be seen
        }
        return failure.get();
    }

    private static boolean namespaceTerminating(ApiException e) {
        return e.getMessage() != null && e.getMessage().contains("because it is being terminated");
    }

    private ApiException deleteAll(ObjectNode owner, List<ObjectNode> victims, String key) throws InterruptedException {
        AtomicReference<ApiException> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (ObjectNode pod : victims) {
            threads.add(Thread.ofVirtual().start(() -> {
                ObjectMeta meta = ObjectMeta.of(pod);
                try {
                    pods.delete(meta.namespace(), meta.name(), new DeleteOptions(null, null, false, null, null));
                    events.normal(owner, "SuccessfulDelete", "Deleted pod: " + meta.name());
                } catch (ApiException e) {
                    expectations.deletionObserved(key, meta.name());
                    if (e.reason() != StatusReason.NOT_FOUND) {
                        events.warning(owner, "FailedDelete", "Error deleting: " + e.getMessage());
                        failure.compareAndSet(null, e);
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        return failure.get();
    }

    /** kube's {@code calculateStatus} and {@code updateReplicaSetStatus}; returns the object as now stored. */
    private ObjectNode updateStatus(ObjectNode owner, List<ObjectNode> owned, ApiException failure, int diff) {
        Map<String, String> templateLabels = LabelSelector.labelsOf(owner.path("spec").path("template")
                .path("metadata").path("labels"));
        long minReady = owner.path("spec").path("minReadySeconds").asLong(0);
        var now = clock.instant();
        int fullyLabeled = 0;
        int ready = 0;
        int available = 0;
        for (ObjectNode pod : owned) {
            Map<String, String> labels = LabelSelector.labelsOf(pod.path("metadata").path("labels"));
            if (labels.entrySet().containsAll(templateLabels.entrySet())) {
                fullyLabeled++;
            }
            if (Pods.ready(pod)) {
                ready++;
                if (Pods.available(pod, minReady, now)) {
                    available++;
                }
            }
        }
        ObjectNode updated = owner.deepCopy();
        ObjectNode status = updated.with("status");
        status.put("replicas", owned.size());
        putOrOmit(status, "fullyLabeledReplicas", fullyLabeled);
        putOrOmit(status, "readyReplicas", ready);
        putOrOmit(status, "availableReplicas", available);
        putOrOmit(status, "observedGeneration", ObjectMeta.of(owner).generation());
        boolean failing = hasCondition(status, "ReplicaFailure");
        if (failure != null && !failing) {
            io.kapi.machinery.Conditions.set(updated, "ReplicaFailure", "True",
                    diff < 0 ? "FailedCreate" : "FailedDelete", failure.getMessage(), now);
        } else if (failure == null && failing) {
            io.kapi.machinery.Conditions.remove(updated, "ReplicaFailure");
        }
        if (status.path("conditions").isArray() && status.path("conditions").isEmpty()) {
            status.remove("conditions");
        }
        if (status.equals(owner.path("status"))) {
            return owner;
        }
        return owners.update(updated, "status");
    }

    private static boolean hasCondition(JsonNode status, String type) {
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return true;
            }
        }
        return false;
    }

    private static void putOrOmit(ObjectNode status, String field, long value) {
        if (value == 0) {
            status.remove(field);
        } else {
            status.put(field, value);
        }
    }

    /** The owner of a Pod's controller reference, by this controller's kind, as its queue key. */
    private String ownerKey(JsonNode pod) {
        return Pods.controllerOf(pod).filter(r -> r.path("kind").asText().equals(kind.kind()))
                .flatMap(r -> ownerInformer.get(pod.path("metadata").path("namespace").asText(),
                        r.path("name").asText()).filter(o -> ObjectMeta.of(o).uid().equals(r.path("uid").asText())))
                .map(QueueController::key).orElse(null);
    }

    /** Every owner of the Pod's namespace whose selector matches it (an orphan to adopt). */
    private void enqueueMatching(JsonNode pod) {
        for (ObjectNode owner : ownerInformer.list(pod.path("metadata").path("namespace").asText())) {
            try {
                if (selector(owner).matches(pod.path("metadata").path("labels"))) {
                    controller.enqueue(owner);
                }
            } catch (IllegalArgumentException e) {
                // an invalid selector matches nothing
            }
        }
    }

    /** kube's addPod, updatePod and deletePod handlers. */
    private final class PodChanges implements EventHandler {
        @Override
        public void onAdd(ObjectNode pod) {
            if (Pods.terminating(pod)) {
                onDelete(pod);
                return;
            }
            String key = ownerKey(pod);
            if (key != null) {
                expectations.creationObserved(key);
                controller.queue().add(key);
            } else if (Pods.controllerOf(pod).isEmpty()) {
                enqueueMatching(pod);
            }
        }

        @Override
        public void onUpdate(ObjectNode before, ObjectNode after) {
            if (Pods.terminating(after) && !Pods.terminating(before)) {
                onDelete(after);
                return;
            }
            String oldKey = ownerKey(before);
            String key = ownerKey(after);
            if (oldKey != null && !oldKey.equals(key)) {
                controller.queue().add(oldKey);
            }
            if (key != null) {
                controller.queue().add(key);
            } else if (Pods.controllerOf(after).isEmpty() && (oldKey != null
                    || !before.path("metadata").path("labels").equals(after.path("metadata").path("labels")))) {
                enqueueMatching(after);
            }
        }

        @Override
        public void onDelete(ObjectNode pod) {
            String key = ownerKey(pod);
            if (key != null) {
                expectations.deletionObserved(key, ObjectMeta.of(pod).name());
                controller.queue().add(key);
            }
        }
    }
}
