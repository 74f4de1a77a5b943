package io.kapi.machinery.validation;

import com.fasterxml.jackson.databind.JsonNode;

/** How Go's {@code encoding/json} names a JSON value in its type errors. */
final class GoNames {

    private GoNames() {
    }

    /** {@code object}, {@code array}, {@code string}, {@code number}, {@code bool} or {@code null}. */
    static String jsonKind(JsonNode v) {
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
