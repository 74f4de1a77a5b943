package io.kapi.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.LocalClient;
import io.kapi.health.PostStartHook;
import io.kapi.informers.EventHandler;
import io.kapi.informers.Informer;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.labels.LabelSelector;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Kapi's kube-scheduler: Pods whose {@code schedulerName} is {@code default-scheduler} and that name no
 * Node are taken from the {@link SchedulingQueue} one at a time, placed by the default profile's
 * plugins ({@link Algorithm}) against the {@link SchedulerCache}, assumed there and bound in the
 * background through {@code pods/binding}; a Pod no Node fits may preempt Pods of lower priority
 * ({@link Preemption}), and gets {@code PodScheduled=False} and a {@code FailedScheduling} event worded as
 * kube's. It acts through the API as {@code system:kube-scheduler}, so RBAC and admission apply to it as
 * to kube-scheduler; it takes no part in leader election.
 */
public final class Scheduler implements PostStartHook, AutoCloseable {

    /** kube's default {@code schedulerName}, and the events' {@code reportingController}. */
    public static final String NAME = "default-scheduler";
    private static final System.Logger LOG = System.getLogger(Scheduler.class.getName());
    static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
    private static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    private static final GroupVersionResource BUDGETS = new GroupVersionResource("policy", "v1", "poddisruptionbudgets");
    private static final GroupVersionResource EVENTS = new GroupVersionResource("events.k8s.io", "v1", "events");

    private final Informer pods;
    private final Informer nodes;
    private final Informer namespaces;
    private final Informer budgets;
    private final DefaultSpreading spreading;
    private final PodWrites writes;
    private final SchedulerEvents events;
    private final SchedulerCache cache = new SchedulerCache();
    private final SchedulingQueue queue = new SchedulingQueue(System::nanoTime);
    private final Algorithm algorithm = new Algorithm(Algorithm.DEFAULT_PROFILE);
    private final Nominations nominations = new Nominations();
    private Thread loop;
    private volatile boolean closed;

    /** @param client acting as {@code system:kube-scheduler} */
    public Scheduler(LocalClient client, SharedInformers informers, Clock clock) {
        this.pods = informers.informer(PODS);
        this.nodes = informers.informer(NODES);
        this.namespaces = informers.informer(NAMESPACES);
        this.budgets = informers.informer(BUDGETS);
        this.spreading = new DefaultSpreading(informers);
        this.writes = new PodWrites(client.resource(PODS), clock);
        this.events = new SchedulerEvents(client.resource(EVENTS), clock, NAME + "-kapi");
    }

    @Override
    public String name() {
        return "start-kapi-scheduler";
    }

    @Override
    public synchronized void run() {
        if (loop != null) {
            return;
        }
        nodes.addHandler(new NodeEvents());
        pods.addHandler(new PodEvents());
        loop = Thread.ofVirtual().name("scheduler").start(this::schedulingLoop);
    }

    private void schedulingLoop() {
        while (!closed) {
            SchedulingQueue.Entry e;
            try {
                e = queue.pop(Duration.ofSeconds(1));
            } catch (InterruptedException ex) {
                return;
            }
            if (e == null) {
                continue;
            }
            try {
                scheduleOne(e);
            } catch (RuntimeException ex) {
                LOG.log(Level.WARNING, "scheduling cycle of " + e.pod.key() + " failed", ex);
                queue.failed(e, true); // retried after its backoff, as kube's handleSchedulingFailure does
            }
        }
    }

    /** Whether this scheduler places {@code pod}: ours, unbound, not being deleted, with no scheduling gates. */
    static boolean responsible(JsonNode pod) {
        JsonNode spec = pod.path("spec");
        return spec.path("schedulerName").asText(NAME).equals(NAME) && spec.path("nodeName").asText("").isEmpty()
                && pod.path("metadata").path("deletionTimestamp").asText("").isEmpty()
                && spec.path("schedulingGates").isEmpty();
    }

