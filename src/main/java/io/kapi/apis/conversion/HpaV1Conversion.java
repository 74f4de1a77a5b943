package io.kapi.apis.conversion;

import static io.kapi.apis.conversion.Nodes.copy;
import static io.kapi.apis.conversion.Nodes.copyOr;
import static io.kapi.apis.conversion.Nodes.has;
import static io.kapi.apis.conversion.Nodes.object;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.conversion.Converter;
import io.kapi.registry.Defaulter;
import java.util.List;

/**
 * {@code autoscaling/v1} HorizontalPodAutoscalers, stored as {@code autoscaling/v2}, converted as kube's
 * {@code pkg/apis/autoscaling/v1/conversion.go} does through the internal type. v1 has one target,
 * {@code targetCPUUtilizationPercentage}, which is v2's {@code Resource} metric of {@code cpu} with an
 * {@code Utilization} target, and one current value, {@code currentCPUUtilizationPercentage}; every other
 * metric, the current metrics, the conditions and the behavior travel through v1 in the
 * {@link HpaAnnotations round-trip annotations}, so a v1 client that reads an object and writes it back
 * loses nothing. An HPA without any metric gets kube's implicit 80% CPU target on the way in.
 */
public final class HpaV1Conversion implements Converter {

    /** kube's {@code autoscaling.DefaultCPUUtilization}. */
    static final int DEFAULT_CPU_UTILIZATION = 80;

    private final Defaulter storageDefaults;

    /** @param storageDefaults the {@code autoscaling/v2} defaults, applied to converted objects */
    public HpaV1Conversion(Defaulter storageDefaults) {
        this.storageDefaults = storageDefaults;
    }

    @Override
    public ObjectNode toStorage(ObjectNode v1) {
        ObjectNode out = Nodes.header("autoscaling/v2", "HorizontalPodAutoscaler", v1);
        JsonNode spec = object(v1, "spec");
        ObjectNode outSpec = out.putObject("spec");
        outSpec.set("scaleTargetRef", HpaMetrics.reference(object(spec, "scaleTargetRef")));
        copy(spec, "minReplicas", outSpec);
        copyOr(spec, "maxReplicas", outSpec, "maxReplicas", IntNode.valueOf(0));
        ArrayNode metrics = outSpec.putArray("metrics");
        List<JsonNode> others = HpaAnnotations.list(v1, HpaAnnotations.METRICS);
        if (others != null) {
            others.forEach(m -> metrics.add(HpaMetrics.specToV2(m)));
        }
        if (has(spec, "targetCPUUtilizationPercentage")) {
            metrics.add(cpuMetric(spec.get("targetCPUUtilizationPercentage")));
        }
        if (metrics.isEmpty()) {
            metrics.add(cpuMetric(IntNode.valueOf(DEFAULT_CPU_UTILIZATION)));
        }
        String behavior = HpaAnnotations.get(v1, HpaAnnotations.BEHAVIOR);
        ObjectNode decoded = behavior == null ? null : HpaBehavior.decode(behavior);
        if (decoded != null) {
            outSpec.set("behavior", decoded);
        }
        out.set("status", statusToV2(v1));
        HpaAnnotations.drop(out);
        storageDefaults.apply(out);
        return out;
    }

    private static ObjectNode statusToV2(ObjectNode v1) {
        JsonNode status = object(v1, "status");
        ObjectNode out = Json.object();
        copy(status, "observedGeneration", out);
        copy(status, "lastScaleTime", out);
        if (status.path("currentReplicas").asLong(0) != 0) {
            out.set("currentReplicas", status.get("currentReplicas").deepCopy());
        }
        copyOr(status, "desiredReplicas", out, "desiredReplicas", IntNode.valueOf(0));
        List<JsonNode> current = HpaAnnotations.list(v1, HpaAnnotations.CURRENT_METRICS);
        if (current != null) {
            ArrayNode list = out.putArray("currentMetrics");
            current.forEach(m -> list.add(HpaMetrics.statusToV2(m)));
        } else if (has(status, "currentCPUUtilizationPercentage")) {
            ObjectNode cpu = out.putArray("currentMetrics").addObject().put("type", "Resource");
            cpu.putObject("resource").put("name", "cpu").putObject("current")
                    .set("averageUtilization", status.get("currentCPUUtilizationPercentage").deepCopy());
        }
        List<JsonNode> conditions = HpaAnnotations.list(v1, HpaAnnotations.CONDITIONS);
        if (conditions != null && !conditions.isEmpty()) {
            ArrayNode list = out.putArray("conditions");
            conditions.forEach(c -> list.add(condition(c, false)));
        }
        return out;
    }

