package io.kapi.apis.conversion;

import static io.kapi.apis.conversion.Nodes.copy;
import static io.kapi.apis.conversion.Nodes.copyOr;
import static io.kapi.apis.conversion.Nodes.has;
import static io.kapi.apis.conversion.Nodes.object;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.kapi.machinery.Json;

/**
 * One HPA metric (spec or status) between its {@code autoscaling/v2} form and the {@code autoscaling/v1}
 * form kube keeps in the round-trip annotations ({@code pkg/apis/autoscaling/v1/conversion.go}): v2's
 * {@code metric}/{@code target}/{@code current} structs against v1's flat {@code metricName},
 * {@code targetValue}, {@code currentAverageValue}, ... Fields are written in the order of the Go types,
 * and v1 quantity fields that are Go values (not pointers) are always written, {@code "0"} when unset.
 */
final class HpaMetrics {

    private static final TextNode ZERO = TextNode.valueOf("0");
    private static final String OBJECT = "object";
    private static final String PODS = "pods";
    private static final String RESOURCE = "resource";
    private static final String CONTAINER_RESOURCE = "containerResource";
    private static final String EXTERNAL = "external";

    private HpaMetrics() {
    }

    /** Whether a v2 metric is the CPU utilisation target v1 has its own field for. */
    static boolean isCpuUtilization(JsonNode metric) {
        JsonNode resource = metric.path(RESOURCE);
        return "Resource".equals(metric.path("type").asText()) && resource.isObject()
                && "cpu".equals(resource.path("name").asText()) && has(resource.path("target"), "averageUtilization");
    }

    /** {@code Convert_autoscaling_MetricSpec_To_v1_MetricSpec}. */
    static ObjectNode specToV1(JsonNode m) {
        ObjectNode out = Json.object();
        out.put("type", m.path("type").asText(""));
        if (has(m, OBJECT)) {
            JsonNode src = m.get(OBJECT);
            JsonNode target = object(src, "target");
            ObjectNode o = out.putObject(OBJECT);
            o.set("target", reference(object(src, "describedObject")));
            o.put("metricName", object(src, "metric").path("name").asText(""));
            copyOr(target, "value", o, "targetValue", ZERO);
            copy(object(src, "metric"), "selector", o);
            copy(target, "averageValue", o);
        }
        if (has(m, PODS)) {
            JsonNode src = m.get(PODS);
            ObjectNode o = out.putObject(PODS);
            o.put("metricName", object(src, "metric").path("name").asText(""));
            copyOr(object(src, "target"), "averageValue", o, "targetAverageValue", ZERO);
            copy(object(src, "metric"), "selector", o);
        }
        for (String source : new String[] {RESOURCE, CONTAINER_RESOURCE}) {
            if (has(m, source)) {
                JsonNode src = m.get(source);
                ObjectNode o = out.putObject(source);
                o.put("name", src.path("name").asText(""));
                copy(object(src, "target"), "averageUtilization", o, "targetAverageUtilization");
                copy(object(src, "target"), "averageValue", o, "targetAverageValue");
                if (source.equals(CONTAINER_RESOURCE)) {
                    o.put("container", src.path("container").asText(""));
                }
            }
        }
        if (has(m, EXTERNAL)) {
            JsonNode src = m.get(EXTERNAL);
            ObjectNode o = out.putObject(EXTERNAL);
            o.put("metricName", object(src, "metric").path("name").asText(""));
            copy(object(src, "metric"), "selector", o, "metricSelector");
            copy(object(src, "target"), "value", o, "targetValue");
            copy(object(src, "target"), "averageValue", o, "targetAverageValue");
        }
        return out;
    }

    /** {@code Convert_v1_MetricSpec_To_autoscaling_MetricSpec}. */
    static ObjectNode specToV2(JsonNode m) {
        ObjectNode out = Json.object();
        out.put("type", m.path("type").asText(""));
        if (has(m, OBJECT)) {
            JsonNode src = m.get(OBJECT);
            ObjectNode o = out.putObject(OBJECT);
            o.set("describedObject", reference(object(src, "target")));
            ObjectNode target = o.putObject("target").put("type", has(src, "averageValue") ? "AverageValue" : "Value");
            copyOr(src, "targetValue", target, "value", ZERO);
            copy(src, "averageValue", target);
            o.set("metric", identifier(src, "metricName", "selector"));
        }
        if (has(m, PODS)) {
            JsonNode src = m.get(PODS);
            ObjectNode o = out.putObject(PODS);
            o.set("metric", identifier(src, "metricName", "selector"));
            ObjectNode target = o.putObject("target").put("type", "AverageValue");
            copyOr(src, "targetAverageValue", target, "averageValue", ZERO);
        }
        for (String source : new String[] {RESOURCE, CONTAINER_RESOURCE}) {
            if (has(m, source)) {
                JsonNode src = m.get(source);
                ObjectNode o = out.putObject(source);
                o.put("name", src.path("name").asText(""));
                ObjectNode target = o.putObject("target")
                        .put("type", has(src, "targetAverageUtilization") ? "Utilization" : "AverageValue");
                copy(src, "targetAverageValue", target, "averageValue");
                copy(src, "targetAverageUtilization", target, "averageUtilization");
                if (source.equals(CONTAINER_RESOURCE)) {
                    o.put("container", src.path("container").asText(""));
                }
            }
        }
        if (has(m, EXTERNAL)) {
            JsonNode src = m.get(EXTERNAL);
            ObjectNode o = out.putObject(EXTERNAL);
            o.set("metric", identifier(src, "metricName", "metricSelector"));
            ObjectNode target = o.putObject("target").put("type", has(src, "targetValue") ? "Value" : "AverageValue");
            copy(src, "targetValue", target, "value");
            copy(src, "targetAverageValue", target, "averageValue");
        }
        return out;
    }

