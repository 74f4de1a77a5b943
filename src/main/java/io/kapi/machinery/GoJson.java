package io.kapi.machinery;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How Go's {@code encoding/json} names JSON values in its errors, which kube-apiserver passes on to
 * clients ("json: cannot unmarshal string into Go struct field ... of type int32").
 */
public final class GoJson {

    private GoJson() {
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
