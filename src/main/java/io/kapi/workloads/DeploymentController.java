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
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.registry.DeleteOptions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * kube-controller-manager's deployment controller: a Deployment's ReplicaSets, named
 * {@code <deployment>-<pod-template-hash>} with the hash in their selector and template labels, revised
 * ({@code deployment.kubernetes.io/revision}, {@code desired-replicas}, {@code max-replicas}) and scaled by
 * its strategy: RollingUpdate within maxSurge and maxUnavailable, Recreate (old Pods gone first); a scaling
 * event spread over the active ReplicaSets; a rollback ({@code kubectl rollout undo} puts an old template
 * back) takes the old ReplicaSet up again under a new revision; old ReplicaSets beyond
 * {@code revisionHistoryLimit} deleted once empty; the status and the Available, Progressing and
 * ReplicaFailure conditions as kube computes them ({@link DeploymentStatus}). Acts through the API as
 * {@code system:serviceaccount:kube-system:deployment-controller}.
 */
final class DeploymentController implements WorkloadController {

    static final GroupVersionResource DEPLOYMENTS = new GroupVersionResource("apps", "v1", "deployments");
    static final GroupVersionResource REPLICA_SETS = new GroupVersionResource("apps", "v1", "replicasets");
    static final String REVISION = "deployment.kubernetes.io/revision";
    static final String REVISION_HISTORY = "deployment.kubernetes.io/revision-history";
    static final String DESIRED_REPLICAS = "deployment.kubernetes.io/desired-replicas";
    static final String MAX_REPLICAS = "deployment.kubernetes.io/max-replicas";
    /** The Deployment annotations not copied to its ReplicaSets ({@code skipCopyAnnotation}). */
    private static final java.util.Set<String> NOT_COPIED = java.util.Set.of(
            "kubectl.kubernetes.io/last-applied-configuration", REVISION, REVISION_HISTORY, DESIRED_REPLICAS,
            MAX_REPLICAS, "deprecated.deployment.rollback.to");
    /** kube's {@code --concurrent-deployment-syncs} default. */
    private static final int WORKERS = 5;

    private final ResourceClient deployments;
    private final ResourceClient replicaSets;
    private final Informer deploymentInformer;
    private final Informer rsInformer;
    private final Informer podInformer;
    private final EventRecorder events;
    private final QueueController controller;
    private final DeploymentStatus statuses;
    private final ControllerRefs refs;

    DeploymentController(LocalClient client, SharedInformers informers, Clock clock) {
        this.deployments = client.resource(DEPLOYMENTS);
        this.replicaSets = client.resource(REPLICA_SETS);
        this.refs = new ControllerRefs(deployments, replicaSets);
        this.events = new EventRecorder(client.resource("", "v1", "events"), "deployment-controller", clock);
        this.deploymentInformer = informers.informer(DEPLOYMENTS);
        this.rsInformer = informers.informer(REPLICA_SETS);
        this.podInformer = informers.informer(ReplicaSetController.PODS);
        this.controller = new QueueController("deployment-controller", WORKERS, this::sync);
        this.statuses = new DeploymentStatus(clock);
        deploymentInformer.addHandler(controller.enqueueing());
        rsInformer.addHandler(EventHandler.onAnyChange(this::replicaSetChanged));
        podInformer.addHandler(new EventHandler() {
            @Override
            public void onDelete(ObjectNode pod) {
                podGone(pod);
            }
        });
    }

    @Override
    public String name() {
        return "start-kapi-deployment-controller";
    }

    @Override
    public void run() {
        controller.start();
    }

    @Override
    public void close() {
        controller.close();
    }

    /** A ReplicaSet's change: its Deployment syncs, or every Deployment that may adopt it. */
    private void replicaSetChanged(ObjectNode rs) {
        String namespace = ObjectMeta.of(rs).namespace();
        var ref = Pods.controllerOf(rs);
        if (ref.isPresent()) {
            if (ref.get().path("kind").asText().equals("Deployment")) {
                controller.queue().add(namespace + "/" + ref.get().path("name").asText());
            }
            return;
        }
        for (ObjectNode d : deploymentInformer.list(namespace)) {
            if (selects(d, rs)) {
                controller.enqueue(d);
            }
        }
    }

