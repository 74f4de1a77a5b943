package io.kapi.apis.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.util.Iterator;
import java.util.Map;

/**
 * The {@code autoscaling.alpha.kubernetes.io/behavior} annotation. kube marshals its internal
 * {@code HorizontalPodAutoscalerBehavior} there, a type without JSON tags: the keys are the Go field
 * names ({@code ScaleUp}, {@code StabilizationWindowSeconds}, ...), nil pointers and slices are
 * {@code null}, and reading it back matches keys without regard to case, as Go's {@code encoding/json}.
 * A value that does not decode, or decodes to an empty behavior, is ignored (kube moves only well-formed
 * data from the annotation to the field).
 */
final class HpaBehavior {

    private HpaBehavior() {
    }

    /** The annotation's value for a v2 {@code spec.behavior}. */
    static ObjectNode encode(JsonNode behavior) {
        ObjectNode out = Json.object();
        out.set("ScaleUp", rules(behavior.get("scaleUp")));
        out.set("ScaleDown", rules(behavior.get("scaleDown")));
        return out;
    }

    private static JsonNode rules(JsonNode r) {
        if (r == null || !r.isObject()) {
            return NullNode.getInstance();
        }
        ObjectNode out = Json.object();
        out.set("StabilizationWindowSeconds", orNull(r.get("stabilizationWindowSeconds")));
        out.set("SelectPolicy", orNull(r.get("selectPolicy")));
        JsonNode policies = r.get("policies");
        if (policies != null && policies.isArray()) {
            var list = out.putArray("Policies");
            for (JsonNode p : policies) {
                ObjectNode policy = list.addObject();
                policy.set("Type", p.has("type") ? p.get("type").deepCopy() : Json.NODES.textNode(""));
                policy.set("Value", p.has("value") ? p.get("value").deepCopy() : Json.NODES.numberNode(0));
                policy.set("PeriodSeconds", p.has("periodSeconds") ? p.get("periodSeconds").deepCopy()
                        : Json.NODES.numberNode(0));
            }
        } else {
            out.putNull("Policies");
        }
        out.set("Tolerance", orNull(r.get("tolerance")));
        return out;
    }

    /** The v2 {@code spec.behavior} the annotation holds, or null when it holds none that is well formed. */
    static ObjectNode decode(String annotation) {
        JsonNode v = HpaAnnotations.parse(annotation);
        if (v == null || !v.isObject()) {
            return null;
        }
        ObjectNode out = Json.object();
        ObjectNode up = rulesFrom(field(v, "ScaleUp"));
        ObjectNode down = rulesFrom(field(v, "ScaleDown"));
        if (up != null) {
            out.set("scaleUp", up);
        }
        if (down != null) {
            out.set("scaleDown", down);
        }
        return out.isEmpty() ? null : out;
    }

    private static ObjectNode rulesFrom(JsonNode r) {
        if (r == null || !r.isObject()) {
            return null;
        }
        ObjectNode out = Json.object();
        set(out, "stabilizationWindowSeconds", field(r, "StabilizationWindowSeconds"));
        set(out, "selectPolicy", field(r, "SelectPolicy"));
        JsonNode policies = field(r, "Policies");
        if (policies != null && policies.isArray()) {
            var list = out.putArray("policies");
            for (JsonNode p : policies) {
                ObjectNode policy = list.addObject();
                policy.set("type", orDefault(field(p, "Type"), Json.NODES.textNode("")));
                policy.set("value", orDefault(field(p, "Value"), Json.NODES.numberNode(0)));
                policy.set("periodSeconds", orDefault(field(p, "PeriodSeconds"), Json.NODES.numberNode(0)));
            }
        }
        set(out, "tolerance", field(r, "Tolerance"));
        return out;
    }

    /** {@code encoding/json}'s key match: exact first, else the first key equal ignoring case. */
    private static JsonNode field(JsonNode object, String name) {
        if (!object.isObject()) {
            return null;
        }
        JsonNode exact = object.get(name);
        if (exact != null) {
            return exact;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    private static void set(ObjectNode out, String name, JsonNode value) {
        if (value != null && !value.isNull()) {
            out.set(name, value.deepCopy());
        }
    }

    private static JsonNode orNull(JsonNode v) {
        return v == null ? NullNode.getInstance() : v.deepCopy();
    }

    private static JsonNode orDefault(JsonNode v, JsonNode zero) {
        return v == null || v.isNull() ? zero : v.deepCopy();
    }
}
