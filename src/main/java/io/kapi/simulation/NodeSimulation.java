package io.kapi.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.LocalClient;
import io.kapi.health.PostStartHook;
import io.kapi.informers.EventHandler;
import io.kapi.informers.Informer;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.StatusReason;
import io.kapi.user.UserInfo;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Simulated nodes and their kubelets, in the server: registers the configured nodes, takes over any Node
 * annotated {@code kapi.dev/simulated: "true"} (or KWOK's {@code kwok.x-k8s.io/node: fake}) and lets go of
 * one that is deleted. Each node acts through the API as {@code system:node:<name>} in {@code system:nodes},
 * as a kubelet does: it registers its Node (Pod CIDR included, there being no node IPAM controller), renews
 * its Lease every 10 s (spread over the interval, so that 1,000 nodes make 100 even renewals a second) and
 * reports its status every 5 minutes (kubelet's {@code nodeStatusReportFrequency}); its Pods are run by the
 * {@link Kubelet}.
 */
public final class NodeSimulation implements PostStartHook, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(NodeSimulation.class.getName());
    /** How many nodes register at once. */
    private static final int PARALLEL = 8;
    private static final String NOT_READY = "node.kubernetes.io/not-ready";
    static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
    static final GroupVersionResource LEASES = new GroupVersionResource("coordination.k8s.io", "v1", "leases");
    /** The user agent kubelet sends; its first word names the field manager ({@code kubelet}). */
    public static final String AGENT = "kubelet/" + NodeTemplate.KUBELET_VERSION + " (linux/amd64) kubernetes/kapi";

    private final SimulationConfig config;
    private final LocalClient nodeController;
    private final Function<UserInfo, LocalClient> clientFor;
    private final SharedInformers informers;
    private final Clock clock;
    private final Map<String, SimulatedNode> nodes = new ConcurrentHashMap<>();
    private final BitSet indices = new BitSet();
    private final ScheduledExecutorService beats;
    private Kubelet kubelet;
    private boolean watching;
    private volatile boolean closed;

    /**
     * @param clientFor a client acting as the given user (the loopback's)
     * @param nodeController the client of kube-controller-manager's node lifecycle controller, which takes
     *        the {@code not-ready} taint TaintNodesByCondition put on a new Node off once it reports Ready
     */
    public NodeSimulation(SimulationConfig config, Function<UserInfo, LocalClient> clientFor,
                          LocalClient nodeController, SharedInformers informers, Clock clock) {
        this.nodeController = nodeController;
        this.config = config;
        this.clientFor = clientFor;
        this.informers = informers;
        this.clock = clock;
        this.beats = Executors.newScheduledThreadPool(1, Thread.ofVirtual().name("simulated-node-heartbeats").factory());
    }

    /** kube's identity of a node's kubelet. */
    public static UserInfo identity(String node) {
        return new UserInfo("system:node:" + node, "", List.of("system:nodes", "system:authenticated"));
    }

    @Override
    public String name() {
        return "start-kapi-simulated-nodes";
    }

    @Override
    public void run() throws Exception {
        watchNodes();
        List<Runnable> registrations = new java.util.ArrayList<>();
        int i = 0;
        for (NodeGroup group : config.groups()) {
            for (String name : group.names()) {
                int ordinal = i++;
                if (!nodes.containsKey(name)) {
                    registrations.add(() -> register(name, group.shape(), ordinal));
                }
            }
        }
        registerAll(registrations);
    }

    /** Follows Nodes (once): takes over those annotated for the simulation, lets go of deleted ones. */
    private synchronized void watchNodes() {
        if (watching) {
            return;
        }
        watching = true;
        Informer nodeInformer = informers.informer(NODES);
        nodeInformer.addHandler(new EventHandler() {
            @Override
            public void onAdd(ObjectNode node) {
                consider(node);
            }

            @Override
            public void onUpdate(ObjectNode before, ObjectNode after) {
                consider(after);
            }

            @Override
            public void onDelete(ObjectNode node) {
                forget(node.path("metadata").path("name").asText());
            }
        });
    }

    /**
     * Registers the nodes {@link #PARALLEL} at a time, as so many kubelets starting together would: the hook
     * returns (and the server is ready) once every one is registered.
     */
    private void registerAll(List<Runnable> registrations) throws Exception {
        java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(PARALLEL);
        List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Runnable r : registrations) {
                slots.acquire();
                done.add(pool.submit(() -> {
                    try {
                        r.run();
                    } finally {
                        slots.release();
                    }
                }));
            }
            for (var f : done) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw e.getCause() instanceof Exception x ? x : e;
                }
            }
        }
        LOG.log(Level.DEBUG, "{0} simulated nodes registered", registrations.size());
    }

    /** Registers configured node {@code ordinal} (or takes over its Node, left by an earlier run). */
    private void register(String name, NodeShape shape, int ordinal) {
        int index = claim(ordinal);
        SimulatedNode n = node(name, shape, null, null, index, null, null);
        kubelet();
        nodes.put(name, n);
        var client = n.client().resource(NODES);
        try {
            ObjectNode created = client.create("", NodeTemplate.node(n, clock.instant()));
            n.uid = created.path("metadata").path("uid").asText();
            n.lastReport = clock.instant();
            untaint(created);
        } catch (ApiException e) {
            if (e.reason() != StatusReason.ALREADY_EXISTS) {
                nodes.remove(name);
                throw e;
            }
            nodes.remove(name);
            release(index);
            adopt(client.get("", name));
            return;
        }
        heartbeat(n);
    }

    private void consider(ObjectNode node) {
        String name = node.path("metadata").path("name").asText();
        if (nodes.containsKey(name) && notReadyTaint(node)) {
            Thread.ofVirtual().name("simulated-node-ready").start(() -> {
                untaint(node);
            });
        }
        if (!closed && !nodes.containsKey(name) && Annotations.simulatedNode(node)
                && !node.path("metadata").hasNonNull("deletionTimestamp")) {
            Thread.ofVirtual().name("simulated-node-adopt").start(() -> {
                try {
                    adopt(node);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "Could not take over node {0}: {1}", name, e.getMessage());
                }
            });
        }
    }

    /**
     * Takes over a Node someone else created: its capacity, topology, Pod CIDR and address where it gives
     * them, the simulation's where not; writes what is missing and reports it Ready.
     */
    private synchronized void adopt(JsonNode node) {
        String name = node.path("metadata").path("name").asText();
        if (nodes.containsKey(name) || closed) {
            return;
        }
        int index = claim(-1);
        JsonNode capacity = node.path("status").path("capacity");
        NodeShape d = config.defaults();
        NodeShape shape = new NodeShape(capacity.path("cpu").asText(d.cpu()), capacity.path("memory").asText(d.memory()),
                capacity.path("pods").asInt(d.pods()), capacity.path("ephemeral-storage").asText(d.ephemeralStorage()),
                null, null, null, Map.of(), List.of());
        JsonNode labels = node.path("metadata").path("labels");
        String cidr = node.path("spec").path("podCIDR").asText("");
        String hostIp = null;
        for (JsonNode a : node.path("status").path("addresses")) {
            if (a.path("type").asText().equals("InternalIP")) {
                hostIp = a.path("address").asText();
            }
        }
        SimulatedNode n = node(name, shape, labels.path("topology.kubernetes.io/zone").asText(null),
                labels.path("topology.kubernetes.io/region").asText(null), index, cidr.isEmpty() ? null : cidr, hostIp);
        var client = n.client().resource(NODES);
        ObjectNode patch = Json.object();
        ObjectNode wantedLabels = (ObjectNode) NodeTemplate.node(n, clock.instant()).path("metadata").path("labels");
        ObjectNode missing = Json.object();
        wantedLabels.properties().forEach(e -> {
            if (!labels.has(e.getKey())) {
                missing.set(e.getKey(), e.getValue());
            }
        });
        if (!missing.isEmpty()) {
            patch.putObject("metadata").set("labels", missing);
        }
        if (cidr.isEmpty()) {
            patch.putObject("spec").put("podCIDR", n.podCidr()).putArray("podCIDRs").add(n.podCidr());
        }
        ObjectNode written = patch.isEmpty() ? (ObjectNode) node
                : client.patch("", name, "", "application/merge-patch+json", Map.of(), patch);
        n.uid = written.path("metadata").path("uid").asText();
        nodes.put(name, n);
        reportStatus(n);
        untaint(nodeController.resource(NODES).get("", name));
        heartbeat(n);
        kubelet().resync(name);
    }

    /**
     * {@link #ready}; a failure (a conflict, or RBAC not yet seeing the node controller's bootstrap binding just
     * after a start) is retried on the current Node after a back-off of 100 ms doubling to 5 s, as long as the
     * node is simulated: the Node's next event may be minutes away (its next status report).
     */
    private void untaint(JsonNode node) {
        try {
            ready(node);
        } catch (RuntimeException e) {
            retryUntaint(node.path("metadata").path("name").asText(), e, 100);
        }
    }

    private void retryUntaint(String name, RuntimeException failure, long backoffMillis) {
        LOG.log(Level.DEBUG, "Could not untaint node {0}: {1}; retrying in {2} ms", name, failure.getMessage(),
                backoffMillis);
        if (closed || failure instanceof ApiException api && api.code() == 404) {
            return;
        }
        beats.schedule(() -> {
            if (closed || !nodes.containsKey(name)) {
                return;
            }
            try {
                ready(nodeController.resource(NODES).get("", name));
            } catch (RuntimeException again) {
                retryUntaint(name, again, Math.min(backoffMillis * 2, 5_000));
            }
        }, backoffMillis, TimeUnit.MILLISECONDS);
    }

    private static boolean notReadyTaint(JsonNode node) {
        for (JsonNode t : node.path("spec").path("taints")) {
            if (t.path("key").asText().equals(NOT_READY) && t.path("effect").asText().equals("NoSchedule")) {
                return true;
            }
        }
        return false;
    }

    private void ready(JsonNode node) {
        JsonNode taints = node.path("spec").path("taints");
        var kept = Json.object().arrayNode();
        for (JsonNode t : taints) {
            if (!(t.path("key").asText().equals(NOT_READY) && t.path("effect").asText().equals("NoSchedule"))) {
                kept.add(t);
            }
        }
        if (kept.size() == taints.size()) {
            return;
        }
        ObjectNode next = ((ObjectNode) node).deepCopy();
        if (kept.isEmpty()) {
            ((ObjectNode) next.path("spec")).remove("taints");
        } else {
            ((ObjectNode) next.path("spec")).set("taints", kept);
        }
        next.put("apiVersion", "v1");
        next.put("kind", "Node");
        nodeController.resource(NODES).update(next);
    }

    /** The kubelets, started with the first simulated node: a server without one watches no Pod. */
    private synchronized Kubelet kubelet() {
        if (kubelet == null) {
            kubelet = new Kubelet(nodes, informers, new PodStages(config), clock);
            kubelet.start();
        }
        return kubelet;
    }

    private SimulatedNode node(String name, NodeShape shape, String zone, String region, int index, String cidr,
                               String hostIp) {
        List<String> zones = config.zones();
        return new SimulatedNode(name, shape,
                zone != null ? zone : shape.zone() != null ? shape.zone() : zones.get(index % zones.size()),
                region != null ? region : shape.region() != null ? shape.region() : config.region(),
                cidr != null ? cidr : SimulatedNode.podCidr(index), hostIp != null ? hostIp : SimulatedNode.hostIp(index),
                clock.instant(), clientFor.apply(identity(name)));
    }

    /** The number for a node: {@code wanted} when free (a configured node's ordinal), else the lowest free one. */
    private synchronized int claim(int wanted) {
        int index = wanted >= 0 && !indices.get(wanted) ? wanted : indices.nextClearBit(0);
        if (index >= SimulatedNode.MAX_NODES) {
            throw new IllegalStateException("the simulation numbers at most " + SimulatedNode.MAX_NODES + " nodes");
        }
        indices.set(index);
        return index;
    }

    private synchronized void release(int index) {
        indices.clear(index);
    }

    private void forget(String name) {
        SimulatedNode n = nodes.remove(name);
        if (n != null && n.heartbeat != null) {
            n.heartbeat.cancel(false);
        }
    }

    /** Renews the node's Lease every {@code leaseRenew}, the first time at an offset spreading the nodes. */
    private void heartbeat(SimulatedNode n) {
        long period = config.leaseRenew().toMillis();
        long offset = Math.floorMod(n.name().hashCode(), (int) period);
        try {
            renew(n);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "First Lease of simulated node {0} failed: {1}; retried at its next beat", n.name(),
                    e.getMessage());
        }
        n.heartbeat = beats.scheduleAtFixedRate(() -> beat(n), offset, period, TimeUnit.MILLISECONDS);
    }

    private void beat(SimulatedNode n) {
        if (closed || nodes.get(n.name()) != n) {
            return;
        }
        try {
            renew(n);
            if (Duration.between(n.lastReport, clock.instant()).compareTo(config.statusReport()) >= 0) {
                reportStatus(n);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "Heartbeat of simulated node {0} failed: {1}", n.name(), e.getMessage());
        }
    }

    /** kubelet's lease controller: an update of the Lease last written, or a fresh read after a conflict. */
    private void renew(SimulatedNode n) {
        var leases = n.client().resource(LEASES);
        Instant now = clock.instant();
        ObjectNode lease = n.lease;
        try {
            if (lease == null) {
                lease = leases.find(NodeTemplate.LEASE_NAMESPACE, n.name()).orElse(null);
                if (lease == null) {
                    n.lease = leases.create(NodeTemplate.LEASE_NAMESPACE, NodeTemplate.lease(n, n.uid, now));
                    return;
                }
            }
            ObjectNode next = lease.deepCopy();
            ObjectNode spec = next.with("spec");
            spec.put("holderIdentity", n.name());
            spec.put("leaseDurationSeconds", NodeTemplate.LEASE_SECONDS);
            spec.put("renewTime", NodeTemplate.micro(now));
            n.lease = leases.update(next);
        } catch (ApiException e) {
            n.lease = null;
            throw e;
        }
    }

    private void reportStatus(SimulatedNode n) {
        ObjectNode patch = Json.object();
        patch.set("status", NodeTemplate.status(n, clock.instant()));
        n.client().resource(NODES).patch("", n.name(), "status", "application/merge-patch+json", Map.of(), patch);
        n.lastReport = clock.instant();
    }

    @Override
    public synchronized void close() {
        closed = true;
        beats.shutdownNow();
        if (kubelet != null) {
            kubelet.close();
        }
    }
}