    /** kube's deletePod: a Recreate Deployment waits for its old Pods to go. */
    private void podGone(ObjectNode pod) {
        Pods.controllerOf(pod).filter(r -> r.path("kind").asText().equals("ReplicaSet"))
                .flatMap(r -> rsInformer.get(ObjectMeta.of(pod).namespace(), r.path("name").asText()))
                .flatMap(Pods::controllerOf)
                .ifPresent(r -> controller.queue().add(ObjectMeta.of(pod).namespace() + "/" + r.path("name").asText()));
    }

    private static boolean selects(JsonNode d, JsonNode rs) {
        try {
            LabelSelector s = LabelSelector.fromObject(d.path("spec").path("selector"));
            return !s.isEverything() && s.matches(rs.path("metadata").path("labels"));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private void sync(String key) {
        ObjectNode found = deploymentInformer.get(QueueController.namespace(key), QueueController.name(key)).orElse(null);
        if (found == null) {
            return;
        }
        Rollout r = new Rollout(typed(found, "apps/v1", "Deployment"));
        LabelSelector selector;
        try {
            selector = LabelSelector.fromObject(r.d.path("spec").path("selector"));
        } catch (IllegalArgumentException e) {
            return;
        }
        if (selector.isEverything()) {
            events.warning(r.d, "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required.");
            if (r.d.path("status").path("observedGeneration").asLong() < ObjectMeta.of(r.d).generation()) {
                ObjectNode copy = r.d.deepCopy();
                copy.with("status").put("observedGeneration", ObjectMeta.of(r.d).generation());
                deployments.update(copy, "status");
            }
            return;
        }
        r.rsList = claim(r.d, selector);
        if (Pods.terminating(r.d)) {
            r.syncStatusOnly();
            return;
        }
        r.checkPaused();
        if (r.d.path("spec").path("paused").asBoolean(false)) {
            r.scaleOnly();
            return;
        }
        if (r.scalingEvent()) {
            r.scaleOnly();
            return;
        }
        if (RollingUpdate.rolling(r.d)) {
            r.rolling();
        } else {
            r.recreate();
        }
        long after = statuses.recheckAfterMillis(r.d);
        if (after >= 0) {
            controller.queue().addAfter(key, java.time.Duration.ofMillis(after));
        }
    }

    private static ObjectNode typed(ObjectNode o, String apiVersion, String kind) {
        if (o.hasNonNull("kind") && o.hasNonNull("apiVersion")) {
            return o;
        }
        ObjectNode copy = o.deepCopy();
        copy.put("apiVersion", apiVersion);
        copy.put("kind", kind);
        return copy;
    }

    /** kube's {@code getReplicaSetsForDeployment}: adopts orphans it selects, releases those it no longer does. */
    private List<ObjectNode> claim(ObjectNode d, LabelSelector selector) {
        List<ObjectNode> candidates = rsInformer.list(ObjectMeta.of(d).namespace()).stream()
                .map(rs -> typed(rs, "apps/v1", "ReplicaSet")).toList();
        return new ArrayList<>(refs.claim(d, selector, candidates).stream()
                .map(rs -> typed(rs, "apps/v1", "ReplicaSet")).toList());
    }

    static int replicas(JsonNode o) {
        return o.path("spec").path("replicas").asInt(1);
    }

    static long revision(JsonNode rs) {
        try {
            return Long.parseLong(rs.path("metadata").path("annotations").path(REVISION).asText("0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static final Comparator<JsonNode> BY_CREATION = Comparator
            .<JsonNode, String>comparing(o -> o.path("metadata").path("creationTimestamp").asText(""))
            .thenComparing(o -> o.path("metadata").path("name").asText(""));

    /** One sync of one Deployment: the Deployment as last written and its ReplicaSets. */
    private final class Rollout {
        ObjectNode d;
        List<ObjectNode> rsList;
        ObjectNode newRS;
        List<ObjectNode> oldRSs;

        Rollout(ObjectNode d) {
            this.d = d;
        }

        private int desired() {
            return replicas(d);
        }

        private List<ObjectNode> all() {
            List<ObjectNode> all = new ArrayList<>(oldRSs);
            if (newRS != null) {
                all.add(newRS);
            }
            return all;
        }

        /** kube's {@code FindNewReplicaSet}: the oldest one whose template is the Deployment's. */
        private void split() {
            List<ObjectNode> sorted = new ArrayList<>(rsList);
            sorted.sort(BY_CREATION);
            newRS = null;
            for (ObjectNode rs : sorted) {
                if (PodTemplateHash.equalIgnoringHash(rs.path("spec").path("template"), d.path("spec").path("template"))) {
                    newRS = rs;
                    break;
                }
            }
            oldRSs = new ArrayList<>(rsList);
            oldRSs.remove(newRS);
        }

        /** kube's {@code getAllReplicaSetsAndSyncRevision}. */
        private void revise(boolean createIfMissing) {
            split();
            long maxOld = oldRSs.stream().mapToLong(DeploymentController::revision).max().orElse(0);
            String newRevision = Long.toString(maxOld + 1);
            if (newRS != null) {
                ObjectNode copy = newRS.deepCopy();
                boolean changed = annotate(copy, newRevision, true);
                long minReady = d.path("spec").path("minReadySeconds").asLong(0);
                if (copy.path("spec").path("minReadySeconds").asLong(0) != minReady) {
                    copy.with("spec").put("minReadySeconds", minReady);
                    changed = true;
                }
                if (changed) {
                    newRS = typed(replicaSets.update(copy), "apps/v1", "ReplicaSet");
                    replace(newRS);
                }
                setRevision(annotationOf(newRS, REVISION));
                if (statuses.hasProgressDeadline(d) && DeploymentStatus.condition(d, "Progressing") == null) {
                    ObjectNode copyD = d.deepCopy();
                    statuses.set(copyD, "Progressing", "True", "FoundNewReplicaSet",
                            "Found new replica set \"" + ObjectMeta.of(newRS).name() + "\"");
                    d = typed(deployments.update(copyD, "status"), "apps/v1", "Deployment");
                }
                return;
            }
            if (createIfMissing) {
                create(newRevision);
            }
        }

        private void replace(ObjectNode rs) {
            rsList.removeIf(o -> ObjectMeta.of(o).uid().equals(ObjectMeta.of(rs).uid()));
            rsList.add(rs);
            split();
        }

        private void create(String newRevision) {
            Integer collisions = d.path("status").has("collisionCount")
                    ? d.path("status").path("collisionCount").asInt() : null;
            String hash = PodTemplateHash.of(d.path("spec").path("template"), collisions);
            ObjectNode template = d.path("spec").path("template").deepCopy();
            template.with("metadata").with("labels").put(PodTemplateHash.LABEL, hash);
            ObjectNode selector = d.path("spec").path("selector").deepCopy();
            selector.with("matchLabels").put(PodTemplateHash.LABEL, hash);
            ObjectNode rs = Json.object();
            rs.put("apiVersion", "apps/v1");
            rs.put("kind", "ReplicaSet");
            ObjectNode meta = rs.putObject("metadata");
            meta.put("name", ObjectMeta.of(d).name() + "-" + hash);
            meta.put("namespace", ObjectMeta.of(d).namespace());
            meta.set("labels", template.path("metadata").path("labels").deepCopy());
            meta.putArray("ownerReferences").add(Pods.controllerRef(d));
            ObjectNode spec = rs.putObject("spec");
            spec.put("replicas", 0);
            spec.put("minReadySeconds", d.path("spec").path("minReadySeconds").asInt(0));
            spec.set("selector", selector);
            spec.set("template", template);
            List<ObjectNode> all = new ArrayList<>(oldRSs);
            int allReplicas = all.stream().mapToInt(DeploymentController::replicas).sum();
            int count = RollingUpdate.newReplicaSetReplicas(d, allReplicas, 0);
            spec.put("replicas", count);
            annotate(rs, newRevision, false);
            boolean existed = false;
            ObjectNode created;
            try {
                created = replicaSets.create(ObjectMeta.of(d).namespace(), rs);
            } catch (ApiException e) {
                if (e.reason() != StatusReason.ALREADY_EXISTS) {
                    throw e;
                }
                ObjectNode other = replicaSets.get(ObjectMeta.of(d).namespace(), ObjectMeta.of(rs).name());
                if (Pods.controlledBy(other, "Deployment", ObjectMeta.of(d).uid())
                        && PodTemplateHash.equalIgnoringHash(other.path("spec").path("template"), d.path("spec").path("template"))) {
                    created = other;
                    existed = true;
                } else {
                    // a hash collision: kube bumps collisionCount so the next sync picks another name
                    ObjectNode copyD = d.deepCopy();
                    copyD.with("status").put("collisionCount", collisions == null ? 1 : collisions + 1);
                    deployments.update(copyD, "status");
                    throw e;
                }
            }
            newRS = typed(created, "apps/v1", "ReplicaSet");
            rsList.add(newRS);
            if (!existed && count > 0) {
                events.normal(d, "ScalingReplicaSet", "Scaled up replica set " + ObjectMeta.of(newRS).name()
                        + " from 0 to " + count);
            }
            setRevision(newRevision);
            if (!existed && statuses.hasProgressDeadline(d)) {
                ObjectNode copyD = d.deepCopy();
                statuses.set(copyD, "Progressing", "True", "NewReplicaSetCreated",
                        "Created new replica set \"" + ObjectMeta.of(newRS).name() + "\"");
                d = typed(deployments.update(copyD, "status"), "apps/v1", "Deployment");
            }
        }

        /** kube's {@code SetNewReplicaSetAnnotations}; returns whether {@code rs} changed. */
        private boolean annotate(ObjectNode rs, String newRevision, boolean exists) {
            ObjectNode annotations = rs.with("metadata").with("annotations");
            boolean changed = false;
            for (var e : d.path("metadata").path("annotations").properties()) {
                if (!NOT_COPIED.contains(e.getKey()) && !e.getValue().equals(annotations.get(e.getKey()))) {
                    annotations.set(e.getKey(), e.getValue().deepCopy());
                    changed = true;
                }
            }
            String oldRevision = annotations.path(REVISION).asText("");
            long old = oldRevision.isEmpty() ? 0 : Long.parseLong(oldRevision);
            if (old < Long.parseLong(newRevision)) {
                annotations.put(REVISION, newRevision);
                changed = true;
                if (!oldRevision.isEmpty()) {
                    String history = annotations.path(REVISION_HISTORY).asText("");
                    annotations.put(REVISION_HISTORY, history.isEmpty() ? oldRevision : history + "," + oldRevision);
                }
            }
            if (!exists) {
                setReplicasAnnotations(rs);
                changed = true;
            }
            return changed;
        }

        /** kube's {@code SetReplicasAnnotations}: desired and max replicas of the Deployment now. */
        private boolean setReplicasAnnotations(ObjectNode rs) {
            ObjectNode annotations = rs.with("metadata").with("annotations");
            String desired = Integer.toString(desired());
            String max = Integer.toString(desired() + RollingUpdate.maxSurge(d));
            boolean changed = !desired.equals(annotations.path(DESIRED_REPLICAS).asText(null))
                    || !max.equals(annotations.path(MAX_REPLICAS).asText(null));
            annotations.put(DESIRED_REPLICAS, desired);
            annotations.put(MAX_REPLICAS, max);
            return changed;
        }

        /** kube's {@code SetDeploymentRevision}, written to the Deployment's own annotations. */
        private boolean setRevision(String revision) {
            if (revision.equals(annotationOf(d, REVISION))) {
                return false;
            }
            ObjectNode copy = d.deepCopy();
            copy.with("metadata").with("annotations").put(REVISION, revision);
            copy.remove("status");
            ObjectNode written = deployments.update(copy);
            d = typed(written, "apps/v1", "Deployment");
            return true;
        }

        /** kube's {@code scaleReplicaSetAndRecordEvent}. */
        private ObjectNode scale(ObjectNode rs, int to) {
            ObjectNode copy = rs.deepCopy();
            int from = replicas(rs);
            boolean annotations = setReplicasAnnotations(copy);
            if (from == to && !annotations) {
                return rs;
            }
            copy.with("spec").put("replicas", to);
            ObjectNode written = typed(replicaSets.update(copy), "apps/v1", "ReplicaSet");
            if (from != to) {
                events.normal(d, "ScalingReplicaSet", "Scaled " + (from < to ? "up" : "down") + " replica set "
                        + ObjectMeta.of(rs).name() + " from " + from + " to " + to);
            }
            if (newRS != null && ObjectMeta.of(newRS).uid().equals(ObjectMeta.of(rs).uid())) {
                newRS = written;
            } else {
                oldRSs.replaceAll(o -> ObjectMeta.of(o).uid().equals(ObjectMeta.of(rs).uid()) ? written : o);
            }
            return written;
        }

        void checkPaused() {
            if (!statuses.hasProgressDeadline(d)) {
                return;
            }
            JsonNode cond = DeploymentStatus.condition(d, "Progressing");
            if (cond != null && cond.path("reason").asText().equals("ProgressDeadlineExceeded")) {
                return;
            }
            boolean pausedCond = cond != null && cond.path("reason").asText().equals("DeploymentPaused");
            boolean paused = d.path("spec").path("paused").asBoolean(false);
            ObjectNode copy = d.deepCopy();
            if (paused && !pausedCond) {
                statuses.set(copy, "Progressing", "Unknown", "DeploymentPaused", "Deployment is paused");
            } else if (!paused && pausedCond) {
                statuses.set(copy, "Progressing", "Unknown", "DeploymentResumed", "Deployment is resumed");
            } else {
                return;
            }
            d = typed(deployments.update(copy, "status"), "apps/v1", "Deployment");
        }

        /** kube's {@code isScalingEvent}: an active ReplicaSet was sized for other replicas than now asked. */
        boolean scalingEvent() {
            split();
            for (ObjectNode rs : all()) {
                String desired = annotationOf(rs, DESIRED_REPLICAS);
                if (replicas(rs) > 0 && !desired.isEmpty() && Integer.parseInt(desired) != desired()) {
                    return true;
                }
            }
            return false;
        }

        void syncStatusOnly() {
            revise(false);
            writeStatus(statuses.calculate(all(), newRS, d));
        }

        /** kube's {@code sync}: scaling (a scaling event, a paused Deployment), then the status. */
        void scaleOnly() {
            revise(false);
            scaleAll();
            if (d.path("spec").path("paused").asBoolean(false)) {
                cleanup();
            }
            writeStatus(statuses.calculate(all(), newRS, d));
        }

        /** kube's {@code scale}: the one active ReplicaSet takes the new size, else proportionally. */
        private void scaleAll() {
            List<ObjectNode> active = all().stream().filter(rs -> replicas(rs) > 0).toList();
            if (active.size() <= 1) {
                ObjectNode target = active.isEmpty() ? (newRS != null ? newRS : newestOld()) : active.getFirst();
                if (target != null && replicas(target) != desired()) {
                    scale(target, desired());
                }
                return;
            }
            if (newRS != null && saturated(newRS)) {
                for (ObjectNode old : List.copyOf(oldRSs)) {
                    if (replicas(old) > 0) {
                        scale(old, 0);
                    }
                }
                return;
            }
            if (!RollingUpdate.rolling(d)) {
                return;
            }
            int current = active.stream().mapToInt(DeploymentController::replicas).sum();
            int allowed = desired() > 0 ? desired() + RollingUpdate.maxSurge(d) : 0;
            int toAdd = allowed - current;
            if (toAdd == 0) {
                return;
            }
            List<ObjectNode> sorted = new ArrayList<>(active);
            Comparator<JsonNode> bySize = Comparator.comparingInt(DeploymentController::replicas).reversed();
            sorted.sort(toAdd > 0 ? bySize.thenComparing(BY_CREATION.reversed()) : bySize.thenComparing(BY_CREATION));
            int added = 0;
            int[] sizes = new int[sorted.size()];
            for (int i = 0; i < sorted.size(); i++) {
                ObjectNode rs = sorted.get(i);
                int share = (int) ((long) replicas(rs) * toAdd / Math.max(current, 1));
                if (Math.abs(added + share) > Math.abs(toAdd)) {
                    share = toAdd - added;
                }
                sizes[i] = replicas(rs) + share;
                added += share;
            }
            sizes[0] += toAdd - added; // leftovers to the largest, as kube does
            for (int i = 0; i < sorted.size(); i++) {
                scale(sorted.get(i), Math.max(0, sizes[i]));
            }
        }

        private ObjectNode newestOld() {
            return oldRSs.stream().max(BY_CREATION).orElse(null);
        }

        private boolean saturated(ObjectNode rs) {
            String desired = annotationOf(rs, DESIRED_REPLICAS);
            return !desired.isEmpty() && Integer.parseInt(desired) == desired() && replicas(rs) == desired()
                    && rs.path("status").path("availableReplicas").asInt(0) == desired();
        }

        /** kube's {@code rolloutRolling}. */
        void rolling() {
            revise(true);
            if (reconcileNew() || reconcileOld()) {
                syncRolloutStatus();
                return;
            }
            if (DeploymentStatus.complete(d, d.path("status"))) {
                cleanup();
            }
            syncRolloutStatus();
        }

        private boolean reconcileNew() {
            int current = replicas(newRS);
            if (current == desired()) {
                return false;
            }
            if (current > desired()) {
                scale(newRS, desired());
                return true;
            }
            int allReplicas = all().stream().mapToInt(DeploymentController::replicas).sum();
            int count = RollingUpdate.newReplicaSetReplicas(d, allReplicas, current);
            if (count == current) {
                return false;
            }
            scale(newRS, count);
            return true;
        }

        /** kube's {@code reconcileOldReplicaSets}: unhealthy old Pods first, then within maxUnavailable. */
        private boolean reconcileOld() {
            int oldCount = oldRSs.stream().mapToInt(DeploymentController::replicas).sum();
            if (oldCount == 0) {
                return false;
            }
            int allCount = all().stream().mapToInt(DeploymentController::replicas).sum();
            int minAvailable = desired() - RollingUpdate.maxUnavailable(d);
            int newUnavailable = replicas(newRS) - newRS.path("status").path("availableReplicas").asInt(0);
            int maxScaledDown = allCount - minAvailable - newUnavailable;
            if (maxScaledDown <= 0) {
                return false;
            }
            int cleaned = 0;
            List<ObjectNode> byAge = new ArrayList<>(oldRSs);
            byAge.sort(BY_CREATION);
            for (ObjectNode rs : byAge) {
                int unhealthy = replicas(rs) - rs.path("status").path("availableReplicas").asInt(0);
                if (cleaned >= maxScaledDown || replicas(rs) == 0 || unhealthy <= 0) {
                    continue;
                }
                int down = Math.min(maxScaledDown - cleaned, unhealthy);
                scale(rs, replicas(rs) - down);
                cleaned += down;
            }
            int available = all().stream().mapToInt(rs -> rs.path("status").path("availableReplicas").asInt(0)).sum();
            int scaledDown = 0;
            if (available > minAvailable) {
                int total = available - minAvailable;
                byAge = new ArrayList<>(oldRSs);
                byAge.sort(BY_CREATION);
                for (ObjectNode rs : byAge) {
                    if (scaledDown >= total) {
                        break;
                    }
                    if (replicas(rs) == 0) {
                        continue;
                    }
                    int down = Math.min(replicas(rs), total - scaledDown);
                    scale(rs, replicas(rs) - down);
                    scaledDown += down;
                }
            }
            return cleaned + scaledDown > 0;
        }

        /** kube's {@code rolloutRecreate}: old ReplicaSets to zero, their Pods gone, then the new one up. */
        void recreate() {
            revise(false);
            boolean scaledDown = false;
            for (ObjectNode old : List.copyOf(oldRSs)) {
                if (replicas(old) > 0) {
                    scale(old, 0);
                    scaledDown = true;
                }
            }
            if (scaledDown || oldPodsRunning()) {
                syncRolloutStatus();
                return;
            }
            if (newRS == null) {
                revise(true);
            }
            if (replicas(newRS) != desired()) {
                scale(newRS, desired());
            }
            if (DeploymentStatus.complete(d, d.path("status"))) {
                cleanup();
            }
            syncRolloutStatus();
        }

        private boolean oldPodsRunning() {
            if (oldRSs.stream().anyMatch(rs -> rs.path("status").path("replicas").asInt(0) > 0)) {
                return true;
            }
            for (ObjectNode old : oldRSs) {
                String uid = ObjectMeta.of(old).uid();
                for (ObjectNode pod : podInformer.list(ObjectMeta.of(d).namespace())) {
                    String phase = pod.path("status").path("phase").asText("");
                    if (Pods.controlledBy(pod, "ReplicaSet", uid) && !phase.equals("Failed") && !phase.equals("Succeeded")) {
                        return true;
                    }
                }
            }
            return false;
        }

        /** kube's {@code cleanupDeployment}: old, empty ReplicaSets beyond revisionHistoryLimit, oldest revision first. */
        private void cleanup() {
            if (!d.path("spec").has("revisionHistoryLimit")) {
                return;
            }
            int limit = d.path("spec").path("revisionHistoryLimit").asInt();
            List<ObjectNode> cleanable = new ArrayList<>(oldRSs.stream().filter(rs -> !Pods.terminating(rs)).toList());
            int diff = cleanable.size() - limit;
            if (diff <= 0) {
                return;
            }
            cleanable.sort(Comparator.comparingLong(DeploymentController::revision).thenComparing(BY_CREATION));
            for (int i = 0; i < diff; i++) {
                ObjectNode rs = cleanable.get(i);
                if (rs.path("status").path("replicas").asInt(0) != 0 || replicas(rs) != 0
                        || ObjectMeta.of(rs).generation() > rs.path("status").path("observedGeneration").asLong(0)) {
                    continue;
                }
                try {
                    replicaSets.delete(ObjectMeta.of(rs).namespace(), ObjectMeta.of(rs).name(),
                            new DeleteOptions(ObjectMeta.of(rs).uid(), null, false, null, null));
                } catch (ApiException e) {
                    if (e.reason() != StatusReason.NOT_FOUND) {
                        throw e;
                    }
                }
            }
        }

        private void syncRolloutStatus() {
            writeStatus(statuses.rolloutStatus(all(), newRS, d));
        }

        private void writeStatus(ObjectNode status) {
            if (status.equals(d.path("status"))) {
                return;
            }
            ObjectNode copy = d.deepCopy();
            copy.set("status", status);
            d = typed(deployments.update(copy, "status"), "apps/v1", "Deployment");
        }
    }

    static String annotationOf(JsonNode o, String name) {
        return o.path("metadata").path("annotations").path(name).asText("");
    }
}
