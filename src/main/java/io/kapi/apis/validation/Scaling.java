package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.registry.KindValidator;
import java.util.List;

/**
 * PodDisruptionBudgets (policy/v1) and HorizontalPodAutoscalers (autoscaling/v1 and v2, validated in
 * their stored autoscaling/v2 form, as kube validates the internal type).
 */
public final class Scaling {

    private static final List<String> EVICTION_POLICIES = List.of("AlwaysAllow", "IfHealthyBudget");

    private Scaling() {
    }

    public static final KindValidator PDB = Rules.of(Scaling::pdb);
    public static final KindValidator HPA = Rules.of(Scaling::hpa);

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
        HpaMetricRules.reference(GoValues.at(spec, "scaleTargetRef"), "spec.scaleTargetRef", e);
        HpaMetricRules.metrics(spec, e);
    }
}
