package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The fixed specs of kube's mandatory flow-control objects ({@code internalbootstrap}: the {@code exempt} and
 * {@code catch-all} FlowSchemas and PriorityLevelConfigurations), read from the bootstrap data file the
 * post-start hook writes them from, and the {@code apiequality.Semantic.DeepEqual} test against them: an absent,
 * null, empty, {@code false} or {@code ""} value counts as Go's zero value.
 */
final class MandatoryFlowControl {

    private static final String DATA = "/apis/bootstrap/flowcontrol";

    private static final class Specs {
        static final Map<String, JsonNode> FLOW_SCHEMAS = specs("mandatoryFlowSchemas");
        static final Map<String, JsonNode> PRIORITY_LEVELS = specs("mandatoryPriorityLevelConfigurations");
    }

    private MandatoryFlowControl() {
    }

    /** Whether {@code name} is a mandatory FlowSchema whose fixed spec {@code spec} is not. */
    static boolean flowSchemaDiffers(String name, JsonNode spec) {
        JsonNode fixed = Specs.FLOW_SCHEMAS.get(name);
        return fixed != null && !fixed.equals(normal(spec));
    }

    /** Whether {@code name} is a mandatory level whose fixed spec {@code spec} is not; exempt's {@code exempt} is free. */
    static boolean priorityLevelDiffers(String name, JsonNode spec) {
        JsonNode fixed = Specs.PRIORITY_LEVELS.get(name);
        if (fixed == null) {
            return false;
        }
        JsonNode have = normal(spec);
        if (name.equals("exempt")) {
            ObjectNode want = ((ObjectNode) fixed).deepCopy();
            want.remove("exempt");
            if (have instanceof ObjectNode o) {
                o.remove("exempt");
            }
            return !want.equals(have);
        }
        return !fixed.equals(have);
    }

    /** The value with Go's zero values dropped and integers of one node type; an empty object when all is zero. */
    static JsonNode normal(JsonNode v) {
        JsonNode n = strip(v);
        return n == null ? Json.NODES.objectNode() : n;
    }

    private static JsonNode strip(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode() || v.isBoolean() && !v.booleanValue()
                || v.isTextual() && v.textValue().isEmpty()) {
            return null;
        }
        if (v.isIntegralNumber()) {
            return Json.NODES.numberNode(v.longValue());
        }
        if (v.isObject()) {
            ObjectNode out = Json.NODES.objectNode();
            v.properties().forEach(e -> {
                JsonNode s = strip(e.getValue());
                if (s != null) {
                    out.set(e.getKey(), s);
                }
            });
            return out.isEmpty() ? null : out;
        }
        if (v.isArray()) {
            ArrayNode out = Json.NODES.arrayNode();
            v.forEach(item -> {
                JsonNode s = strip(item);
                out.add(s == null ? Json.NODES.objectNode() : s);
            });
            return out.isEmpty() ? null : out;
        }
        return v;
    }

    private static Map<String, JsonNode> specs(String list) {
        Map<String, JsonNode> out = new HashMap<>();
        for (JsonNode o : read().path(list)) {
            out.put(o.path("name").asText(), normal(o.get("spec")));
        }
        return Map.copyOf(out);
    }

    /** The precompiled JSON of the data file, or the YAML when the build did not write it (an IDE's classes). */
    private static JsonNode read() {
        try (InputStream json = MandatoryFlowControl.class.getResourceAsStream(DATA + ".json")) {
            if (json != null) {
                return Json.MAPPER.readTree(json);
            }
            try (InputStream yaml = MandatoryFlowControl.class.getResourceAsStream(DATA + ".yaml")) {
                if (yaml == null) {
                    throw new IllegalStateException("missing resource " + DATA + ".yaml");
                }
                return Json.yaml().readTree(yaml);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + DATA, e);
        }
    }
}
