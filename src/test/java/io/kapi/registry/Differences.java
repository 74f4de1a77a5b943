package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/** Where two JSON trees first differ, for assertion messages. */
final class Differences {

    private Differences() {
    }

    /**
     * Every difference, except values that protobuf storage drops as kube-apiserver does: zero values
     * ({@code ""}, {@code 0}, {@code false}, {@code []}, {@code {}}) of fields Go leaves out of its JSON when
     * they are zero ({@code omitempty}), which the round trip through Go's types drops on kube too.
     */
    static java.util.List<String> beyondZeroValues(String at, JsonNode want, JsonNode got) {
        java.util.List<String> out = new java.util.ArrayList<>();
        if (want instanceof ObjectNode w && got instanceof ObjectNode g) {
            for (Map.Entry<String, JsonNode> e : w.properties()) {
                JsonNode other = g.get(e.getKey());
                if (other == null) {
                    if (!isZero(e.getValue())) {
                        out.add(at + "." + e.getKey() + " lost: " + e.getValue());
                    }
                } else {
                    out.addAll(beyondZeroValues(at + "." + e.getKey(), e.getValue(), other));
                }
            }
            for (String k : (Iterable<String>) g::fieldNames) {
                if (!w.has(k)) {
                    out.add(at + "." + k + " added: " + g.get(k));
                }
            }
        } else if (want instanceof ArrayNode w && got instanceof ArrayNode g && w.size() == g.size()) {
            for (int i = 0; i < w.size(); i++) {
                out.addAll(beyondZeroValues(at + "[" + i + "]", w.get(i), g.get(i)));
            }
        } else if (!want.equals(got)) {
            out.add(at + ": " + want + " became " + got);
        }
        return out;
    }

    private static boolean isZero(JsonNode v) {
        return v.isContainerNode() ? v.isEmpty() : v.isTextual() ? v.asText().isEmpty()
                : v.isNumber() ? v.asDouble() == 0 : v.isBoolean() && !v.asBoolean();
    }

    static String first(String at, JsonNode want, JsonNode got) {
        if (want instanceof ObjectNode w && got instanceof ObjectNode g) {
            for (Map.Entry<String, JsonNode> e : w.properties()) {
                if (g.get(e.getKey()) == null || !e.getValue().equals(g.get(e.getKey()))) {
                    return g.get(e.getKey()) == null ? at + "." + e.getKey() + " lost: " + e.getValue()
                            : first(at + "." + e.getKey(), e.getValue(), g.get(e.getKey()));
                }
            }
            for (String k : (Iterable<String>) g::fieldNames) {
                if (!w.has(k)) {
                    return at + "." + k + " added: " + g.get(k);
                }
            }
        }
        if (want instanceof ArrayNode w && got instanceof ArrayNode g && w.size() == g.size()) {
            for (int i = 0; i < w.size(); i++) {
                if (!w.get(i).equals(g.get(i))) {
                    return first(at + "[" + i + "]", w.get(i), g.get(i));
                }
            }
        }
        return at + ": " + want + " became " + got;
    }
}
