package io.kapi.machinery;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How Go's {@code encoding/json} names JSON values in its errors, which kube-apiserver passes on to
 * clients ("json: cannot unmarshal string into Go struct field ... of type int32").
 */
public final class GoJson {

    private GoJson() {
    }

    /** Go's {@code %q} of a string: double quotes, with {@code "}, {@code \} and control characters escaped. */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append("\\x%02x".formatted((int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
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