    /** {@code Convert_autoscaling_MetricStatus_To_v1_MetricStatus}. */
    static ObjectNode statusToV1(JsonNode m) {
        ObjectNode out = Json.object();
        out.put("type", m.path("type").asText(""));
        if (has(m, OBJECT)) {
            JsonNode src = m.get(OBJECT);
            ObjectNode o = out.putObject(OBJECT);
            o.set("target", reference(object(src, "describedObject")));
            o.put("metricName", object(src, "metric").path("name").asText(""));
            copyOr(object(src, "current"), "value", o, "currentValue", ZERO);
            copy(object(src, "metric"), "selector", o);
            copy(object(src, "current"), "averageValue", o);
        }
        if (has(m, PODS)) {
            JsonNode src = m.get(PODS);
            ObjectNode o = out.putObject(PODS);
            o.put("metricName", object(src, "metric").path("name").asText(""));
            copyOr(object(src, "current"), "averageValue", o, "currentAverageValue", ZERO);
            copy(object(src, "metric"), "selector", o);
        }
        for (String source : new String[] {RESOURCE, CONTAINER_RESOURCE}) {
            if (has(m, source)) {
                JsonNode src = m.get(source);
                ObjectNode o = out.putObject(source);
                o.put("name", src.path("name").asText(""));
                copy(object(src, "current"), "averageUtilization", o, "currentAverageUtilization");
                copyOr(object(src, "current"), "averageValue", o, "currentAverageValue", ZERO);
                if (source.equals(CONTAINER_RESOURCE)) {
                    o.put("container", src.path("container").asText(""));
                }
            }
        }
        if (has(m, EXTERNAL)) {
            JsonNode src = m.get(EXTERNAL);
            ObjectNode o = out.putObject(EXTERNAL);
            o.put("metricName", object(src, "metric").path("name").asText(""));
            copy(object(src, "metric"), "selector", o, "metricSelector");
            copyOr(object(src, "current"), "value", o, "currentValue", ZERO);
            copy(object(src, "current"), "averageValue", o, "currentAverageValue");
        }
        return out;
    }

    /** {@code Convert_v1_MetricStatus_To_autoscaling_MetricStatus}. */
    static ObjectNode statusToV2(JsonNode m) {
        ObjectNode out = Json.object();
        out.put("type", m.path("type").asText(""));
        if (has(m, OBJECT)) {
            JsonNode src = m.get(OBJECT);
            ObjectNode o = out.putObject(OBJECT);
            o.set("metric", identifier(src, "metricName", "selector"));
            ObjectNode current = o.putObject("current");
            copyOr(src, "currentValue", current, "value", ZERO);
            copy(src, "averageValue", current);
            o.set("describedObject", reference(object(src, "target")));
        }
        if (has(m, PODS)) {
            JsonNode src = m.get(PODS);
            ObjectNode o = out.putObject(PODS);
            o.set("metric", identifier(src, "metricName", "selector"));
            copyOr(src, "currentAverageValue", o.putObject("current"), "averageValue", ZERO);
        }
        for (String source : new String[] {RESOURCE, CONTAINER_RESOURCE}) {
            if (has(m, source)) {
                JsonNode src = m.get(source);
                ObjectNode o = out.putObject(source);
                o.put("name", src.path("name").asText(""));
                ObjectNode current = o.putObject("current");
                copyOr(src, "currentAverageValue", current, "averageValue", ZERO);
                copy(src, "currentAverageUtilization", current, "averageUtilization");
                if (source.equals(CONTAINER_RESOURCE)) {
                    o.put("container", src.path("container").asText(""));
                }
            }
        }
        if (has(m, EXTERNAL)) {
            JsonNode src = m.get(EXTERNAL);
            ObjectNode o = out.putObject(EXTERNAL);
            o.set("metric", identifier(src, "metricName", "metricSelector"));
            ObjectNode current = o.putObject("current");
            copyOr(src, "currentValue", current, "value", ZERO);
            copy(src, "currentAverageValue", current, "averageValue");
        }
        return out;
    }

    /** A {@code CrossVersionObjectReference}: kind and name always, apiVersion when set. */
    static ObjectNode reference(JsonNode ref) {
        ObjectNode out = Json.object();
        out.put("kind", ref.path("kind").asText(""));
        out.put("name", ref.path("name").asText(""));
        copy(ref, "apiVersion", out);
        return out;
    }

    /** A v2 {@code MetricIdentifier} from v1's name and selector fields. */
    private static ObjectNode identifier(JsonNode src, String nameField, String selectorField) {
        ObjectNode id = Json.object();
        id.put("name", src.path(nameField).asText(""));
        copy(src, selectorField, id, "selector");
        return id;
    }
}
