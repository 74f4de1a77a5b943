package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.quantity.Quantity;
import io.kapi.machinery.validation.Identifiers;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Container {@code resources}: kube's {@code ValidateContainerResourceRequirements}. */
final class Resources {

    private static final Set<String> STANDARD_CONTAINER = Set.of("cpu", "memory", "ephemeral-storage");

    private Resources() {
    }

    static void validate(JsonNode resources, String path, Errs e) {
        JsonNode limits = GoValues.at(resources, "limits");
        JsonNode requests = GoValues.at(resources, "requests");
        boolean cpuOrMemory = false;
        boolean hugePages = false;
        for (var entry : sorted(limits).entrySet()) {
            String p = path + ".limits[" + entry.getKey() + "]";
            name(entry.getKey(), p, e);
            quantity(entry.getValue(), p, e);
            cpuOrMemory |= isCpuOrMemory(entry.getKey());
            hugePages |= entry.getKey().startsWith("hugepages-");
        }
        for (var entry : sorted(requests).entrySet()) {
            String name = entry.getKey();
            String p = path + ".requests[" + name + "]";
            name(name, p, e);
            quantity(entry.getValue(), p, e);
            String request = entry.getValue();
            if (limits.has(name)) {
                String limit = limits.get(name).asText();
                int cmp = compareQuantities(request, limit);
                if (cmp != 0 && !overcommitAllowed(name)) {
                    e.invalidString(path + ".requests", request, "must be equal to " + name + " limit of " + limit);
                } else if (cmp > 0) {
                    e.invalidString(path + ".requests", request,
                            "must be less than or equal to " + name + " limit of " + limit);
                }
            } else if (!overcommitAllowed(name)) {
                e.required(path + ".limits", "Limit must be set for non overcommitable resources");
            }
            cpuOrMemory |= isCpuOrMemory(name);
            hugePages |= name.startsWith("hugepages-");
        }
        if (!cpuOrMemory && hugePages) {
            e.forbidden(path, "HugePages require cpu or memory");
        }
    }

    /** How two quantities compare; 0 when either is none (decoding or validation reports that). */
    static int compareQuantities(String a, String b) {
        Quantity x = Quantity.parseOrNull(a);
        Quantity y = Quantity.parseOrNull(b);
        return x == null || y == null ? 0 : x.compareTo(y);
    }

    private static Map<String, String> sorted(JsonNode list) {
        Map<String, String> out = new TreeMap<>();
        list.properties().forEach(en -> out.put(en.getKey(), en.getValue().asText()));
        return out;
    }

    private static boolean isCpuOrMemory(String name) {
        return name.equals("cpu") || name.equals("memory");
    }

    /** Native resources (no domain, or kubernetes.io) other than hugepages may be overcommitted. */
    static boolean overcommitAllowed(String name) {
        return native_(name) && !name.startsWith("hugepages-");
    }

    private static boolean native_(String name) {
        return !name.contains("/") || name.contains("kubernetes.io/");
    }

    private static void name(String name, String path, Errs e) {
        var msgs = Identifiers.qualifiedName(name);
        if (!msgs.isEmpty()) {
            e.each(path, name, msgs);
            return;
        }
        if (!name.contains("/")) {
            if (!STANDARD_CONTAINER.contains(name) && !name.startsWith("hugepages-")) {
                e.invalidString(path, name, "must be a standard resource type or fully qualified");
                e.invalidString(path, name, "must be a standard resource for containers");
            }
        }
    }

    private static void quantity(String value, String path, Errs e) {
        Quantity q = Quantity.parseOrNull(value);
        if (q != null && q.signum() < 0) {
            e.invalidString(path, value, Errs.NEGATIVE);
        }
    }
}
