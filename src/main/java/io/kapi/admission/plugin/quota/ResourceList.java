package io.kapi.admission.plugin.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.quantity.Quantity;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** An immutable resource name → quantity map, sorted by name, as kube's {@code ResourceList} helpers use it. */
public record ResourceList(SortedMap<String, Quantity> values) {

    public static final ResourceList EMPTY = new ResourceList(new TreeMap<>());

    public ResourceList {
        values = new TreeMap<>(values);
    }

    /** The quantities of a JSON resource list; entries that are no quantity are left out. */
    public static ResourceList of(JsonNode list) {
        TreeMap<String, Quantity> map = new TreeMap<>();
        list.properties().forEach(e -> {
            Quantity q = Quantity.parseOrNull(e.getValue().asText(null));
            if (q != null) {
                map.put(e.getKey(), q);
            }
        });
        return new ResourceList(map);
    }

    public static ResourceList one(String name) {
        return EMPTY.with(name, Quantity.of(1));
    }

    public ResourceList with(String name, Quantity value) {
        TreeMap<String, Quantity> map = new TreeMap<>(values);
        map.put(name, value);
        return new ResourceList(map);
    }

    public Quantity get(String name) {
        return values.getOrDefault(name, Quantity.ZERO);
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public Set<String> names() {
        return values.keySet();
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The sum, name by name. */
    public ResourceList add(ResourceList other) {
        TreeMap<String, Quantity> map = new TreeMap<>(values);
        other.values.forEach((k, v) -> map.merge(k, v, Quantity::add));
        return new ResourceList(map);
    }

    /** The difference, name by name (names only in {@code other} become negative). */
    public ResourceList subtract(ResourceList other) {
        TreeMap<String, Quantity> map = new TreeMap<>(values);
        other.values.forEach((k, v) -> map.put(k, map.getOrDefault(k, Quantity.ZERO).subtract(v)));
        return new ResourceList(map);
    }

    /** The larger of the two, name by name. */
    public ResourceList max(ResourceList other) {
        TreeMap<String, Quantity> map = new TreeMap<>(values);
        other.values.forEach((k, v) -> map.merge(k, v, (a, b) -> a.compareTo(b) >= 0 ? a : b));
        return new ResourceList(map);
    }

    /** Only the given names. */
    public ResourceList mask(Collection<String> names) {
        TreeMap<String, Quantity> map = new TreeMap<>();
        values.forEach((k, v) -> {
            if (names.contains(k)) {
                map.put(k, v);
            }
        });
        return new ResourceList(map);
    }

    /** The names whose value here is more than in {@code hard} (names {@code hard} lacks are not limited). */
    public Set<String> exceeding(ResourceList hard) {
        Set<String> out = new TreeSet<>();
        values.forEach((k, v) -> {
            if (hard.has(k) && v.compareTo(hard.get(k)) > 0) {
                out.add(k);
            }
        });
        return out;
    }

    /** kube's {@code prettyPrint}: {@code a=1,b=2Gi}, by name, each quantity canonical. */
    public String pretty() {
        return values.entrySet().stream().map(e -> e.getKey() + "=" + canonical(e.getValue()))
                .collect(Collectors.joining(","));
    }

    public ObjectNode toJson() {
        ObjectNode o = Json.NODES.objectNode();
        values.forEach((k, v) -> o.put(k, canonical(v)));
        return o;
    }

    private static String canonical(Quantity q) {
        return Quantity.ZERO.add(q).toString();
    }

    @Override
    public String toString() {
        return pretty();
    }

    /** For {@link Map}-style iteration. */
    public Set<Map.Entry<String, Quantity>> entries() {
        return values.entrySet();
    }
}