    @Override
    public ObjectNode fromStorage(ObjectNode v2) {
        ObjectNode out = Nodes.header("autoscaling/v1", "HorizontalPodAutoscaler", v2);
        HpaAnnotations.drop(out);
        JsonNode spec = object(v2, "spec");
        ObjectNode outSpec = out.putObject("spec");
        outSpec.set("scaleTargetRef", HpaMetrics.reference(object(spec, "scaleTargetRef")));
        copy(spec, "minReplicas", outSpec);
        copyOr(spec, "maxReplicas", outSpec, "maxReplicas", IntNode.valueOf(0));
        ArrayNode others = Json.MAPPER.createArrayNode();
        for (JsonNode m : spec.path("metrics")) {
            if (HpaMetrics.isCpuUtilization(m)) {
                if (!outSpec.has("targetCPUUtilizationPercentage")) {
                    outSpec.set("targetCPUUtilizationPercentage",
                            m.path("resource").path("target").get("averageUtilization").deepCopy());
                }
            } else {
                others.add(HpaMetrics.specToV1(m));
            }
        }
        JsonNode status = object(v2, "status");
        out.set("status", statusToV1(status));
        if (!others.isEmpty()) {
            HpaAnnotations.put(out, HpaAnnotations.METRICS, others);
        }
        if (!status.path("currentMetrics").isEmpty()) {
            ArrayNode current = Json.MAPPER.createArrayNode();
            status.get("currentMetrics").forEach(m -> current.add(HpaMetrics.statusToV1(m)));
            HpaAnnotations.put(out, HpaAnnotations.CURRENT_METRICS, current);
        }
        if (has(spec, "behavior")) {
            HpaAnnotations.put(out, HpaAnnotations.BEHAVIOR, HpaBehavior.encode(spec.get("behavior")));
        }
        if (!status.path("conditions").isEmpty()) {
            ArrayNode conditions = Json.MAPPER.createArrayNode();
            status.get("conditions").forEach(c -> conditions.add(condition(c, true)));
            HpaAnnotations.put(out, HpaAnnotations.CONDITIONS, conditions);
        }
        return out;
    }

    /** v1's status: replicas always (Go values), the last CPU utilisation among the current metrics. */
    private static ObjectNode statusToV1(JsonNode status) {
        ObjectNode out = Json.object();
        copy(status, "observedGeneration", out);
        copy(status, "lastScaleTime", out);
        copyOr(status, "currentReplicas", out, "currentReplicas", IntNode.valueOf(0));
        copyOr(status, "desiredReplicas", out, "desiredReplicas", IntNode.valueOf(0));
        for (JsonNode m : status.path("currentMetrics")) {
            JsonNode resource = m.path("resource");
            if ("Resource".equals(m.path("type").asText()) && "cpu".equals(resource.path("name").asText())
                    && has(resource.path("current"), "averageUtilization")) {
                out.set("currentCPUUtilizationPercentage", resource.path("current").get("averageUtilization").deepCopy());
            }
        }
        return out;
    }

    /** v2's {@code Resource} metric of {@code cpu} with an {@code Utilization} target. */
    private static ObjectNode cpuMetric(JsonNode utilization) {
        ObjectNode metric = Json.object().put("type", "Resource");
        metric.putObject("resource").put("name", "cpu").putObject("target").put("type", "Utilization")
                .set("averageUtilization", utilization.deepCopy());
        return metric;
    }

    /**
     * A condition, the same in both versions; in the annotation (as Go marshals v1's type) the
     * transition time is always written, {@code null} when unset.
     */
    private static ObjectNode condition(JsonNode c, boolean annotation) {
        ObjectNode out = Json.object();
        out.put("type", c.path("type").asText(""));
        out.put("status", c.path("status").asText(""));
        if (annotation) {
            out.set("lastTransitionTime", has(c, "lastTransitionTime") ? c.get("lastTransitionTime").deepCopy()
                    : Json.NODES.nullNode());
        } else {
            copy(c, "lastTransitionTime", out);
        }
        if (!Nodes.text(c, "reason").isEmpty()) {
            copy(c, "reason", out);
        }
        if (!Nodes.text(c, "message").isEmpty()) {
            copy(c, "message", out);
        }
        return out;
    }
}