    private void scheduleOne(SchedulingQueue.Entry e) {
        PodInfo pod = e.pod;
        ObjectNode latest = pods.get(pod.namespace(), pod.name()).orElse(null);
        if (latest == null || !responsible(latest) || cache.isAssumedOrBound(pod.key())) {
            queue.done(pod.key());
            return;
        }
        if (latest != pod.pod()) {
            pod = PodInfo.of(latest);
            e.pod = pod;
        }
        PodInfo scheduling = pod;
        Outcome outcome = cache.cycle((list, index) -> {
            Cycle cycle = new Cycle(scheduling, list, index, this::namespaceLabels, spreading::selector)
                    .withNominations(nominations);
            Decision d = algorithm.schedule(cycle);
            if (d instanceof Decision.Fit fit) {
                cache.assume(scheduling, fit.node().name());
                return new Outcome(d, null);
            }
            Decision.Unfit unfit = (Decision.Unfit) d;
            if (unfit.allNodes() == 0) {
                return new Outcome(d, null);
            }
            Preemption.Outcome p = terminatingOnNominated(scheduling, list)
                    ? new Preemption.Outcome(null, List.of(), "not eligible due to a terminating pod on the nominated node.")
                    : Preemption.preempt(algorithm, cycle, unfit, budgets());
            return new Outcome(d, p);
        });
        switch (outcome.decision()) {
            case Decision.Fit fit -> bindInBackground(e, scheduling, fit.node().name());
            case Decision.Unfit unfit -> unschedulable(e, scheduling, unfit, outcome.preemption());
        }
    }

    private record Outcome(Decision decision, Preemption.Outcome preemption) {
    }

    private void bindInBackground(SchedulingQueue.Entry e, PodInfo pod, String node) {
        Thread.ofVirtual().name("scheduler-bind").start(() -> {
            try {
                writes.bind(pod, node);
                queue.done(pod.key());
                events.record(pod.pod(), "Normal", "Scheduled", "Binding",
                        "Successfully assigned " + pod.namespace() + "/" + pod.name() + " to " + node);
            } catch (ApiException ex) {
                LOG.log(Level.DEBUG, "binding {0} to {1} failed: {2}", pod.key(), node, ex.getMessage());
                cache.forget(pod.key());
                if (ex.reason() == StatusReason.NOT_FOUND) {
                    queue.done(pod.key());
                } else {
                    queue.failed(e, true);
                }
            }
        });
    }

    private void unschedulable(SchedulingQueue.Entry e, PodInfo pod, Decision.Unfit unfit, Preemption.Outcome p) {
        String nominated = null;
        String postFilter = null;
        if (p != null) {
            if (p.node() != null) {
                nominated = p.node().name();
                nominations.set(pod, nominated);
                for (PodInfo victim : p.victims()) {
                    evict(pod, victim, nominated);
                }
            } else {
                postFilter = FitMessage.postFilter(p.message());
            }
        }
        String message = FitMessage.of(unfit.allNodes(), unfit.rejections(), postFilter);
        try {
            writes.unschedulable(pod.pod(), message, nominated);
        } catch (ApiException ex) {
            LOG.log(Level.DEBUG, "status of {0} not written: {1}", pod.key(), ex.getMessage());
        }
        events.record(pod.pod(), "Warning", "FailedScheduling", "Scheduling", message);
        queue.failed(e, false);
    }

    private void evict(PodInfo preemptor, PodInfo victim, String node) {
        try {
            writes.evict(victim);
            events.record(victim.pod(), "Normal", "Preempted", "Preempting",
                    "Preempted by pod " + preemptor.uid() + " on node " + node);
        } catch (ApiException ex) {
            LOG.log(Level.DEBUG, "preemption of {0} failed: {1}", victim.key(), ex.getMessage());
        }
    }

