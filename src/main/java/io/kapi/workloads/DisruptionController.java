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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube-controller-manager's disruption controller: each PodDisruptionBudget's status counts the Pods its
 * selector picks in its namespace ({@link Budgets}): {@code currentHealthy} the Ready ones, {@code desiredHealthy}
 * and {@code expectedPods} from {@code minAvailable} or {@code maxUnavailable} (a percentage, or any
 * {@code maxUnavailable}, against the sum of the Pods' controllers' scale: {@link ScaleFinder}),
 * {@code disruptionsAllowed}, {@code disruptedPods} the evictions not yet seen through (dropped after two
 * minutes), {@code observedGeneration}, and condition DisruptionAllowed (SufficientPods, InsufficientPods, or
 * SyncFailed with the error when the count fails, when no disruption is allowed). Events NoPods and
 * UnmanagedPods as kube's. A budget is synced again on any change to it or to a Pod it selects. A Pod left
 * marked DisruptionTarget True for {@link #STALE_POD_DISRUPTION_TIMEOUT} without being deleted (an eviction
 * whose delete failed) has the mark set back to False, as kube's stale-pod-disruption worker does.
 */
final class DisruptionController implements WorkloadController {

    static final GroupVersionResource PDBS = new GroupVersionResource("policy", "v1", "poddisruptionbudgets");
    /** kube's {@code stalePodDisruptionTimeout}: how long a DisruptionTarget may stay on a Pod not being deleted. */
    static final Duration STALE_POD_DISRUPTION_TIMEOUT = Duration.ofMinutes(2);
    private static final String COMPONENT = "controllermanager";

    private final ResourceClient budgets;
    private final Informer budgetInformer;
    private final Informer podInformer;
    private final ScaleFinder scales;
    private final EventRecorder events;
    private final QueueController controller;
    private final QueueController stalePods;
    private final ResourceClient pods;
    private final Duration staleTimeout;
    private final Clock clock;

    DisruptionController(LocalClient client, SharedInformers informers, Clock clock) {
        this(client, informers, clock, STALE_POD_DISRUPTION_TIMEOUT);
    }

    DisruptionController(LocalClient client, SharedInformers informers, Clock clock, Duration staleTimeout) {
        this.clock = clock;
        this.staleTimeout = staleTimeout;
        this.pods = client.resource(ReplicaSetController.PODS);
        this.stalePods = new QueueController("disruption-controller-stale-pods", 1, this::syncStalePod);
        this.budgets = client.resource(PDBS);
        this.budgetInformer = informers.informer(PDBS);
        this.podInformer = informers.informer(ReplicaSetController.PODS);
        this.scales = new ScaleFinder(client, informers);
        this.events = new EventRecorder(client.resource("", "v1", "events"), COMPONENT, clock);
        this.controller = new QueueController("disruption-controller", 1, this::sync);
        budgetInformer.addHandler(controller.enqueueing());
        podInformer.addHandler(new EventHandler() {
            @Override
            public void onAdd(ObjectNode pod) {
                enqueueBudgetsOf(pod);
                enqueueIfStale(pod);
            }

            @Override
            public void onUpdate(ObjectNode before, ObjectNode after) {
                enqueueBudgetsOf(after);
                enqueueIfStale(after);
                if (!ObjectMeta.of(before).labels().equals(ObjectMeta.of(after).labels())) {
                    enqueueBudgetsOf(before);
                }
            }

            @Override
            public void onDelete(ObjectNode pod) {
                enqueueBudgetsOf(pod);
            }
        });
    }

    @Override
    public String name() {
        return "start-kapi-disruption-controller";
    }

    @Override
    public void run() {
        controller.start();
        stalePods.start();
    }

    @Override
    public void close() {
        controller.close();
        stalePods.close();
    }

