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
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * kube-controller-manager's daemonset controller ({@code pkg/controller/daemon}, 1.34): one Pod per Node
 * that {@link NodeEligibility} finds eligible, named {@code <ds>-<random>}, pinned by required node affinity
 * {@code metadata.name In [node]} (not {@code nodeName}: the scheduler binds it), with the daemon
 * tolerations and the labels {@code controller-revision-hash} and {@code pod-template-generation}. Pods on
 * Nodes no longer eligible, failed Pods and extra Pods are deleted. The template's versions are
 * ControllerRevisions {@code <ds>-<hash>} ({@link ControllerHistory}, the hash being the Pod template's, as
 * kube's). RollingUpdate replaces old Pods within {@code maxUnavailable}, or with {@code maxSurge} makes the
 * new Pod first and deletes the old one once the new one is available; OnDelete leaves them. Nodes are plain
 * objects here (no kubelet): a Pod counts as ready when its status says so.
 */
final class DaemonSetController implements WorkloadController {

    static final GroupVersionResource DAEMON_SETS = new GroupVersionResource("apps", "v1", "daemonsets");
    static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
    static final String GENERATION_LABEL = "pod-template-generation";
    private static final String KIND = "DaemonSet";
    /** kube's {@code --concurrent-daemonset-syncs} default. */
    private static final int WORKERS = 2;

    private final ResourceClient daemonSets;
    private final ResourceClient pods;
    private final Informer dsInformer;
    private final Informer podInformer;
    private final Informer nodeInformer;
    private final ControllerHistory history;
    private final ControllerRefs refs;
    private final EventRecorder events;
    private final Expectations expectations = new Expectations();
    private final QueueController controller;
    private final Clock clock;

    DaemonSetController(LocalClient client, SharedInformers informers, Clock clock) {
        this.clock = clock;
        this.daemonSets = client.resource(DAEMON_SETS);
        this.pods = client.resource(ReplicaSetController.PODS);
        this.dsInformer = informers.informer(DAEMON_SETS);
        this.podInformer = informers.informer(ReplicaSetController.PODS);
        this.nodeInformer = informers.informer(NODES);
        this.history = new ControllerHistory(client.resource(ControllerHistory.REVISIONS),
                informers.informer(ControllerHistory.REVISIONS), daemonSets);
        this.refs = new ControllerRefs(daemonSets, pods);
        this.events = new EventRecorder(client.resource("", "v1", "events"), "daemonset-controller", clock);
        this.controller = new QueueController("daemonset-controller", WORKERS, this::sync);
        dsInformer.addHandler(controller.enqueueing());
        podInformer.addHandler(new PodChanges());
        nodeInformer.addHandler(new EventHandler() {
            @Override
            public void onAdd(ObjectNode node) {
                enqueueAll();
            }

            @Override
            public void onUpdate(ObjectNode before, ObjectNode after) {
                if (!before.path("metadata").path("labels").equals(after.path("metadata").path("labels"))
                        || !before.path("spec").equals(after.path("spec"))) {
                    enqueueAll();
                }
            }

            @Override
            public void onDelete(ObjectNode node) {
                enqueueAll();
            }
        });
    }

    @Override
    public String name() {
        return "start-kapi-daemonset-controller";
    }

    @Override
    public void run() {
        controller.start();
    }

    @Override
    public void close() {
        controller.close();
    }

    private void enqueueAll() {
        dsInformer.list("").forEach(controller::enqueue);
    }

    private void sync(String key) throws InterruptedException {
        ObjectNode ds = dsInformer.get(QueueController.namespace(key), QueueController.name(key)).orElse(null);
        if (ds == null) {
            expectations.forget(key);
            return;
        }
        ds = typed(ds);
        LabelSelector selector;
        try {
            selector = LabelSelector.fromObject(ds.path("spec").path("selector"));
        } catch (IllegalArgumentException e) {
            return;
        }
        if (selector.isEverything()) {
            events.warning(ds, "SelectingAll", "This daemon set is selecting all pods. A non-empty selector is required.");
            return;
        }
        if (Pods.terminating(ds)) {
            return;
        }
        List<ObjectNode> nodes = nodeInformer.list("");
        Map<String, List<ObjectNode>> byNode = podsByNode(ds, selector);
        Integer collisions = ds.path("status").has("collisionCount") ? ds.path("status").path("collisionCount").asInt() : null;
        String hash = PodTemplateHash.of(ds.path("spec").path("template"), collisions);
        List<ObjectNode> revisions = history.owned(ds, selector);
        ObjectNode current = currentRevision(ds, hash, revisions);
        if (current == null) {
            return; // a collision: the count went up and the change brings the next sync
        }
        if (expectations.satisfied(key)) {
            manage(ds, key, nodes, byNode, hash);
            if (ds.path("spec").path("updateStrategy").path("type").asText("RollingUpdate").equals("RollingUpdate")) {
                rollingUpdate(ds, key, nodes, byNode, hash);
            }
            cleanupHistory(ds, selector, current, byNode);
        }
        updateStatus(ds, nodes, byNode, hash);
    }

    private static ObjectNode typed(ObjectNode ds) {
        if (ds.hasNonNull("kind") && ds.hasNonNull("apiVersion")) {
            return ds;
        }
        ObjectNode copy = ds.deepCopy();
        copy.put("apiVersion", "apps/v1");
        copy.put("kind", KIND);
        return copy;
    }

    /** kube's {@code getNodesToDaemonPods}: the claimed Pods by the node they are for, oldest first. */
    private Map<String, List<ObjectNode>> podsByNode(ObjectNode ds, LabelSelector selector) {
        Map<String, List<ObjectNode>> byNode = new java.util.TreeMap<>();
        for (ObjectNode pod : refs.claim(ds, selector, podInformer.list(ObjectMeta.of(ds).namespace()))) {
            String node = NodeEligibility.targetNode(pod);
            if (node != null) {
                byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(pod);
            }
        }
        byNode.values().forEach(l -> l.sort(OLDEST_FIRST));
        return byNode;
    }

    private static final Comparator<JsonNode> OLDEST_FIRST = Comparator
            .<JsonNode, String>comparing(p -> p.path("metadata").path("creationTimestamp").asText(""))
            .thenComparing(p -> p.path("metadata").path("name").asText(""));

    /**
     * kube's {@code constructHistory}: the revision of the current template (by hash label or equal data),
     * renumbered to the newest when an older one is rolled back to; made when there is none. Null when its
     * name is taken by other data: the collision count is raised instead.
     */
    private ObjectNode currentRevision(ObjectNode ds, String hash, List<ObjectNode> revisions) {
        JsonNode patch = ControllerHistory.patchOf(ds);
        ObjectNode current = null;
        List<ObjectNode> old = new ArrayList<>();
        for (ObjectNode r : revisions) {
            boolean matches = r.path("metadata").path("labels").path(ControllerHistory.POD_LABEL).asText("").equals(hash)
                    || ControllerHistory.sameData(r.path("data"), patch);
            if (matches && (current == null || r.path("revision").asLong() > current.path("revision").asLong())) {
                current = r;
            } else {
                old.add(r);
            }
        }
        long next = old.stream().mapToLong(r -> r.path("revision").asLong()).max().orElse(0) + 1;
        if (current != null) {
            return current.path("revision").asLong() < next ? history.renumber(current, next) : current;
        }
        ObjectNode revision = ControllerHistory.newRevision(ds, patch, next, null);
        ObjectNode meta = revision.with("metadata");
        meta.put("name", ControllerHistory.name(ObjectMeta.of(ds).name(), hash));
        ObjectNode labels = meta.with("labels");
        labels.remove(ControllerHistory.HASH_LABEL);
        labels.put(ControllerHistory.POD_LABEL, hash);
        if (ds.path("metadata").path("annotations").isObject()) {
            meta.set("annotations", ds.path("metadata").path("annotations").deepCopy());
        }
        try {
            return history.createAs(ds, revision);
        } catch (ApiException e) {
            if (e.reason() != StatusReason.ALREADY_EXISTS) {
                throw e;
            }
            ObjectNode exists = history.get(ds, ObjectMeta.of(revision).name());
            if (ControllerHistory.sameData(exists.path("data"), patch)) {
                return exists;
            }
            ObjectNode bumped = ds.deepCopy();
            bumped.with("status").put("collisionCount", collisions(ds) + 1);
            daemonSets.update(bumped, "status");
            return null;
        }
    }

    private static int collisions(JsonNode ds) {
        return ds.path("status").path("collisionCount").asInt(0);
    }

    /**
     * {@code GetTemplateGeneration}: kube-apiserver keeps it in the annotation
     * {@code deprecated.daemonset.template.generation}, raised only when the template changes; Kapi's server
     * does not write it yet, so without it the object's generation stands in (raised by any spec change).
     */
    static long templateGeneration(JsonNode ds) {
        String annotated = ds.path("metadata").path("annotations").path("deprecated.daemonset.template.generation")
                .asText("");
        try {
            return annotated.isEmpty() ? ds.path("metadata").path("generation").asLong(0) : Long.parseLong(annotated);
        } catch (NumberFormatException e) {
            return ds.path("metadata").path("generation").asLong(0);
        }
    }

    /** {@code IsPodUpdated}: made at the current hash, or at the current template generation. */
    static boolean updated(JsonNode pod, String hash, long generation) {
        JsonNode labels = pod.path("metadata").path("labels");
        return labels.path(ControllerHistory.POD_LABEL).asText("").equals(hash)
                || labels.path(GENERATION_LABEL).asText("").equals(Long.toString(generation));
    }

    /** kube's {@code manage} and {@code podsShouldBeOnNode}: Pods made where missing, deleted where they must go. */
    private void manage(ObjectNode ds, String key, List<ObjectNode> nodes, Map<String, List<ObjectNode>> byNode,
            String hash) throws InterruptedException {
        List<String> create = new ArrayList<>();
        List<ObjectNode> delete = new ArrayList<>();
        boolean surge = DaemonSetRollout.Budget.allowsSurge(ds);
        long generation = templateGeneration(ds);
        Set<String> eligible = new HashSet<>();
        for (ObjectNode node : nodes) {
            String name = ObjectMeta.of(node).name();
            NodeEligibility.Placement placement = NodeEligibility.placement(ds.path("spec").path("template").path("spec"), node);
            List<ObjectNode> there = byNode.getOrDefault(name, List.of());
            eligible.add(name);
            if (placement.shouldRun() && there.isEmpty()) {
                create.add(name);
            } else if (placement.shouldContinueRunning()) {
                List<ObjectNode> running = new ArrayList<>();
                for (ObjectNode pod : there) {
                    if (Pods.terminating(pod)) {
                        continue;
                    }
                    if (pod.path("status").path("phase").asText("").equals("Failed")) {
                        events.warning(ds, "FailedDaemonPod", "Found failed daemon pod %s/%s on node %s, will try to kill it"
                                .formatted(ObjectMeta.of(pod).namespace(), ObjectMeta.of(pod).name(), name));
                        delete.add(pod);
                    } else {
                        running.add(pod);
                    }
                }
                delete.addAll(extras(running, surge, hash, generation));
            } else {
                there.stream().filter(p -> !Pods.terminating(p)).forEach(delete::add);
            }
        }
        byNode.forEach((node, there) -> {
            if (!eligible.contains(node)) {
                there.stream().filter(p -> !Pods.terminating(p)).forEach(delete::add); // the node is gone
            }
        });
        syncNodes(ds, key, delete, create, hash);
    }

    /** More than one Pod on a node: all but the oldest go; with a surge, the oldest updated one stays too. */
    private static List<ObjectNode> extras(List<ObjectNode> running, boolean surge, String hash, long generation) {
        List<ObjectNode> extra = new ArrayList<>();
        boolean keptOld = false;
        boolean keptNew = false;
        for (ObjectNode pod : running) {
            boolean isNew = updated(pod, hash, generation);
            if (!surge && !keptOld && !keptNew) {
                keptOld = true;
            } else if (surge && isNew && !keptNew) {
                keptNew = true;
            } else if (surge && !isNew && !keptOld) {
                keptOld = true;
            } else {
                extra.add(pod);
            }
        }
        return extra;
    }

    /** kube's {@code syncNodes}: deletes, then creates a Pod per node, each expected before the next sync. */
    private void syncNodes(ObjectNode ds, String key, List<ObjectNode> delete, List<String> create, String hash)
            throws InterruptedException {
        if (delete.isEmpty() && create.isEmpty()) {
            return;
        }
        expectations.expect(key, create.size(), delete.stream().map(p -> ObjectMeta.of(p).name()).toList());
        AtomicReference<ApiException> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (ObjectNode pod : delete) {
            threads.add(Thread.ofVirtual().start(() -> {
                ObjectMeta meta = ObjectMeta.of(pod);
                try {
                    pods.delete(meta.namespace(), meta.name(), new DeleteOptions(meta.uid(), null, false, null, null));
                    events.normal(ds, "SuccessfulDelete", "Deleted pod: " + meta.name());
                } catch (ApiException e) {
                    expectations.deletionObserved(key, meta.name());
                    if (e.reason() != StatusReason.NOT_FOUND) {
                        events.warning(ds, "FailedDelete", "Error deleting: " + e.getMessage());
                        failure.compareAndSet(null, e);
                    }
                }
            }));
        }
        ObjectNode template = podTemplate(ds, hash);
        for (String node : create) {
            threads.add(Thread.ofVirtual().start(() -> {
                ObjectNode pod = Pods.fromTemplate(template, ds);
                NodeEligibility.pinTo(pod.with("spec"), node);
                try {
                    ObjectNode made = pods.create(ObjectMeta.of(ds).namespace(), pod);
                    events.normal(ds, "SuccessfulCreate", "Created pod: " + ObjectMeta.of(made).name());
                } catch (ApiException e) {
                    expectations.creationObserved(key);
                    events.warning(ds, "FailedCreate", "Error creating: " + e.getMessage());
                    failure.compareAndSet(null, e);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    /** {@code CreatePodTemplate}: the daemon tolerations, {@code pod-template-generation} and the hash label. */
    private static ObjectNode podTemplate(ObjectNode ds, String hash) {
        ObjectNode template = ds.path("spec").path("template").deepCopy();
        template.set("spec", NodeEligibility.withDaemonTolerations(template.path("spec")));
        ObjectNode labels = template.with("metadata").with("labels");
        labels.put(GENERATION_LABEL, Long.toString(templateGeneration(ds)));
        labels.put(ControllerHistory.POD_LABEL, hash);
        return template;
    }

    /** kube's {@code rollingUpdate}, once what {@code manage} did has been seen: {@link DaemonSetRollout}'s plan. */
    private void rollingUpdate(ObjectNode ds, String key, List<ObjectNode> nodes, Map<String, List<ObjectNode>> byNode,
            String hash) throws InterruptedException {
        if (!expectations.satisfied(key)) {
            return;
        }
        DaemonSetRollout.Plan plan = DaemonSetRollout.plan(ds, nodes, byNode, hash, clock.instant());
        syncNodes(ds, key, plan.delete(), plan.create(), hash);
    }

    /** kube's {@code cleanupHistory}: revisions beyond {@code revisionHistoryLimit} no Pod runs go. */
    private void cleanupHistory(ObjectNode ds, LabelSelector selector, ObjectNode current,
            Map<String, List<ObjectNode>> byNode) {
        Set<String> live = new HashSet<>();
        live.add(ObjectMeta.of(current).name());
        Set<String> liveHashes = new HashSet<>();
        byNode.values().forEach(l -> l.forEach(p -> liveHashes.add(StatefulPods.revision(p))));
        List<ObjectNode> owned = history.owned(ds, selector);
        owned.stream().filter(r -> liveHashes.contains(r.path("metadata").path("labels").path(ControllerHistory.POD_LABEL)
                .asText(""))).forEach(r -> live.add(ObjectMeta.of(r).name()));
        history.truncate(owned, live, ds.path("spec").path("revisionHistoryLimit").asInt(10));
    }

    /** kube's {@code updateDaemonSetStatus}: counted over the eligible nodes' oldest Pods. */
    private void updateStatus(ObjectNode ds, List<ObjectNode> nodes, Map<String, List<ObjectNode>> byNode, String hash) {
        long generation = ObjectMeta.of(ds).generation();
        long minReady = ds.path("spec").path("minReadySeconds").asLong(0);
        var now = clock.instant();
        int desired = 0;
        int scheduled = 0;
        int misscheduled = 0;
        int ready = 0;
        int available = 0;
        int updatedCount = 0;
        for (ObjectNode node : nodes) {
            List<ObjectNode> there = byNode.getOrDefault(ObjectMeta.of(node).name(), List.of());
            if (!NodeEligibility.placement(ds.path("spec").path("template").path("spec"), node).shouldRun()) {
                misscheduled += there.isEmpty() ? 0 : 1;
                continue;
            }
            desired++;
            if (there.isEmpty()) {
                continue;
            }
            scheduled++;
            ObjectNode pod = there.stream().min(Comparator.comparingInt((ObjectNode p) -> p.path("status").path("phase")
                    .asText("").equals("Running") ? 0 : 1).thenComparing(OLDEST_FIRST)).orElseThrow();
            if (Pods.ready(pod)) {
                ready++;
                available += Pods.available(pod, minReady, now) ? 1 : 0;
            }
            updatedCount += updated(pod, hash, templateGeneration(ds)) ? 1 : 0;
        }
        ObjectNode updated = ds.deepCopy();
        ObjectNode status = updated.with("status");
        status.put("currentNumberScheduled", scheduled);
        status.put("numberMisscheduled", misscheduled);
        status.put("desiredNumberScheduled", desired);
        status.put("numberReady", ready);
        putOrOmit(status, "observedGeneration", generation);
        putOrOmit(status, "updatedNumberScheduled", updatedCount);
        putOrOmit(status, "numberAvailable", available);
        putOrOmit(status, "numberUnavailable", desired - available);
        // compared as JSON text: the stored 1 (an int node) and the computed 1L (a long node) are not equal() trees
        if (!ControllerHistory.goJson(status).equals(ControllerHistory.goJson(ds.path("status")))) {
            daemonSets.update(updated, "status");
        }
        if (minReady > 0 && ready != available) {
            controller.queue().addAfter(QueueController.key(ds), Duration.ofSeconds(minReady));
        }
    }

    private static void putOrOmit(ObjectNode status, String field, long value) {
        if (value == 0) {
            status.remove(field);
        } else {
            status.put(field, value);
        }
    }

    /** The DaemonSet a Pod's controller reference names, as its key; null for another owner's. */
    private String ownerKey(JsonNode pod) {
        return Pods.controllerOf(pod).filter(r -> r.path("kind").asText().equals(KIND))
                .map(r -> pod.path("metadata").path("namespace").asText() + "/" + r.path("name").asText()).orElse(null);
    }

    /** kube's addPod, updatePod and deletePod: the owner's expectations and queue; orphans to every selecting set. */
    private final class PodChanges implements EventHandler {
        @Override
        public void onAdd(ObjectNode pod) {
            String key = ownerKey(pod);
            if (key != null) {
                expectations.creationObserved(key);
                controller.queue().add(key);
            } else if (Pods.controllerOf(pod).isEmpty()) {
                matching(pod);
            }
        }

        @Override
        public void onUpdate(ObjectNode before, ObjectNode after) {
            String key = ownerKey(after);
            if (key != null) {
                if (Pods.terminating(after) && !Pods.terminating(before)) {
                    expectations.deletionObserved(key, ObjectMeta.of(after).name());
                }
                controller.queue().add(key);
            } else if (Pods.controllerOf(after).isEmpty()) {
                matching(after);
            }
            String oldKey = ownerKey(before);
            if (oldKey != null && !oldKey.equals(key)) {
                controller.queue().add(oldKey);
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

        private void matching(JsonNode pod) {
            for (ObjectNode ds : dsInformer.list(pod.path("metadata").path("namespace").asText())) {
                try {
                    if (LabelSelector.fromObject(ds.path("spec").path("selector")).matches(pod.path("metadata").path("labels"))) {
                        controller.enqueue(ds);
                    }
                } catch (IllegalArgumentException e) {
                    // an invalid selector matches nothing
                }
            }
        }
    }
}
