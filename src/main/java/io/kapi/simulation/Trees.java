package io.kapi.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/** JSON equality as the API compares values: numbers by value (an int and a long of 1 are the same). */
final class Trees {

    private Trees() {
    }

    static boolean same(JsonNode a, JsonNode b) {
        if (a == null || b == null || a.isMissingNode() || b.isMissingNode()) {
            return (a == null || a.isMissingNode()) && (b == null || b.isMissingNode());
        }
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> i = a.fields(); i.hasNext(); ) {
                Map.Entry<String, JsonNode> e = i.next();
                if (!same(e.getValue(), b.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!same(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.getNodeType() == b.getNodeType() && a.asText().equals(b.asText());
    }

    /** Whether every field of {@code wanted} is already so in {@code current}. */
    static boolean covers(JsonNode current, JsonNode wanted) {
        for (Iterator<Map.Entry<String, JsonNode>> i = wanted.fields(); i.hasNext(); ) {
            Map.Entry<String, JsonNode> e = i.next();
            if (!same(e.getValue(), current.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }
}
