package io.kapi.machinery;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What Go's {@code encoding/json} writes: strings escaped as it escapes them, a decoded tree as
 * {@code json.Marshal} writes it, and how it names JSON values in its errors, which kube-apiserver passes on
 * to clients ("json: cannot unmarshal string into Go struct field ... of type int32").
 */
public final class GoJson {

    private GoJson() {
    }

    /**
     * A string as Go's {@code encoding/json} writes it (HTML-safe, its default): {@code "} and {@code \}
     * escaped, {@code \n \r \t}, other control characters and {@code < > &} U+2028 U+2029 as
     * {@code \}{@code u00XX}; everything else as is.
     */
    public static void appendString(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '<', '>', '&', '\u2028', '\u2029' -> b.append(String.format("\\u%04x", (int) c));
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    /**
     * The JSON Go's {@code json.Marshal} writes of a tree decoded into {@code interface{}}: object keys sorted,
     * strings escaped as {@link #appendString}, no spaces (kube hashes it, e.g. a ControllerRevision's name).
     */
    public static String marshal(JsonNode node) {
        StringBuilder b = new StringBuilder();
        write(node, b);
        return b.toString();
    }

    private static void write(JsonNode node, StringBuilder b) {
        if (node.isObject()) {
            java.util.List<String> names = new java.util.ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            b.append('{');
            for (int i = 0; i < names.size(); i++) {
                b.append(i > 0 ? "," : "");
                appendString(b, names.get(i));
                b.append(':');
                write(node.get(names.get(i)), b);
            }
            b.append('}');
        } else if (node.isArray()) {
            b.append('[');
            for (int i = 0; i < node.size(); i++) {
                b.append(i > 0 ? "," : "");
                write(node.get(i), b);
            }
            b.append(']');
        } else if (node.isTextual()) {
            appendString(b, node.asText());
        } else {
            b.append(node);
        }
    }

    /** {@code object}, {@code array}, {@code string}, {@code number}, {@code bool} or {@code null}. */
    public static String kind(JsonNode v) {
        return switch (v.getNodeType()) {
            case OBJECT, POJO -> "object";
            case ARRAY -> "array";
            case STRING, BINARY -> "string";
            case NUMBER -> "number";
            case BOOLEAN -> "bool";
            case NULL, MISSING -> "null";
        };
    }
}
