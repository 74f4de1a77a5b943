package io.kapi.simulation;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one simulated node offers, as its kubelet reports it: capacity (allocatable is the same: the
 * simulation reserves nothing for the system), labels beyond the kubelet's own, topology and the taints it
 * registers with ({@code --register-with-taints}).
 *
 * @param cpu cores, a quantity ({@code 4}, {@code 3500m})
 * @param memory a quantity ({@code 16Gi})
 * @param pods the most Pods it runs ({@code --max-pods})
 * @param ephemeralStorage a quantity ({@code 100Gi})
 * @param zone {@code topology.kubernetes.io/zone}, or null for the simulation's spread over its zones
 * @param region {@code topology.kubernetes.io/region}, or null for the simulation's region
 * @param instanceType {@code node.kubernetes.io/instance-type}, or null for none
 * @param labels more labels (those NodeRestriction lets a node set itself)
 * @param taints each with {@code key}, {@code value} (may be empty) and {@code effect}
 */
public record NodeShape(String cpu, String memory, int pods, String ephemeralStorage, String zone, String region,
                        String instanceType, Map<String, String> labels, List<Taint> taints) {

    /** kind's and KWOK's usual node: 4 cores, 16 GiB, kubelet's default of 110 Pods. */
    public static final NodeShape DEFAULT = new NodeShape("4", "16Gi", 110, "100Gi", null, null, null, Map.of(),
            List.of());

    /** One taint, as {@code spec.taints} holds it. */
    public record Taint(String key, String value, String effect) {
        public Taint {
            Objects.requireNonNull(key, "key");
            value = value == null ? "" : value;
            Objects.requireNonNull(effect, "effect");
        }
    }

    public NodeShape {
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(ephemeralStorage, "ephemeralStorage");
        labels = Map.copyOf(labels);
        taints = List.copyOf(taints);
    }
}
