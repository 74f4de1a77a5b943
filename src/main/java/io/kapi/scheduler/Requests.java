package io.kapi.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.quantity.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.TreeMap;

/**
 * An amount of each resource the scheduler counts (kube's {@code framework.Resource}): CPU in millicores,
 * memory and ephemeral storage in bytes, a number of Pods, and scalar resources (extended resources such
 * as {@code example.com/gpu}, hugepages) by name. Mutable: a Node's aggregate is added to and taken from
 * as Pods come and go, under the cache's lock.
 */
final class Requests {

    long milliCpu;
    long memory;
    long ephemeralStorage;
    long pods;
    final Map<String, Long> scalars = new TreeMap<>();

    Requests() {
    }

    Requests(long milliCpu, long memory) {
        this.milliCpu = milliCpu;
        this.memory = memory;
    }

    /** A ResourceList ({@code allocatable}, a container's {@code requests}), pods included. */
    static Requests of(JsonNode list) {
        Requests r = new Requests();
        r.add(list);
        return r;
    }

    void add(JsonNode list) {
        for (var e : list.properties()) {
            String name = e.getKey();
            switch (name) {
                case "cpu" -> milliCpu += milli(e.getValue());
                case "memory" -> memory += value(e.getValue());
                case "ephemeral-storage" -> ephemeralStorage += value(e.getValue());
                case "pods" -> pods += value(e.getValue());
                default -> {
                    if (isScalar(name)) {
                        scalars.merge(name, value(e.getValue()), Long::sum);
                    }
                }
            }
        }
    }

    void add(Requests other, int sign) {
        milliCpu += sign * other.milliCpu;
        memory += sign * other.memory;
        ephemeralStorage += sign * other.ephemeralStorage;
        pods += sign * other.pods;
        other.scalars.forEach((k, v) -> scalars.merge(k, sign * v, Long::sum));
    }

    /** {@code SetMaxResource}: each resource the larger of this and {@code other}. */
    void max(Requests other) {
        milliCpu = Math.max(milliCpu, other.milliCpu);
        memory = Math.max(memory, other.memory);
        ephemeralStorage = Math.max(ephemeralStorage, other.ephemeralStorage);
        other.scalars.forEach((k, v) -> scalars.merge(k, v, Math::max));
    }

    Requests copy() {
        Requests r = new Requests(milliCpu, memory);
        r.ephemeralStorage = ephemeralStorage;
        r.pods = pods;
        r.scalars.putAll(scalars);
        return r;
    }

    long scalar(String name) {
        return scalars.getOrDefault(name, 0L);
    }

    /**
     * {@code IsScalarResourceName}: an extended resource (a domain-qualified name outside
     * {@code kubernetes.io/}), hugepages, or an attachable-volumes count.
     */
    static boolean isScalar(String name) {
        if (name.startsWith("hugepages-") || name.startsWith("attachable-volumes-")) {
            return true;
        }
        int slash = name.indexOf('/');
        if (slash < 0) {
            return false;
        }
        String domain = name.substring(0, slash);
        return !domain.equals("kubernetes.io") && !domain.endsWith(".kubernetes.io") && !name.startsWith("requests.");
    }

    private static long milli(JsonNode q) {
        Quantity quantity = Quantity.parseOrNull(q.asText());
        if (quantity == null) {
            return 0;
        }
        return quantity.value().movePointRight(3).setScale(0, RoundingMode.CEILING).longValue();
    }

    private static long value(JsonNode q) {
        Quantity quantity = Quantity.parseOrNull(q.asText());
        if (quantity == null) {
            return 0;
        }
        BigDecimal v = quantity.value().setScale(0, RoundingMode.CEILING);
        return v.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE : v.longValue();
    }

    @Override
    public String toString() {
        return "cpu=" + milliCpu + "m memory=" + memory + " pods=" + pods + " " + scalars;
    }
}