    /**
     * {@code nonTerminatingPodHasStaleDisruptionCondition}: a Pod marked DisruptionTarget True (not by the
     * kubelet), neither being deleted nor terminal; empty when it is not, else how long until the mark is stale.
     */
    Optional<Duration> staleIn(JsonNode pod) {
        String phase = pod.path("status").path("phase").asText("");
        if (Pods.terminating(pod) || phase.equals("Succeeded") || phase.equals("Failed")) {
            return Optional.empty();
        }
        for (JsonNode c : pod.path("status").path("conditions")) {
            if (c.path("type").asText().equals("DisruptionTarget")) {
                if (!c.path("status").asText().equals("True")
                        || c.path("reason").asText().equals("TerminationByKubelet")) {
                    return Optional.empty();
                }
                Instant since = c.hasNonNull("lastTransitionTime") ? Instant.parse(c.get("lastTransitionTime").asText())
                        : Instant.EPOCH;
                Duration wait = staleTimeout.minus(Duration.between(since, clock.instant()));
                return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
            }
        }
        return Optional.empty();
    }

    private void enqueueIfStale(ObjectNode pod) {
        staleIn(pod).ifPresent(wait -> stalePods.queue().addAfter(QueueController.key(pod), wait));
    }

    /** {@code syncStalePodDisruption}: a stale DisruptionTarget goes back to False (reason and message cleared). */
    private void syncStalePod(String key) {
        ObjectNode pod = podInformer.get(QueueController.namespace(key), QueueController.name(key)).orElse(null);
        if (pod == null) {
            return;
        }
        Optional<Duration> wait = staleIn(pod);
        if (wait.isEmpty()) {
            return;
        }
        if (wait.get().isPositive()) {
            stalePods.queue().addAfter(key, wait.get());
            return;
        }
        ObjectNode updated = typedPod(pod);
        for (JsonNode c : updated.with("status").withArray("conditions")) {
            if (c.path("type").asText().equals("DisruptionTarget")) {
                ObjectNode condition = (ObjectNode) c;
                condition.removeAll();
                condition.put("type", "DisruptionTarget");
                condition.put("status", "False");
                condition.putNull("lastProbeTime");
                condition.put("lastTransitionTime", ObjectMeta.format(clock.instant()));
            }
        }
        pods.update(updated, "status");
    }

    /** {@code getPdbForPod}: the budgets of the Pod's namespace whose selector picks it. */
    private void enqueueBudgetsOf(ObjectNode pod) {
        ObjectMeta meta = ObjectMeta.of(pod);
        for (ObjectNode budget : budgetInformer.list(meta.namespace())) {
            try {
                LabelSelector selector = LabelSelector.fromObject(budget.path("spec").path("selector"));
                if (selector.matches(meta.labels())) {
                    controller.enqueue(budget);
                }
            } catch (IllegalArgumentException e) {
                // a selector that does not convert picks no Pod
            }
        }
    }

    private void sync(String key) {
        ObjectNode budget = budgetInformer.get(QueueController.namespace(key), QueueController.name(key)).orElse(null);
        if (budget == null) {
            return;
        }
        budget = typed(budget);
        try {
            trySync(key, budget);
        } catch (ApiException e) {
            if (e.reason() == StatusReason.CONFLICT) {
                throw e;
            }
            failSafe(budget, e.getMessage());
        } catch (IllegalArgumentException | ScaleFinder.NoController e) {
            failSafe(budget, e.getMessage());
        }
    }

