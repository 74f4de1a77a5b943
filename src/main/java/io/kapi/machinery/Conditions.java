package io.kapi.machinery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * The conditions of an object's status (a CRD's, an APIService's), set as kube's {@code SetCRDCondition} and
 * {@code SetAPIServiceCondition} set them: a condition keeps its {@code lastTransitionTime} unless its status
 * changes; reason and message are always replaced.
 */
public final class Conditions {

    private Conditions() {
    }

    /** Sets condition {@code type} on {@code object} in place; returns whether anything changed. */
    public static boolean set(ObjectNode object, String type, String status, String reason, String message, Instant now) {
        ArrayNode conditions = object.with("status").withArray("conditions");
        for (JsonNode c : conditions) {
            ObjectNode existing = (ObjectNode) c;
            if (!existing.path("type").asText().equals(type)) {
                continue;
            }
            boolean same = existing.path("status").asText().equals(status)
                    && existing.path("reason").asText().equals(reason)
                    && existing.path("message").asText().equals(message);
            if (same) {
                return false;
            }
            if (!existing.path("status").asText().equals(status)) {
                existing.put("lastTransitionTime", ObjectMeta.format(now));
            }
            existing.put("status", status);
            existing.put("reason", reason);
            existing.put("message", message);
            return true;
        }
        ObjectNode c = conditions.addObject();
        c.put("type", type);
        c.put("status", status);
        c.put("lastTransitionTime", ObjectMeta.format(now));
        c.put("reason", reason);
        c.put("message", message);
        return true;
    }

    /** Removes condition {@code type}; returns whether it was there. */
    public static boolean remove(ObjectNode object, String type) {
        JsonNode conditions = object.path("status").path("conditions");
        for (int i = 0; i < conditions.size(); i++) {
            if (conditions.get(i).path("type").asText().equals(type)) {
                ((ArrayNode) conditions).remove(i);
                return true;
            }
        }
        return false;
    }
}
