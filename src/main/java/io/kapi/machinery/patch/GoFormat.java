package io.kapi.machinery.patch;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoJson;
import io.kapi.machinery.GoStrings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Renders JSON values the way Go's {@code fmt} prints decoded JSON ({@code %v} of
 * {@code map[string]interface{}}), and names their Go types, so that the strategic merge errors read as
 * kube-apiserver's: {@code map: map[image:nginx] does not contain declared merge key: name}.
 */
final class GoFormat {

    private GoFormat() {
    }

    /** {@code %v}: maps with sorted keys as {@code map[k:v k2:v2]}, lists as {@code [a b]}, null as {@code <nil>}. */
    static String value(JsonNode node) {
        StringBuilder b = new StringBuilder();
        append(b, node);
        return b.toString();
    }

    /** The Go type {@code encoding/json} decodes a value into, as {@code reflect.TypeOf} prints it. */
    static String typeName(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return "<nil>";
        }
        if (node.isObject()) {
            return "map[string]interface {}";
        }
        if (node.isArray()) {
            return "[]interface {}";
        }
        if (node.isTextual()) {
            return "string";
        }
        if (node.isBoolean()) {
            return "bool";
        }
        return node.isIntegralNumber() ? "int64" : "float64";
    }

    /** The JSON kind word {@code encoding/json} uses in "cannot unmarshal X into Go value of type ...". */
    static String jsonKind(JsonNode node) {
        return GoJson.kind(node);
    }

    private static void append(StringBuilder b, JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            b.append("<nil>");
        } else if (node.isObject()) {
            List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(node.properties());
            entries.sort(Map.Entry.comparingByKey());
            b.append("map[");
            for (int i = 0; i < entries.size(); i++) {
                if (i > 0) {
                    b.append(' ');
                }
                b.append(entries.get(i).getKey()).append(':');
                append(b, entries.get(i).getValue());
            }
            b.append(']');
        } else if (node.isArray()) {
            b.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    b.append(' ');
                }
                append(b, node.get(i));
            }
            b.append(']');
        } else if (node.isTextual()) {
            b.append(node.textValue());
        } else {
            b.append(node.asText());
        }
    }
}
