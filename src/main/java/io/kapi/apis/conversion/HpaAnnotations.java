package io.kapi.apis.conversion;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import java.util.List;

/**
 * The annotations in which kube's {@code autoscaling/v1} conversion keeps what only {@code v2} can
 * say ({@code pkg/apis/autoscaling/annotations.go}): the metrics beside the CPU target, the current
 * metrics, the conditions, the behavior, and the scaling tolerances. They exist only on the way through
 * {@code v1}: every conversion to the storage version drops them, and the conversion to {@code v1}
 * writes fresh ones ({@code DropRoundTripHorizontalPodAutoscalerAnnotations}).
 */
final class HpaAnnotations {

    static final String METRICS = "autoscaling.alpha.kubernetes.io/metrics";
    static final String CURRENT_METRICS = "autoscaling.alpha.kubernetes.io/current-metrics";
    static final String CONDITIONS = "autoscaling.alpha.kubernetes.io/conditions";
    static final String BEHAVIOR = "autoscaling.alpha.kubernetes.io/behavior";
    static final String SCALE_DOWN_TOLERANCE = "autoscaling.alpha.kubernetes.io/scale-down-tolerance";
    static final String SCALE_UP_TOLERANCE = "autoscaling.alpha.kubernetes.io/scale-up-tolerance";

    private static final List<String> ROUND_TRIP = List.of(METRICS, BEHAVIOR, SCALE_DOWN_TOLERANCE,
            SCALE_UP_TOLERANCE, CURRENT_METRICS, CONDITIONS);

    private HpaAnnotations() {
    }

    /** Removes the round-trip annotations of {@code object}; an annotation map left empty goes too. */
    static void drop(ObjectNode object) {
        if (!(object.path("metadata").get("annotations") instanceof ObjectNode annotations)) {
            return;
        }
        boolean dropped = false;
        for (String key : ROUND_TRIP) {
            dropped |= annotations.remove(key) != null;
        }
        if (dropped && annotations.isEmpty()) {
            ((ObjectNode) object.get("metadata")).remove("annotations");
        }
    }

    /** The annotation {@code key} of {@code object}, or null. */
    static String get(JsonNode object, String key) {
        JsonNode v = object.path("metadata").path("annotations").get(key);
        return v != null && v.isTextual() ? v.asText() : null;
    }

    /** Sets annotation {@code key} to {@code value} encoded as compact JSON, as Go's {@code json.Marshal}. */
    static void put(ObjectNode object, String key, JsonNode value) {
        try {
            ObjectNode meta = object.get("metadata") instanceof ObjectNode m ? m : object.putObject("metadata");
            ObjectNode annotations = meta.get("annotations") instanceof ObjectNode a ? a : meta.putObject("annotations");
            annotations.put(key, Json.MAPPER.writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw ApiException.internal("cannot encode annotation " + key + ": " + e.getMessage());
        }
    }

    /**
     * The JSON list in annotation {@code key} of {@code object}, or null when absent.
     *
     * @throws ApiException BadRequest when it is not a JSON list, as kube's conversion fails to unmarshal it
     */
    static List<JsonNode> list(JsonNode object, String key) {
        String text = get(object, key);
        if (text == null) {
            return null;
        }
        JsonNode parsed = parse(text);
        if (parsed == null) {
            throw ApiException.badRequest("the annotation " + key + " is not valid JSON");
        }
        if (!parsed.isArray() && !parsed.isNull()) {
            throw ApiException.badRequest("json: cannot unmarshal " + describe(parsed)
                    + " into Go value of type []v1." + (key.equals(CONDITIONS) ? "HorizontalPodAutoscalerCondition"
                    : key.equals(METRICS) ? "MetricSpec" : "MetricStatus"));
        }
        java.util.ArrayList<JsonNode> items = new java.util.ArrayList<>();
        parsed.forEach(items::add);
        return items;
    }

    /** The parsed JSON of {@code text}, or null when it does not parse. */
    static JsonNode parse(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static String describe(JsonNode v) {
        return switch (v.getNodeType()) {
            case OBJECT -> "object";
            case STRING -> "string";
            case NUMBER -> "number";
            case BOOLEAN -> "bool";
            default -> "value";
        };
    }
}
