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
        if (e.reason() != StatusReason.UNKNOWN) {
            s.put("reason", e.reason().wire());
        }
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

    /**
     * What kube-apiserver's timeout filter writes for a request that outlived its deadline before anything
     * was answered: {@code NewTimeoutError("request did not complete within the allotted timeout", 0)}'s
     * Status as Go's JSON encoder writes it, without kind and apiVersion (it is never typed), details empty.
     */
    public static ObjectNode deadlineExceeded() {
        ObjectNode s = Json.object();
        s.putObject("metadata");
        s.put("status", "Failure");
        s.put("message", "Timeout: request did not complete within the allotted timeout");
        s.put("reason", StatusReason.TIMEOUT.wire());
        s.putObject("details");
        s.put("code", 504);
        return s;
    }

    /**
     * The error a {@code Failure} Status body describes (what a client reads back): reason, code,
     * message and details as sent.
     */
    public static ApiException toException(com.fasterxml.jackson.databind.JsonNode status, int httpCode) {
        StatusReason reason = StatusReason.ofWire(status.path("reason").asText(""));
        com.fasterxml.jackson.databind.JsonNode d = status.path("details");
        java.util.List<StatusCause> causes = new java.util.ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode c : d.path("causes")) {
            causes.add(new StatusCause(c.path("reason").asText(null), c.path("message").asText(null),
                    c.path("field").asText(null)));
        }
        ApiException.Details details = d.isMissingNode() ? ApiException.Details.NONE : new ApiException.Details(
                d.path("name").asText(null), d.path("group").asText(null), d.path("kind").asText(null), causes,
                d.has("retryAfterSeconds") ? d.get("retryAfterSeconds").asInt() : null);
        return new ApiException(reason, status.path("code").asInt(httpCode), status.path("message").asText(""), details);
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
