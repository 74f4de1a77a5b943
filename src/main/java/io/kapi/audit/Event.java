package io.kapi.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.user.UserInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The audit event of one request as it is built up, filter by filter (audit.k8s.io/v1 {@code Event}).
 * Each stage writes a {@linkplain #snapshot snapshot} of it, so the backends never see it change. Written
 * by the request's thread; a streamed response's writer takes over once the filter has returned.
 */
final class Event {

    final Level level;
    final String auditId;
    final String requestUri;
    final String verb;
    final UserInfo user;
    final List<String> sourceIps;
    final String userAgent;
    final Instant received;
    /** null for a non-resource request; fields as audit.k8s.io/v1 {@code ObjectReference} names them. */
    final Map<String, String> objectRef;
    volatile UserInfo impersonatedUser;
    volatile ObjectNode responseStatus;
    volatile JsonNode requestObject;
    volatile JsonNode responseObject;
    private final Map<String, String> annotations = new TreeMap<>();

    Event(Level level, String auditId, String requestUri, String verb, UserInfo user, List<String> sourceIps,
          String userAgent, Instant received, Map<String, String> objectRef) {
        this.level = level;
        this.auditId = auditId;
        this.requestUri = requestUri;
        this.verb = verb;
        this.user = user;
        this.sourceIps = sourceIps;
        this.userAgent = userAgent;
        this.received = received;
        this.objectRef = objectRef;
    }

    /** Adds an annotation; kube keeps the first value of a key. */
    synchronized void annotate(String key, String value) {
        annotations.putIfAbsent(key, value);
    }

    /** The event as written at {@code stage}: kind and apiVersion, then kube's field order. */
    synchronized ObjectNode snapshot(Stage stage, Instant now) {
        ObjectNode e = Json.object();
        e.put("kind", "Event").put("apiVersion", "audit.k8s.io/v1");
        e.put("level", level.apiName()).put("auditID", auditId).put("stage", stage.apiName());
        e.put("requestURI", requestUri).put("verb", verb);
        e.set("user", user(user));
        if (impersonatedUser != null) {
            e.set("impersonatedUser", user(impersonatedUser));
        }
        ArrayNode ips = e.putArray("sourceIPs");
        sourceIps.forEach(ips::add);
        if (!userAgent.isEmpty()) {
            e.put("userAgent", userAgent);
        }
        if (objectRef != null) {
            ObjectNode ref = e.putObject("objectRef");
            for (String field : List.of("resource", "namespace", "name", "uid", "apiGroup", "apiVersion",
                    "resourceVersion", "subresource")) {
                String v = objectRef.get(field);
                if (v != null && !v.isEmpty()) {
                    ref.put(field, v);
                }
            }
        }
        if (responseStatus != null) {
            e.set("responseStatus", responseStatus.deepCopy());
        }
        if (requestObject != null) {
            e.set("requestObject", requestObject);
        }
        if (responseObject != null) {
            e.set("responseObject", responseObject);
        }
        e.put("requestReceivedTimestamp", MicroTimestamp.format(received));
        e.put("stageTimestamp", MicroTimestamp.format(now));
        if (!annotations.isEmpty()) {
            ObjectNode a = e.putObject("annotations");
            annotations.forEach(a::put);
        }
        return e;
    }

    private static ObjectNode user(UserInfo u) {
        ObjectNode n = Json.object();
        if (u == null) {
            return n;
        }
        if (!u.name().isEmpty()) {
            n.put("username", u.name());
        }
        if (!u.uid().isEmpty()) {
            n.put("uid", u.uid());
        }
        if (!u.groups().isEmpty()) {
            ArrayNode g = n.putArray("groups");
            u.groups().forEach(g::add);
        }
        if (!u.extra().isEmpty()) {
            ObjectNode x = n.putObject("extra");
            new TreeMap<>(u.extra()).forEach((k, vs) -> {
                ArrayNode a = x.putArray(k);
                vs.forEach(a::add);
            });
        }
        return n;
    }
}
