package io.kapi.machinery;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Builds {@code metav1.Status} bodies: the one place an {@link ApiException} becomes JSON. */
public final class Status {

    private Status() {
    }

    public static ObjectNode of(ApiException e) {
        ObjectNode s = header();
        s.put("status", "Failure");
        s.put("message", e.getMessage());
        s.put("reason", e.reason().wire());
        ApiException.Details d = e.details();
        if (d != null && d != ApiException.Details.NONE) {
            ObjectNode details = s.putObject("details");
            putIfPresent(details, "name", d.name());
            putIfPresent(details, "group", d.group());
            putIfPresent(details, "kind", d.kind());
            if (!d.causes().isEmpty()) {
                ArrayNode causes = details.putArray("causes");
                for (StatusCause c : d.causes()) {
                    ObjectNode cause = causes.addObject();
                    putIfPresent(cause, "reason", c.reason());
                    putIfPresent(cause, "message", c.message());
                    putIfPresent(cause, "field", c.field());
                }
            }
            if (d.retryAfterSeconds() != null) {
                details.put("retryAfterSeconds", d.retryAfterSeconds());
            }
        }
        s.put("code", e.code());
        return s;
    }

    /** The Success status a delete of a collection or a name-less delete answers with. */
    public static ObjectNode success(ApiException.Details details, String uid) {
        ObjectNode s = header();
        s.put("status", "Success");
        ObjectNode d = s.putObject("details");
        putIfPresent(d, "name", details.name());
        putIfPresent(d, "group", details.group());
        putIfPresent(d, "kind", details.kind());
        putIfPresent(d, "uid", uid);
        return s;
    }

    private static ObjectNode header() {
        ObjectNode s = Json.object();
        s.put("kind", "Status");
        s.put("apiVersion", "v1");
        s.putObject("metadata");
        return s;
    }

    private static void putIfPresent(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }
}
