package io.kapi.endpoint.table;

import static io.kapi.endpoint.table.Columns.age;
import static io.kapi.endpoint.table.Columns.nameColumn;
import static io.kapi.registry.table.Column.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.registry.table.Column;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;
import java.util.ArrayList;
import java.util.List;

/**
 * The table of HorizontalPodAutoscalers, for autoscaling/v2 objects and autoscaling/v1 ones (whose CPU target
 * kube converts to a {@code Resource} metric of {@code cpu} before printing).
 */
public final class AutoscalingPrinters {

    private static final String V2 = "autoscaling.v2";
    private static final String UNKNOWN = HumanDuration.UNKNOWN;
    private static final int MAX = 2;

    private AutoscalingPrinters() {
    }

    public static KindPrinter horizontalPodAutoscalers() {
        return KindPrinter.of(nameColumn(),
                string("Reference", Doc.api(V2, "HorizontalPodAutoscalerSpec", "scaleTargetRef"),
                        (o, now) -> GoValues.text(o, "spec", "scaleTargetRef", "kind") + "/" + GoValues.text(o, "spec", "scaleTargetRef", "name")),
                string("Targets", Doc.api(V2, "HorizontalPodAutoscalerSpec", "metrics"), (o, now) -> targets(o)),
                string("MinPods", Doc.api(V2, "HorizontalPodAutoscalerSpec", "minReplicas"),
                        (o, now) -> GoValues.has(o, "spec", "minReplicas") ? Long.toString(GoValues.integer(o, "spec", "minReplicas")) : "<unset>"),
                string("MaxPods", Doc.api(V2, "HorizontalPodAutoscalerSpec", "maxReplicas"), (o, now) -> GoValues.integer(o, "spec", "maxReplicas")),
                string("Replicas", Doc.api(V2, "HorizontalPodAutoscalerStatus", "currentReplicas"),
                        (o, now) -> GoValues.integer(o, "status", "currentReplicas")),
                age());
    }

    /** The scale subresource's (kubectl get --subresource=scale); its NAME has no "name" format in kube. */
    public static KindPrinter scales() {
        return KindPrinter.of(
                new Column("Name", "string", "", 0, Doc.meta("name"), (o, now) -> Obj.name(o)),
                Column.integer("Desired", Doc.api("autoscaling.v1", "ScaleSpec", "replicas"), (o, now) -> GoValues.integer(o, "spec", "replicas")),
                Column.integer("Available", Doc.api("autoscaling.v1", "ScaleStatus", "replicas"), (o, now) -> GoValues.integer(o, "status", "replicas")),
                age());
    }

    /** {@code formatHPAMetrics}: at most two targets as {@code current/target}, then {@code + N more...}. */
    static String targets(JsonNode hpa) {
        if (GoValues.has(hpa, "spec", "targetCPUUtilizationPercentage")) {
            String current = GoValues.has(hpa, "status", "currentCPUUtilizationPercentage")
                    ? GoValues.integer(hpa, "status", "currentCPUUtilizationPercentage") + "%" : UNKNOWN;
            return "cpu: " + current + "/" + GoValues.integer(hpa, "spec", "targetCPUUtilizationPercentage") + "%";
        }
        List<JsonNode> specs = GoValues.items(hpa, "spec", "metrics");
        if (specs.isEmpty()) {
            return Labels.NONE;
        }
        List<JsonNode> statuses = GoValues.items(hpa, "status", "currentMetrics");
        List<String> list = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            JsonNode status = i < statuses.size() ? statuses.get(i) : null;
            list.add(metric(specs.get(i), status));
        }
        int count = list.size();
        if (count > MAX) {
            return String.join(", ", list.subList(0, MAX)) + " + " + (count - MAX) + " more...";
        }
        return String.join(", ", list);
    }

    private static String metric(JsonNode spec, JsonNode status) {
        return switch (GoValues.text(spec, "type")) {
            case "External" -> valueMetric(GoValues.at(spec, "external", "target"), current(status, "external"), "");
            case "Object" -> valueMetric(GoValues.at(spec, "object", "target"), current(status, "object"), "");
            case "Pods" -> {
                JsonNode cur = current(status, "pods");
                yield (cur == null ? UNKNOWN : GoValues.text(cur, "averageValue")) + "/" + GoValues.text(spec, "pods", "target", "averageValue");
            }
            case "Resource" -> resourceMetric(GoValues.at(spec, "resource"), current(status, "resource"));
            case "ContainerResource" -> resourceMetric(GoValues.at(spec, "containerResource"), current(status, "containerResource"));
            default -> "<unknown type>";
        };
    }

    /** The {@code current} of the status's {@code source}, or null when the status lacks it. */
    private static JsonNode current(JsonNode status, String source) {
        if (status == null || !GoValues.at(status, source).isObject()) {
            return null;
        }
        return GoValues.at(status, source, "current");
    }

    /** External and Object metrics: an average value target prints {@code (avg)}. */
    private static String valueMetric(JsonNode target, JsonNode current, String prefix) {
        if (GoValues.has(target, "averageValue")) {
            String cur = current != null && GoValues.has(current, "averageValue") ? GoValues.text(current, "averageValue") : UNKNOWN;
            return prefix + cur + "/" + GoValues.text(target, "averageValue") + " (avg)";
        }
        String cur = current != null ? GoValues.textOr(current, "0", "value") : UNKNOWN;
        return prefix + cur + "/" + GoValues.textOr(target, "0", "value");
    }

    private static String resourceMetric(JsonNode spec, JsonNode current) {
        String name = GoValues.text(spec, "name");
        JsonNode target = GoValues.at(spec, "target");
        if (GoValues.has(target, "averageValue")) {
            String cur = current != null ? GoValues.textOr(current, "0", "averageValue") : UNKNOWN;
            return name + ": " + cur + "/" + GoValues.text(target, "averageValue");
        }
        String cur = current != null && GoValues.has(current, "averageUtilization") ? GoValues.integer(current, "averageUtilization") + "%" : UNKNOWN;
        String tgt = GoValues.has(target, "averageUtilization") ? GoValues.integer(target, "averageUtilization") + "%" : "<auto>";
        return name + ": " + cur + "/" + tgt;
    }
}
