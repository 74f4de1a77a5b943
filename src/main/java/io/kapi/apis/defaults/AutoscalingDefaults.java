package io.kapi.apis.defaults;

import static io.kapi.apis.defaults.Fields.child;
import static io.kapi.apis.defaults.Fields.ensure;
import static io.kapi.apis.defaults.Fields.integerPointer;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * HorizontalPodAutoscaler defaults ({@code pkg/apis/autoscaling/v2/defaults.go}): minReplicas 1, a
 * CPU utilisation target of 80% when no metric is given, and, once {@code behavior} is present, each
 * scaling rule filled from kube's default scale-up and scale-down rules.
 */
public final class AutoscalingDefaults {

    static final int DEFAULT_CPU_UTILIZATION = 80;

    private AutoscalingDefaults() {
    }

    public static void v2(ObjectNode object) {
        ObjectNode spec = ensure(object, "spec");
        integerPointer(spec, "minReplicas", 1);
        if (Fields.empty(spec, "metrics")) {
            ObjectNode metric = spec.putArray("metrics").addObject().put("type", "Resource");
            ObjectNode resource = metric.putObject("resource").put("name", "cpu");
            resource.putObject("target").put("type", "Utilization")
                    .put("averageUtilization", DEFAULT_CPU_UTILIZATION);
        }
        ObjectNode behavior = child(spec, "behavior");
        if (behavior != null) {
            ObjectNode up = ensure(behavior, "scaleUp");
            integerPointer(up, "stabilizationWindowSeconds", 0);
            Fields.textPointer(up, "selectPolicy", "Max");
            if (Fields.unset(up, "policies")) {
                ArrayNode policies = up.putArray("policies");
                policies.addObject().put("type", "Pods").put("value", 4).put("periodSeconds", 15);
                policies.addObject().put("type", "Percent").put("value", 100).put("periodSeconds", 15);
            }
            ObjectNode down = ensure(behavior, "scaleDown");
            Fields.textPointer(down, "selectPolicy", "Max");
            if (Fields.unset(down, "policies")) {
                down.putArray("policies").addObject().put("type", "Percent").put("value", 100).put("periodSeconds", 15);
            }
        }
    }

    /**
     * autoscaling/v1: minReplicas 1 ({@code pkg/apis/autoscaling/v1/defaults.go}). The 80% CPU target of
     * an HPA without one is not a v1 default: kube's conversion to the storage version adds it when no
     * metric at all is given (the round-trip annotation may hold others).
     */
    public static void v1(ObjectNode object) {
        ObjectNode spec = ensure(object, "spec");
        integerPointer(spec, "minReplicas", 1);
    }
}
