package io.kapi.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.request.RequestInfo;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.protobuf.ProtobufCodec;
import java.io.IOException;
import java.util.Arrays;

/** Small pieces of kube's audit event building shared by the policy and the context. */
final class Events {

    private Events() {
    }

    /** The subresource as kube's request info gives it: {@code proxy} of {@code proxy/some/path}. */
    static String subresource(RequestInfo info) {
        String sub = info.subresource();
        int slash = sub.indexOf('/');
        return slash < 0 ? sub : sub.substring(0, slash);
    }

    /**
     * A body as JSON, as kube logs objects whatever their wire format: JSON as it is, YAML and protobuf
     * converted; null for nothing or what cannot be read.
     *
     * @param expected the group and version a protobuf envelope without them defaults to
     */
    static JsonNode parse(byte[] data, int length, String contentType, GroupVersionKind expected) {
        if (length == 0) {
            return null;
        }
        String type = contentType == null ? "" : contentType.toLowerCase(java.util.Locale.ROOT);
        try {
            if (type.contains("yaml")) {
                return Json.yaml().readTree(new String(data, 0, length, java.nio.charset.StandardCharsets.UTF_8));
            }
            if (type.contains("protobuf")) {
                return ProtobufCodec.decode(length == data.length ? data : Arrays.copyOf(data, length), expected);
            }
            return Json.MAPPER.readTree(data, 0, length);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static final byte[] STATUS_KIND = "\"kind\":\"Status\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** Whether a small successful answer may be a JSON Status (a delete's): the kind written compactly. */
    static boolean mayBeStatus(byte[] body, int length) {
        if (length > 4096) {
            return false;
        }
        outer:
        for (int i = 0; i + STATUS_KIND.length <= length; i++) {
            for (int j = 0; j < STATUS_KIND.length; j++) {
                if (body[i + j] != STATUS_KIND[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /**
     * Whether an answer is JSON on one line (the server writes it compactly unless asked to
     * {@code pretty}-print), so that it can go into an event line as it is.
     */
    static boolean compactJson(byte[] body, int length, String contentType) {
        if (contentType == null || !contentType.startsWith("application/json") || length == 0) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (body[i] == '\n' || body[i] == '\r') {
                return false;
            }
        }
        return body[0] == '{';
    }

    /** Drops {@code metadata.managedFields} of an object and of each item of a list (a copy if changed). */
    static JsonNode withoutManagedFields(JsonNode node) {
        if (!(node instanceof ObjectNode o)) {
            return node;
        }
        boolean list = o.path("items").isArray();
        if (!o.path("metadata").has("managedFields") && !list) {
            return node;
        }
        ObjectNode copy = o.deepCopy();
        if (copy.path("metadata") instanceof ObjectNode m) {
            m.remove("managedFields");
        }
        if (list) {
            copy.path("items").forEach(item -> {
                if (item.path("metadata") instanceof ObjectNode m) {
                    m.remove("managedFields");
                }
            });
        }
        return copy;
    }

    /** kube's responseStatus: the bounded fields of a Status body, else just the code. */
    static ObjectNode responseStatus(int code, JsonNode body) {
        ObjectNode s = Json.object();
        s.putObject("metadata");
        if (body != null && "Status".equals(body.path("kind").asText())) {
            for (String f : new String[] {"status", "message", "reason", "details"}) {
                if (body.has(f) && !body.path(f).asText("x").isEmpty()) {
                    s.set(f, body.get(f));
                }
            }
        }
        s.put("code", code);
        return s;
    }
}