    /** kube's {@code PodEligibleToPreemptOthers}: a lower-priority Pod still terminating on the nominated Node. */
    private static boolean terminatingOnNominated(PodInfo pod, List<NodeInfo> list) {
        String nominated = pod.pod().path("status").path("nominatedNodeName").asText("");
        if (nominated.isEmpty()) {
            return false;
        }
        for (NodeInfo n : list) {
            if (n.name().equals(nominated)) {
                for (PodInfo p : n.pods.values()) {
                    if (p.priority() < pod.priority()
                            && !p.pod().path("metadata").path("deletionTimestamp").asText("").isEmpty()) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private Map<String, String> namespaceLabels(String namespace) {
        return namespaces.get("", namespace).map(n -> LabelSelector.labelsOf(n.path("metadata").path("labels")))
                .orElse(Map.of());
    }

    private List<ObjectNode> budgets() {
        return budgets.list("");
    }

    /** Nodes to the cache; a change that may let a Pod fit moves the unschedulable Pods on. */
    private final class NodeEvents implements EventHandler {
        @Override
        public void onAdd(ObjectNode node) {
            cache.putNode(node);
            queue.moveAllToActiveOrBackoff();
        }

        @Override
        public void onUpdate(ObjectNode before, ObjectNode after) {
            cache.putNode(after);
            if (!Objects.equals(before.path("spec"), after.path("spec"))
                    || !Objects.equals(before.path("metadata").path("labels"), after.path("metadata").path("labels"))
                    || !Objects.equals(before.path("status").path("allocatable"), after.path("status").path("allocatable"))) {
                queue.moveAllToActiveOrBackoff();
            }
        }

        @Override
        public void onDelete(ObjectNode node) {
            cache.removeNode(ObjectMeta.of(node).name());
        }
    }

    /** Bound Pods to the cache, Pods to place to the queue. */
    private final class PodEvents implements EventHandler {
        @Override
        public void onAdd(ObjectNode pod) {
            if (!pod.path("spec").path("nodeName").asText("").isEmpty()) {
                cache.putPod(pod);
                queue.moveAllToActiveOrBackoff(); // a Pod a waiting one's affinity asks for may have come
            } else if (responsible(pod)) {
                PodInfo info = PodInfo.of(pod);
                nominations.set(info, pod.path("status").path("nominatedNodeName").asText(""));
                queue.add(info);
            }
        }

        @Override
        public void onUpdate(ObjectNode before, ObjectNode after) {
            String key = ObjectMeta.of(after).namespace() + "/" + ObjectMeta.of(after).name();
            if (!after.path("spec").path("nodeName").asText("").isEmpty()) {
                cache.putPod(after);
                queue.delete(key);
                nominations.remove(key);
                String phase = after.path("status").path("phase").asText("");
                boolean terminated = (phase.equals("Succeeded") || phase.equals("Failed"))
                        && !phase.equals(before.path("status").path("phase").asText(""));
                // kube's AssignedPodAdd (a Pod newly bound) and AssignedPodUpdate (relabelled): affinity may fit now
                boolean bound = before.path("spec").path("nodeName").asText("").isEmpty();
                boolean relabelled = !Objects.equals(before.path("metadata").path("labels"),
                        after.path("metadata").path("labels"));
                if (terminated || bound || relabelled) {
                    queue.moveAllToActiveOrBackoff();
                }
            } else if (responsible(after)) {
                String nominated = after.path("status").path("nominatedNodeName").asText("");
                if (!nominated.equals(before.path("status").path("nominatedNodeName").asText(""))) {
                    nominations.set(PodInfo.of(after), nominated);
                }
                if (!Objects.equals(before.path("spec"), after.path("spec"))
                        || !Objects.equals(before.path("metadata").path("labels"), after.path("metadata").path("labels"))) {
                    queue.add(PodInfo.of(after));
                }
            } else {
                queue.delete(key);
                nominations.remove(key);
            }
        }

        @Override
        public void onDelete(ObjectNode pod) {
            String key = ObjectMeta.of(pod).namespace() + "/" + ObjectMeta.of(pod).name();
            queue.delete(key);
            nominations.remove(key);
            if (cache.isAssumedOrBound(key)) {
                cache.removePod(key);
                queue.moveAllToActiveOrBackoff();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        queue.close();
        Thread t = loop;
        if (t != null) {
            t.interrupt();
        }
    }
}
