package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.quantity.Quantity;
import io.kapi.machinery.validation.NameRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The metrics of a HorizontalPodAutoscaler in its stored ({@code autoscaling/v2}) form, as kube's
 * {@code validateMetrics} checks the internal type: whichever version the object was written through,
 * errors name the v2 paths ({@code spec.metrics[0].resource.target.averageUtilization}).
 */
final class HpaMetricRules {

    /** Source type → the field holding it. */
    private static final Map<String, String> SOURCES = Map.of("Object", "object", "Pods", "pods",
            "Resource", "resource", "ContainerResource", "containerResource", "External", "external");
    private static final List<String> TYPES = List.of("ContainerResource", "External", "Object", "Pods", "Resource");
    private static final List<String> FIELDS = List.of("object", "external", "pods", "resource", "containerResource");

    private HpaMetricRules() {
    }

    static void metrics(JsonNode spec, Errs e) {
        List<JsonNode> metrics = GoValues.items(spec.get("metrics"));
        for (int i = 0; i < metrics.size(); i++) {
            metric(metrics.get(i), "spec.metrics[" + i + "]", e);
        }
    }

    private static void metric(JsonNode m, String path, Errs e) {
        String type = GoValues.text(m, "type");
        if (type.isEmpty()) {
            e.required(path + ".type", "must specify a metric source type");
        }
        if (!SOURCES.containsKey(type)) {
            e.notSupported(path + ".type", GoStrings.quote(type), TYPES);
        }
        List<String> present = new ArrayList<>();
        for (String field : FIELDS) {
            if (GoValues.has(m, field)) {
                present.add(field);
                if (present.size() == 1) {
                    source(field, m.get(field), path + "." + field, e);
                }
            }
        }
        String expected = SOURCES.get(type);
        if (expected != null && !present.contains(expected)) {
            e.required(path + "." + expected, "must populate information for the given metric source");
        }
        if (present.size() > 1) {
            present.stream().filter(f -> !f.equals(expected))
                    .forEach(f -> e.forbidden(path + "." + f, "must populate the given metric source only"));
        }
    }

    private static void source(String field, JsonNode src, String path, Errs e) {
        JsonNode target = GoValues.at(src, "target");
        switch (field) {
            case "object" -> {
                reference(GoValues.at(src, "describedObject"), path + ".describedObject", e);
                identifier(GoValues.at(src, "metric"), path + ".metric", e);
                target(target, path + ".target", e);
                if (!GoValues.has(target, "value") && !GoValues.has(target, "averageValue")) {
                    e.required(path + ".target.averageValue", "must set either a target value or averageValue");
                }
            }
            case "external" -> {
                identifier(GoValues.at(src, "metric"), path + ".metric", e);
                target(target, path + ".target", e);
                if (!GoValues.has(target, "value") && !GoValues.has(target, "averageValue")) {
                    e.required(path + ".target.averageValue",
                            "must set either a target value for metric or a per-pod target");
                }
                if (GoValues.has(target, "value") && GoValues.has(target, "averageValue")) {
                    e.forbidden(path + ".target.value", "may not set both a target value for metric and a per-pod target");
                }
            }
            case "pods" -> {
                identifier(GoValues.at(src, "metric"), path + ".metric", e);
                target(target, path + ".target", e);
                if (!GoValues.has(target, "averageValue")) {
                    e.required(path + ".target.averageValue", "must specify a positive target averageValue");
                }
            }
            default -> resource(field, src, path, e);
        }
    }

    private static void resource(String field, JsonNode src, String path, Errs e) {
        JsonNode target = GoValues.at(src, "target");
        if (GoValues.text(src, "name").isEmpty()) {
            e.required(path + ".name", "must specify a resource name");
        }
        if (field.equals("containerResource") && GoValues.text(src, "container").isEmpty()) {
            e.required(path + ".container", "must specify a container");
        }
        target(target, path + ".target", e);
        if (!GoValues.has(target, "averageUtilization") && !GoValues.has(target, "averageValue")) {
            e.required(path + ".target.averageUtilization", "must set either a target raw value or a target utilization");
        }
        if (GoValues.has(target, "averageUtilization") && GoValues.has(target, "averageValue")) {
            e.forbidden(path + ".target.averageValue", "may not set both a target raw value and a target utilization");
        }
    }

    /** {@code validateMetricTarget}. */
    private static void target(JsonNode t, String path, Errs e) {
        String type = GoValues.text(t, "type");
        if (type.isEmpty()) {
            e.required(path + ".type", "must specify a metric target type");
        }
        if (!type.equals("Utilization") && !type.equals("Value") && !type.equals("AverageValue")) {
            e.invalidString(path + ".type", type, "must be either Utilization, Value, or AverageValue");
        }
        for (String q : List.of("value", "averageValue")) {
            if (GoValues.has(t, q)) {
                Quantity v = Quantity.parseOrNull(t.get(q).asText());
                if (v != null && v.signum() != 1) {
                    e.invalid(path + "." + q, t.get(q).asText(), "must be positive");
                }
            }
        }
        JsonNode utilization = t.get("averageUtilization");
        if (utilization != null && utilization.isNumber() && utilization.asLong() < 1) {
            e.invalid(path + ".averageUtilization", utilization.asText(), "must be greater than 0");
        }
    }

    private static void identifier(JsonNode id, String path, Errs e) {
        String name = GoValues.text(id, "name");
        if (name.isEmpty()) {
            e.required(path + ".name", "must specify a metric name");
        } else {
            e.each(path + ".name", name, NameRule.PATH_SEGMENT.check(name, false));
        }
    }

    /** {@code ValidateCrossVersionObjectReference}. */
    static void reference(JsonNode ref, String path, Errs e) {
        for (String f : List.of("kind", "name")) {
            String v = GoValues.text(ref, f);
            if (v.isEmpty()) {
                e.required(path + "." + f, "");
            } else {
                e.each(path + "." + f, v, NameRule.PATH_SEGMENT.check(v, false));
            }
        }
    }
}
