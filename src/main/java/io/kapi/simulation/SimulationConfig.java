package io.kapi.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoDuration;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The simulated nodes to register and how their kubelets behave: {@code --simulated-nodes=N} adds
 * {@code N} nodes of the default shape named {@code namePrefix0} …, {@code --simulated-nodes-config} reads
 * the rest from a YAML file:
 *
 * <pre>
 * namePrefix: kapi-node-            # names of the --simulated-nodes nodes
 * zones: [zone-a, zone-b, zone-c]   # topology.kubernetes.io/zone, spread over the nodes in turn
 * region: kapi-region
 * defaults: {cpu: "4", memory: 16Gi, pods: 110, ephemeralStorage: 100Gi}
 * nodes:
 *   - {namePrefix: big-, count: 2, cpu: "16", memory: 64Gi, zone: zone-a,
 *      labels: {node.kubernetes.io/pool: big}, taints: [{key: dedicated, value: big, effect: NoSchedule}]}
 *   - {name: edge, cpu: "2", memory: 4Gi}
 * jobRunFor: 1s        # containers of Pods a Job owns finish after this (0: they run until told)
 * stopDelay: 500ms     # a deleted Pod's containers stop after this (or its grace period, if shorter)
 * restartBackoff: 10s  # kubelet's first crash-loop back-off, doubled at each restart up to 5 min
 * </pre>
 */
