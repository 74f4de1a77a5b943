package io.kapi.endpoint.table;

import static io.kapi.endpoint.table.Column.age;
import static io.kapi.endpoint.table.Column.nameColumn;
import static io.kapi.endpoint.table.Column.string;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The table of HorizontalPodAutoscalers, for autoscaling/v2 objects and autoscaling/v1 ones (whose CPU target
 * kube converts to a {@code Resource} metric of {@code cpu} before printing).
 */
final class AutoscalingPrinters {

    private static final String V2 = "autoscaling.v2";
    private static final String UNKNOWN = HumanDuration.UNKNOWN;
    private static final int MAX = 2;

    private AutoscalingPrinters() {
    }

    static void register(Map<String, KindPrinter> into) {
        into.put("autoscaling/HorizontalPodAutoscaler", KindPrinter.of(nameColumn(),
                string("Reference", Doc.api(V2, "HorizontalPodAutoscalerSpec", "scaleTargetRef"),
                        (o, now) -> Obj.str(o, "spec", "scaleTargetRef", "kind") + "/" + Obj.str(o, "spec", "scaleTargetRef", "name")),
                string("Targets", Doc.api(V2, "HorizontalPodAutoscalerSpec", "metrics"), (o, now) -> targets(o)),
                string("MinPods", Doc.api(V2, "HorizontalPodAutoscalerSpec", "minReplicas"),
                        (o, now) -> Obj.has(o, "spec", "minReplicas") ? Long.toString(Obj.num(o, "spec", "minReplicas")) : "<unset>"),
                string("MaxPods", Doc.api(V2, "HorizontalPodAutoscalerSpec", "maxReplicas"), (o, now) -> Obj.num(o, "spec", "maxReplicas")),
                string("Replicas", Doc.api(V2, "HorizontalPodAutoscalerStatus", "currentReplicas"),
                        (o, now) -> Obj.num(o, "status", "currentReplicas")),
                age()));
        // the scale subresource (kubectl get --subresource=scale); its NAME has no "name" format in kube
        into.put("autoscaling/Scale", KindPrinter.of(
                new Column("Name", "string", "", 0, Doc.meta("name"), (o, now) -> Obj.name(o)),
                Column.integer("Desired", Doc.api("autoscaling.v1", "ScaleSpec", "replicas"), (o, now) -> Obj.num(o, "spec", "replicas")),
                Column.integer("Available", Doc.api("autoscaling.v1", "ScaleStatus", "replicas"), (o, now) -> Obj.num(o, "status", "replicas")),
                age()));
    }

    /** {@code formatHPAMetrics}: at most two targets as {@code current/target}, then {@code + N more...}. */
    static String targets(JsonNode hpa) {
        if (Obj.has(hpa, "spec", "targetCPUUtilizationPercentage")) {
            String current = Obj.has(hpa, "status", "currentCPUUtilizationPercentage")
                    ? Obj.num(hpa, "status", "currentCPUUtilizationPercentage") + "%" : UNKNOWN;
            return "cpu: " + current + "/" + Obj.num(hpa, "spec", "targetCPUUtilizationPercentage") + "%";
        }
        List<JsonNode> specs = Obj.list(hpa, "spec", "metrics");
        if (specs.isEmpty()) {
            return Labels.NONE;
        }
        List<JsonNode> statuses = Obj.list(hpa, "status", "currentMetrics");
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
        return switch (Obj.str(spec, "type")) {
            case "External" -> valueMetric(Obj.at(spec, "external", "target"), current(status, "external"), "");
            case "Object" -> valueMetric(Obj.at(spec, "object", "target"), current(status, "object"), "");
            case "Pods" -> {
                JsonNode cur = current(status, "pods");
                yield (cur == null ? UNKNOWN : Obj.str(cur, "averageValue")) + "/" + Obj.str(spec, "pods", "target", "averageValue");
            }
            case "Resource" -> resourceMetric(Obj.at(spec, "resource"), current(status, "resource"));
            case "ContainerResource" -> resourceMetric(Obj.at(spec, "containerResource"), current(status, "containerResource"));
            default -> "<unknown type>";
        };
    }

    /** The {@code current} of the status's {@code source}, or null when the status lacks it. */
    private static JsonNode current(JsonNode status, String source) {
        if (status == null || !Obj.at(status, source).isObject()) {
            return null;
        }
        return Obj.at(status, source, "current");
    }

    /** External and Object metrics: an average value target prints {@code (avg)}. */
    private static String valueMetric(JsonNode target, JsonNode current, String prefix) {
        if (Obj.has(target, "averageValue")) {
            String cur = current != null && Obj.has(current, "averageValue") ? Obj.str(current, "averageValue") : UNKNOWN;
            return prefix + cur + "/" + Obj.str(target, "averageValue") + " (avg)";
        }
        String cur = current != null ? Obj.strOr(current, "0", "value") : UNKNOWN;
        return prefix + cur + "/" + Obj.strOr(target, "0", "value");
    }

    private static String resourceMetric(JsonNode spec, JsonNode current) {
        String name = Obj.str(spec, "name");
        JsonNode target = Obj.at(spec, "target");
        if (Obj.has(target, "averageValue")) {
            String cur = current != null ? Obj.strOr(current, "0", "averageValue") : UNKNOWN;
            return name + ": " + cur + "/" + Obj.str(target, "averageValue");
        }
        String cur = current != null && Obj.has(current, "averageUtilization") ? Obj.num(current, "averageUtilization") + "%" : UNKNOWN;
        String tgt = Obj.has(target, "averageUtilization") ? Obj.num(target, "averageUtilization") + "%" : "<auto>";
        return name + ": " + cur + "/" + tgt;
    }
}