    private void trySync(String key, ObjectNode budget) {
        ObjectMeta meta = ObjectMeta.of(budget);
        JsonNode spec = budget.path("spec");
        LabelSelector selector = LabelSelector.fromObject(spec.path("selector"));
        List<ObjectNode> pods = podInformer.list(meta.namespace()).stream()
                .filter(p -> selector.matches(ObjectMeta.of(p).labels())).toList();
        if (pods.isEmpty()) {
            events.normal(budget, "NoPods", "No matching pods found");
        }
        ScaleFinder.Scale scale = new ScaleFinder.Scale();
        Budgets.Expected expected = Budgets.expected(spec, pods.size(), () -> scales.expectedScale(pods, scale));
        if (!scale.unmanaged().isEmpty()) {
            events.warning(budget, "UnmanagedPods", "Pods selected by this PodDisruptionBudget (selector: "
                    + goString(spec.path("selector")) + ") were found to be unmanaged. As a result, "
                    + "the status of the PDB cannot be calculated correctly, which may result in undefined behavior. "
                    + "To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.");
        }
        Instant now = clock.instant();
        Budgets.Disrupted disrupted = Budgets.disrupted(budget.path("status"), pods, now);
        for (String name : disrupted.expired()) {
            podInformer.get(meta.namespace(), name).ifPresent(pod -> events.warning(typedPod(pod), "NotDeleted",
                    // kube's message prints the budget's namespace twice (pdb.Namespace, pdb.Namespace): kept
                    "Pod was expected by PDB %s/%s to be deleted but it wasn't".formatted(meta.namespace(),
                            meta.namespace())));
        }
        int healthy = Budgets.currentHealthy(pods, disrupted.pods(), now);
        updateStatus(budget, healthy, expected, disrupted.pods(), now);
        disrupted.recheck().ifPresent(at -> controller.queue().addAfter(key,
                Duration.between(now, at).plusMillis(1)));
    }

    private void updateStatus(ObjectNode budget, int healthy, Budgets.Expected expected, Map<String, String> disrupted,
            Instant now) {
        JsonNode old = budget.path("status");
        long generation = ObjectMeta.of(budget).generation();
        Map<String, String> oldDisrupted = new HashMap<>();
        old.path("disruptedPods").properties().forEach(e -> oldDisrupted.put(e.getKey(), e.getValue().asText()));
        if (old.path("currentHealthy").asInt(0) == healthy
                && old.path("desiredHealthy").asInt(0) == expected.desiredHealthy()
                && old.path("expectedPods").asInt(0) == expected.expectedPods()
                && old.path("disruptionsAllowed").asInt(0) == Budgets.disruptionsAllowed(healthy,
                        expected.desiredHealthy(), expected.expectedPods())
                && oldDisrupted.equals(disrupted) && Budgets.conditionUpToDate(old, generation)) {
            return;
        }
        ObjectNode updated = budget.deepCopy();
        updated.set("status", Budgets.status(old, generation, healthy, expected, disrupted, now));
        budgets.update(updated, "status");
    }

    /** {@code failSafe}: no disruption allowed, condition DisruptionAllowed False SyncFailed with the error. */
    private void failSafe(ObjectNode budget, String error) {
        ObjectNode updated = budget.deepCopy();
        ObjectNode status = updated.with("status");
        status.put("disruptionsAllowed", 0);
        Budgets.setCondition(status.withArray("conditions"), "False", "SyncFailed", error,
                status.path("observedGeneration").asLong(0), clock.instant());
        budgets.update(updated, "status");
    }

    /** The selector as Go's {@code %v} prints a {@code *metav1.LabelSelector} (its generated {@code String()}). */
    static String goString(JsonNode selector) {
        if (selector.isMissingNode() || selector.isNull()) {
            return "nil";
        }
        StringBuilder b = new StringBuilder("&LabelSelector{MatchLabels:map[string]string{");
        new java.util.TreeMap<>(LabelSelector.labelsOf(selector.path("matchLabels")))
                .forEach((k, v) -> b.append(k).append(": ").append(v).append(','));
        b.append("},MatchExpressions:[]LabelSelectorRequirement{");
        for (JsonNode e : selector.path("matchExpressions")) {
            List<String> values = new java.util.ArrayList<>();
            e.path("values").forEach(v -> values.add(v.asText()));
            b.append("LabelSelectorRequirement{Key:").append(e.path("key").asText()).append(",Operator:")
                    .append(e.path("operator").asText()).append(",Values:[").append(String.join(" ", values))
                    .append("],},");
        }
        return b.append("},}").toString();
    }

    private static ObjectNode typed(ObjectNode budget) {
        ObjectNode copy = budget.deepCopy();
        copy.put("apiVersion", "policy/v1");
        copy.put("kind", "PodDisruptionBudget");
        return copy;
    }

    private static ObjectNode typedPod(ObjectNode pod) {
        ObjectNode copy = pod.deepCopy();
        copy.put("apiVersion", "v1");
        copy.put("kind", "Pod");
        return copy;
    }
}
