package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.quantity.Quantity;
import io.kapi.machinery.validation.Identifiers;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * core/v1 LimitRanges: kube's {@code ValidateLimitRange} (its update validates the new object the same way).
 * kube walks Go maps in random order; here resource names go in sorted order, so the errors are the same
 * set in a stable order.
 */
final class LimitRanges {

    private static final Set<String> TYPES = Set.of("Pod", "Container", "PersistentVolumeClaim");
    private static final long MAX_MILLI_VALUE = Long.MAX_VALUE / 1000;

    /** One item's quantities by resource name, each list as it is read. */
    private record Bounds(Map<String, Quantity> max, Map<String, Quantity> min, Map<String, Quantity> defaults,
            Map<String, Quantity> defaultRequests, Map<String, Quantity> ratios) {

        Set<String> names() {
            Set<String> all = new TreeSet<>(max.keySet());
            all.addAll(min.keySet());
            all.addAll(defaults.keySet());
            all.addAll(defaultRequests.keySet());
            all.addAll(ratios.keySet());
            return all;
        }
    }

    private LimitRanges() {
    }

    static void validate(ObjectNode limitRange, Errs e) {
        List<JsonNode> limits = GoValues.items(limitRange, "spec", "limits");
        Set<String> types = new HashSet<>();
        for (int i = 0; i < limits.size(); i++) {
            item(limits.get(i), "spec.limits[" + i + "]", types, e);
        }
    }

    private static void item(JsonNode limit, String path, Set<String> types, Errs e) {
        String type = GoValues.text(limit, "type");
        typeName(type, path + ".type", e);
        if (!types.add(type)) {
            e.duplicate(path + ".type", GoStrings.quote(type));
        }
        Map<String, Quantity> max = read(limit, "max", type, path, e);
        Map<String, Quantity> min = read(limit, "min", type, path, e);
        Map<String, Quantity> defaults = Map.of();
        Map<String, Quantity> defaultRequests = Map.of();
        if (type.equals("Pod")) {
            for (String field : List.of("default", "defaultRequest")) {
                if (GoValues.size(limit, field) > 0) {
                    e.forbidden(path + "." + field, "may not be specified when `type` is 'Pod'");
                }
            }
        } else {
            defaults = read(limit, "default", type, path, e);
            defaultRequests = read(limit, "defaultRequest", type, path, e);
        }
        if (type.equals("PersistentVolumeClaim")
                && !GoValues.has(limit, "min", "storage") && !GoValues.has(limit, "max", "storage")) {
            e.required(path + ".limits", "either minimum or maximum storage value is required, but neither was provided");
        }
        Bounds b = new Bounds(max, min, defaults, defaultRequests, read(limit, "maxLimitRequestRatio", type, path, e));
        for (String name : b.names()) {
            relations(b, name, path, e);
        }
    }

    /** {@code validateLimitRangeTypeName}. */
    private static void typeName(String type, String path, Errs e) {
        List<String> msgs = Identifiers.qualifiedName(type);
        if (!msgs.isEmpty()) {
            e.each(path, type, msgs);
        } else if (!type.contains("/") && !TYPES.contains(type)) {
            e.invalidString(path, type, "must be a standard limit type or fully qualified");
        }
    }

    /** The quantities of one list, each name checked as {@code validateLimitRangeResourceName}. */
    private static Map<String, Quantity> read(JsonNode limit, String field, String type, String path, Errs e) {
        Map<String, JsonNode> sorted = new TreeMap<>();
        GoValues.at(limit, field).properties().forEach(en -> sorted.put(en.getKey(), en.getValue()));
        Map<String, Quantity> out = new TreeMap<>();
        sorted.forEach((name, value) -> {
            String p = path + "." + field + "[" + name + "]";
            if (type.equals("Pod") || type.equals("Container")) {
                ResourceNames.container(name, p, e);
            } else {
                ResourceNames.resource(name, p, e);
            }
            Quantity q = Quantity.parseOrNull(value.asText());
            if (q != null) {
                out.put(name, q);
            }
        });
        return out;
    }

    /** min <= defaultRequest <= default <= max, the ratio at least 1 and within max/min, for one resource. */
    private static void relations(Bounds b, String name, String path, Errs e) {
        Quantity min = b.min().get(name);
        Quantity max = b.max().get(name);
        Quantity def = b.defaults().get(name);
        Quantity request = b.defaultRequests().get(name);
        Quantity ratio = b.ratios().get(name);
        String key = "[" + name + "]";
        if (min != null && max != null && min.compareTo(max) > 0) {
            e.invalid(path + ".min" + key, min.toString(), "min value " + min + " is greater than max value " + max);
        }
        if (request != null && min != null && min.compareTo(request) > 0) {
            e.invalid(path + ".defaultRequest" + key, request.toString(),
                    "min value " + min + " is greater than default request value " + request);
        }
        if (request != null && max != null && request.compareTo(max) > 0) {
            e.invalid(path + ".defaultRequest" + key, request.toString(),
                    "default request value " + request + " is greater than max value " + max);
        }
        if (request != null && def != null && request.compareTo(def) > 0) {
            e.invalid(path + ".defaultRequest" + key, request.toString(),
                    "default request value " + request + " is greater than default limit value " + def);
        }
        if (def != null && min != null && min.compareTo(def) > 0) {
            e.invalid(path + ".default" + key, min.toString(), "min value " + min + " is greater than default value " + def);
        }
        if (def != null && max != null && def.compareTo(max) > 0) {
            e.invalid(path + ".default" + key, max.toString(), "default value " + def + " is greater than max value " + max);
        }
        ratio(ratio, min, max, path + ".maxLimitRequestRatio" + key, e);
        if (!ResourceNames.overcommitAllowed(name) && def != null && request != null && def.compareTo(request) != 0) {
            e.invalid(path + ".defaultRequest" + key, request.toString(),
                    "default value " + def + " must equal to defaultRequest value " + request + " in " + name);
        }
    }

    /** The ratio is at least 1, and no more than max/min (in milli units unless a value is too large for them). */
    private static void ratio(Quantity ratio, Quantity min, Quantity max, String path, Errs e) {
        if (ratio == null) {
            return;
        }
        if (ratio.compareTo(Quantity.of(1)) < 0) {
            e.invalid(path, ratio.toString(), "ratio " + ratio + " is less than 1");
        }
        if (min == null || max == null) {
            return;
        }
        double ratioValue = ResourceNames.value(ratio);
        long minValue = ResourceNames.value(min);
        long maxValue = ResourceNames.value(max);
        if (ResourceNames.value(ratio) < MAX_MILLI_VALUE && minValue < MAX_MILLI_VALUE && maxValue < MAX_MILLI_VALUE) {
            ratioValue = ResourceNames.milli(ratio) / 1000.0;
            minValue = ResourceNames.milli(min);
            maxValue = ResourceNames.milli(max);
        }
        double limit = (double) maxValue / (double) minValue;
        if (ratioValue > limit) {
            e.invalid(path, ratio.toString(), "ratio " + ratio + " is greater than max/min = " + goFloat(limit));
        }
    }

    /** Go's {@code %f}: six decimals of the exact binary value, half to even; {@code +Inf} for infinity. */
    static String goFloat(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        String s = new BigDecimal(v).setScale(6, RoundingMode.HALF_EVEN).toPlainString();
        boolean negative = v < 0 || (v == 0 && 1 / v < 0);
        return negative && !s.startsWith("-") ? "-" + s : s;
    }
}