public record SimulationConfig(String namePrefix, NodeShape defaults, List<NodeGroup> groups, List<String> zones,
                               String region, Duration jobRunFor, Duration stopDelay, Duration restartBackoff,
                               Duration leaseRenew, Duration statusReport) {

    public static final String DEFAULT_PREFIX = "kapi-node-";
    public static final List<String> DEFAULT_ZONES = List.of("kapi-zone-a", "kapi-zone-b", "kapi-zone-c");
    public static final String DEFAULT_REGION = "kapi-region";

    /** No simulated node; the kubelets still take over Nodes annotated {@code kapi.dev/simulated}. */
    public static final SimulationConfig NONE = new SimulationConfig(DEFAULT_PREFIX, NodeShape.DEFAULT, List.of(),
            DEFAULT_ZONES, DEFAULT_REGION, Duration.ofSeconds(1), Duration.ofMillis(500), Duration.ofSeconds(10),
            Duration.ofSeconds(10), Duration.ofMinutes(5));

    private static final Set<String> TOP_KEYS = Set.of("namePrefix", "zones", "region", "defaults", "nodes",
            "jobRunFor", "stopDelay", "restartBackoff");
    private static final Set<String> SHAPE_KEYS = Set.of("name", "namePrefix", "count", "cpu", "memory", "pods",
            "ephemeralStorage", "zone", "region", "instanceType", "labels", "taints");

    public SimulationConfig {
        groups = List.copyOf(groups);
        zones = List.copyOf(zones);
        if (zones.isEmpty()) {
            throw new IllegalArgumentException("zones must not be empty");
        }
    }

    /** The names of every node to register, in order. */
    public List<String> nodeNames() {
        List<String> names = new ArrayList<>();
        groups.forEach(g -> names.addAll(g.names()));
        return names;
    }

    /**
     * {@code --simulated-nodes=count} and {@code --simulated-nodes-config=file} (null for none).
     *
     * @throws IllegalArgumentException for a file that cannot be read or says something this does not know
     */
    public static SimulationConfig of(int count, Path file) {
        if (count < 0) {
            throw new IllegalArgumentException("--simulated-nodes must not be negative");
        }
        SimulationConfig base = file == null ? NONE : load(file);
        if (count == 0) {
            return base;
        }
        List<NodeGroup> all = new ArrayList<>(base.groups);
        all.add(new NodeGroup(null, base.namePrefix, count, base.defaults));
        return new SimulationConfig(base.namePrefix, base.defaults, all, base.zones, base.region, base.jobRunFor,
                base.stopDelay, base.restartBackoff, base.leaseRenew, base.statusReport);
    }

    /** Reads {@code file}; @throws IllegalArgumentException naming what is wrong in it */
    public static SimulationConfig load(Path file) {
        try {
            return parse(Json.yaml().readTree(Files.readString(file)));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    static SimulationConfig parse(JsonNode root) {
        if (root == null || root.isMissingNode() || root.isNull()) {
            return NONE;
        }
        unknown(root, TOP_KEYS, "");
        NodeShape defaults = shape(root.path("defaults"), NodeShape.DEFAULT, "defaults");
        List<NodeGroup> groups = new ArrayList<>();
        int i = 0;
        for (JsonNode n : root.path("nodes")) {
            String where = "nodes[" + i++ + "]";
            unknown(n, SHAPE_KEYS, where + ".");
            String name = text(n, "name", null);
            String prefix = text(n, "namePrefix", null);
            if ((name == null) == (prefix == null)) {
                throw new IllegalArgumentException(where + ": give either name or namePrefix (with count)");
            }
            int count = n.path("count").asInt(1);
            groups.add(new NodeGroup(name, prefix, name == null ? count : 1, shape(n, defaults, where)));
        }
        List<String> zones = new ArrayList<>();
        root.path("zones").forEach(z -> zones.add(z.asText()));
        return new SimulationConfig(text(root, "namePrefix", DEFAULT_PREFIX), defaults, groups,
                zones.isEmpty() ? DEFAULT_ZONES : zones, text(root, "region", DEFAULT_REGION),
                duration(root, "jobRunFor", NONE.jobRunFor), duration(root, "stopDelay", NONE.stopDelay),
                duration(root, "restartBackoff", NONE.restartBackoff), NONE.leaseRenew, NONE.statusReport);
    }

    private static NodeShape shape(JsonNode n, NodeShape base, String where) {
        if (n.isMissingNode()) {
            return base;
        }
        Map<String, String> labels = new LinkedHashMap<>(base.labels());
        n.path("labels").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
        List<NodeShape.Taint> taints = new ArrayList<>(base.taints());
        for (JsonNode t : n.path("taints")) {
            if (!t.hasNonNull("key") || !t.hasNonNull("effect")) {
                throw new IllegalArgumentException(where + ": a taint needs a key and an effect");
            }
            taints.add(new NodeShape.Taint(t.path("key").asText(), text(t, "value", ""), t.path("effect").asText()));
        }
        int pods = n.path("pods").asInt(base.pods());
        if (pods <= 0) {
            throw new IllegalArgumentException(where + ": pods must be positive");
        }
        return new NodeShape(quantity(n, "cpu", base.cpu(), where), quantity(n, "memory", base.memory(), where),
                pods, quantity(n, "ephemeralStorage", base.ephemeralStorage(), where), text(n, "zone", base.zone()),
                text(n, "region", base.region()), text(n, "instanceType", base.instanceType()), labels, taints);
    }

    private static String quantity(JsonNode n, String key, String fallback, String where) {
        String v = text(n, key, fallback);
        if (io.kapi.machinery.quantity.Quantity.parseOrNull(v) == null) {
            throw new IllegalArgumentException(where + "." + key + ": not a quantity: " + v);
        }
        return v;
    }

    private static String text(JsonNode n, String key, String fallback) {
        JsonNode v = n.path(key);
        return v.isMissingNode() || v.isNull() ? fallback : v.asText();
    }

    private static Duration duration(JsonNode n, String key, Duration fallback) {
        String v = text(n, key, null);
        if (v == null) {
            return fallback;
        }
        try {
            return GoDuration.parse(v);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(key + ": not a duration: " + v);
        }
    }

    private static void unknown(JsonNode n, Set<String> known, String where) {
        if (!n.isObject()) {
            throw new IllegalArgumentException(where + " must be a mapping");
        }
        n.properties().forEach(e -> {
            if (!known.contains(e.getKey())) {
                throw new IllegalArgumentException("unknown field " + where + e.getKey());
            }
        });
    }
}
