package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.NameRule;
import java.util.List;

/** PodDisruptionBudgets (policy/v1) and HorizontalPodAutoscalers (autoscaling/v1, v2). */
final class Scaling {

    private static final List<String> EVICTION_POLICIES = List.of("AlwaysAllow", "IfHealthyBudget");

    private Scaling() {
    }

    static final Rules PDB = Rules.of(Scaling::pdb);
    static final Rules HPA = Rules.of(Scaling::hpa);

    private static void pdb(ObjectNode pdb, Errs e) {
        JsonNode spec = GoValues.at(pdb, "spec");
        JsonNode min = spec.get("minAvailable");
        JsonNode max = spec.get("maxUnavailable");
        boolean hasMin = min != null && !min.isNull();
        boolean hasMax = max != null && !max.isNull();
        if (hasMin && hasMax) {
            e.invalid("spec", "policy.PodDisruptionBudgetSpec{MinAvailable:" + Workloads.render(min) + ", MaxUnavailable:"
                    + Workloads.render(max) + "}", "minAvailable and maxUnavailable cannot be both set");
        }
        for (var f : List.of("minAvailable", "maxUnavailable")) {
            JsonNode v = spec.get(f);
            if (v == null || v.isNull()) {
                continue;
            }
            Workloads.intOrPercent(v, "spec." + f, e);
            if (v.isTextual() && v.asText().matches("[0-9]+%")
                    && Long.parseLong(v.asText().substring(0, v.asText().length() - 1)) > 100) {
                e.invalid("spec." + f, v.asText(), "must not be greater than 100%");
            }
        }
        if (GoValues.has(spec, "selector")) {
            Selectors.validate(spec.get("selector"), "spec.selector", e);
        }
        String policy = GoValues.text(spec, "unhealthyPodEvictionPolicy");
        if (GoValues.has(spec, "unhealthyPodEvictionPolicy") && !EVICTION_POLICIES.contains(policy)) {
            e.notSupported("spec.unhealthyPodEvictionPolicy", GoStrings.quote(policy), EVICTION_POLICIES);
        }
    }

    private static void hpa(ObjectNode hpa, Errs e) {
        JsonNode spec = GoValues.at(hpa, "spec");
        JsonNode min = spec.get("minReplicas");
        if (min != null && min.isNumber() && min.asLong() < 1) {
            e.invalid("spec.minReplicas", min.asText(), "must be greater than or equal to 1");
        }
        long max = GoValues.at(spec, "maxReplicas").asLong(0);
        if (max < 1) {
            e.invalid("spec.maxReplicas", Long.toString(max), "must be greater than 0");
        }
        if (min != null && min.isNumber() && max < min.asLong()) {
            e.invalid("spec.maxReplicas", Long.toString(max), "must be greater than or equal to `minReplicas`");
        }
        JsonNode ref = GoValues.at(spec, "scaleTargetRef");
        for (String f : List.of("kind", "name")) {
            String v = GoValues.text(ref, f);
            if (v.isEmpty()) {
                e.required("spec.scaleTargetRef." + f, "");
            } else {
                e.each("spec.scaleTargetRef." + f, v, NameRule.PATH_SEGMENT.check(v, false));
            }
        }
        JsonNode cpu = spec.get("targetCPUUtilizationPercentage");
        if (cpu != null && cpu.isNumber() && cpu.asLong() < 1) {
            e.invalid("spec.targetCPUUtilizationPercentage", cpu.asText(), "must be greater than 0");
        }
    }
}
