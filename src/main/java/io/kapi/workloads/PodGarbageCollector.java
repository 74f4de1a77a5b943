package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
import io.kapi.informers.Informer;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.registry.DeleteOptions;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-controller-manager's pod garbage collector ({@code pod-garbage-collector-controller}), a pass every
 * {@link #PERIOD} over the Pods the informer holds: beyond {@code terminatedPodThreshold} terminated Pods
 * (Succeeded or Failed), the oldest (evicted ones first) go; terminating Pods on a Node that is not Ready and
 * tainted {@code node.kubernetes.io/out-of-service} go; Pods bound to a Node that does not exist go, once
 * the Node is still missing after a {@link #QUARANTINE} and a GET of it says so (marked with condition
 * DisruptionTarget, reason DeletionByPodGC); terminating Pods never scheduled go. Each is first marked
 * {@code Failed} by a server-side apply of its status as field manager {@code PodGC} (unless already
 * terminal), then deleted with no grace period.
 */
final class PodGarbageCollector implements WorkloadController {

    private static final System.Logger LOG = System.getLogger(PodGarbageCollector.class.getName());
    /** kube's {@code gcCheckPeriod}. */
    static final Duration PERIOD = Duration.ofSeconds(20);
    /** kube's {@code quarantineTime}: how long a Node may be missing from the informer before it is looked up. */
    static final Duration QUARANTINE = Duration.ofSeconds(40);
    /** kube-controller-manager's {@code --terminated-pod-gc-threshold} default. */
    static final int THRESHOLD = 12500;
    private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");

    private final ResourceClient pods;
    private final ResourceClient nodes;
    private final Informer podInformer;
    private final Informer nodeInformer;
    private final Clock clock;
    private final int threshold;
    private final Duration quarantine;
    private final Map<String, Instant> quarantined = new ConcurrentHashMap<>();
    private Thread loop;

    PodGarbageCollector(LocalClient client, SharedInformers informers, Clock clock, int threshold,
            Duration quarantine) {
        this.pods = client.resource(ReplicaSetController.PODS);
        this.nodes = client.resource(NODES);
        this.podInformer = informers.informer(ReplicaSetController.PODS);
        this.nodeInformer = informers.informer(NODES);
        this.clock = clock;
        this.threshold = threshold;
        this.quarantine = quarantine;
    }

    @Override
    public String name() {
        return "start-kapi-pod-garbage-collector";
    }

    @Override
    public synchronized void run() {
        if (loop == null) {
            loop = Thread.ofVirtual().name("pod-garbage-collector").start(() -> {
                try {
                    while (true) {
                        Thread.sleep(PERIOD);
                        try {
                            gc();
                        } catch (RuntimeException e) {
                            LOG.log(Level.DEBUG, "pod garbage collection failed: {0}", e.toString());
                        }
                    }
                } catch (InterruptedException e) {
                    // closed
                }
            });
        }
    }

    @Override
    public synchronized void close() {
        if (loop != null) {
            loop.interrupt();
        }
    }

    /** One pass. */
    void gc() {
        List<ObjectNode> all = podInformer.list("");
        Set<String> existing = new HashSet<>();
        nodeInformer.list("").forEach(n -> existing.add(ObjectMeta.of(n).name()));
        if (threshold > 0) {
            gcTerminated(all);
        }
        gcTerminatingOutOfService(all);
        gcOrphaned(all, existing);
        for (ObjectNode pod : all) {
            if (Pods.terminating(pod) && nodeName(pod).isEmpty()) {
                delete(pod, null);
            }
        }
    }

    private static String nodeName(JsonNode pod) {
        return pod.path("spec").path("nodeName").asText("");
    }

    static boolean terminated(JsonNode pod) {
        String phase = pod.path("status").path("phase").asText("");
        return !phase.equals("Pending") && !phase.equals("Running") && !phase.equals("Unknown");
    }

    /** {@code byEvictionAndCreationTimestamp}: evicted Pods first, then the oldest, then by name. */
    static final Comparator<JsonNode> OLDEST_FIRST = Comparator
            .<JsonNode>comparingInt(p -> p.path("status").path("phase").asText().equals("Failed")
                    && p.path("status").path("reason").asText().equals("Evicted") ? 0 : 1)
            .thenComparing(p -> Instant.parse(p.path("metadata").path("creationTimestamp").asText("1970-01-01T00:00:00Z")))
            .thenComparing(p -> p.path("metadata").path("name").asText());

    private void gcTerminated(List<ObjectNode> all) {
        List<ObjectNode> terminated = new ArrayList<>(all.stream().filter(PodGarbageCollector::terminated).toList());
        int excess = terminated.size() - threshold;
        if (excess <= 0) {
            return;
        }
        terminated.sort(OLDEST_FIRST);
        terminated.subList(0, excess).forEach(p -> delete(p, null));
    }

    private void gcTerminatingOutOfService(List<ObjectNode> all) {
        List<ObjectNode> victims = new ArrayList<>();
        for (ObjectNode pod : all) {
            if (!Pods.terminating(pod) || nodeName(pod).isEmpty()) {
                continue;
            }
            nodeInformer.get("", nodeName(pod)).filter(n -> !nodeReady(n) && outOfService(n))
                    .ifPresent(n -> victims.add(pod));
        }
        victims.sort(OLDEST_FIRST);
        victims.forEach(p -> delete(p, null));
    }

    private static boolean nodeReady(JsonNode node) {
        for (JsonNode c : node.path("status").path("conditions")) {
            if (c.path("type").asText().equals("Ready")) {
                return c.path("status").asText().equals("True");
            }
        }
        return false;
    }

    private static boolean outOfService(JsonNode node) {
        for (JsonNode t : node.path("spec").path("taints")) {
            if (t.path("key").asText().equals("node.kubernetes.io/out-of-service")) {
                return true;
            }
        }
        return false;
    }

    /** {@code gcOrphaned}: quarantine the Nodes newly missing; Pods of those still missing after it go. */
    private void gcOrphaned(List<ObjectNode> all, Set<String> existing) {
        Instant now = clock.instant();
        for (ObjectNode pod : all) {
            String node = nodeName(pod);
            if (!node.isEmpty() && !existing.contains(node)) {
                quarantined.putIfAbsent(node, now.plus(quarantine));
            }
        }
        Set<String> deleted = new HashSet<>();
        for (Iterator<Map.Entry<String, Instant>> it = quarantined.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Instant> e = it.next();
            if (e.getValue().isAfter(now)) {
                continue;
            }
            it.remove();
            if (!existing.contains(e.getKey()) && nodes.find("", e.getKey()).isEmpty()) {
                deleted.add(e.getKey());
            }
        }
        for (ObjectNode pod : all) {
            if (deleted.contains(nodeName(pod))) {
                ObjectNode condition = Json.object();
                condition.put("type", "DisruptionTarget");
                condition.put("status", "True");
                condition.put("reason", "DeletionByPodGC");
                condition.put("message", "PodGC: node no longer exists");
                condition.put("lastTransitionTime", ObjectMeta.format(clock.instant()));
                delete(pod, condition);
            }
        }
    }

    /** {@code markFailedAndDeletePodWithCondition}. */
    private void delete(ObjectNode pod, ObjectNode condition) {
        ObjectMeta meta = ObjectMeta.of(pod);
        LOG.log(Level.DEBUG, "PodGC is force deleting Pod {0}/{1}", meta.namespace(), meta.name());
        try {
            String phase = pod.path("status").path("phase").asText("");
            if (!phase.equals("Succeeded") && !phase.equals("Failed")) {
                ObjectNode apply = Json.object();
                apply.put("apiVersion", "v1");
                apply.put("kind", "Pod");
                apply.putObject("metadata").put("name", meta.name()).put("namespace", meta.namespace());
                ObjectNode status = apply.putObject("status");
                status.put("phase", "Failed");
                if (condition != null) {
                    status.putArray("conditions").add(condition);
                }
                pods.patch(meta.namespace(), meta.name(), "status", "application/apply-patch+yaml",
                        Map.of("fieldManager", "PodGC", "force", "true"), apply);
            }
            pods.delete(meta.namespace(), meta.name(), new DeleteOptions(null, null, false, null, 0L));
        } catch (ApiException e) {
            if (e.reason() != StatusReason.NOT_FOUND) {
                LOG.log(Level.DEBUG, "PodGC: deleting {0}/{1} failed: {2}", meta.namespace(), meta.name(),
                        e.getMessage());
            }
        }
    }
}
