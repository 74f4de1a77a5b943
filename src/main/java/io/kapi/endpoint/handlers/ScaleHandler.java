package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.endpoint.codec.RequestDecoder;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.patch.PatchSchemas;
import io.kapi.machinery.patch.PatchType;
import io.kapi.machinery.patch.Patches;
import io.kapi.machinery.resource.ApiResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code scale} subresource ({@code autoscaling/v1 Scale}) of deployments, replicasets,
 * statefulsets and replicationcontrollers: GET reads {@code spec.replicas}, {@code status.replicas}
 * and the selector; PUT and PATCH change only the parent's {@code spec.replicas}, with the Scale's
 * resourceVersion (the parent's) as precondition.
 */
public record ScaleHandler(Codecs codecs, PatchSchemas schemas) implements VerbHandler {

    static final GroupVersionKind SCALE = new GroupVersionKind("autoscaling", "v1", "Scale");
    private static final int MAX_ATTEMPTS = 5;

    @Override
    public RestResponse handle(ResourceRequest r) {
        ApiResource scaleResource = scaleResource(r.resource());
        return switch (r.info().verb()) {
            case GET -> codecs.writer().object(r.http(), scaleResource, 200, scaleOf(current(r)));
            case UPDATE -> {
                boolean dryRun = r.dryRun();
                Decoded body = codecs.decoder().decode(r.http(), SCALE);
                TypeCheck.apply(body.object(), SCALE);
                yield respond(r, scaleResource, write(r, body.object(), dryRun));
            }
            case PATCH -> patch(r, scaleResource);
            default -> throw ApiException.methodNotAllowed();
        };
    }

    private RestResponse patch(ResourceRequest r, ApiResource scaleResource) {
        PatchType type = PatchType.fromContentType(r.http().header("Content-Type"));
        if (type == PatchType.APPLY) {
            throw PatchType.unsupported(List.of(PatchType.JSON, PatchType.MERGE, PatchType.STRATEGIC_MERGE));
        }
        boolean dryRun = r.dryRun();
        byte[] patch = RequestDecoder.readLimited(r.http().body(), RequestDecoder.MAX_BODY_BYTES);
        for (int attempt = 1; ; attempt++) {
            ObjectNode scale = scaleOf(current(r));
            ObjectNode patched = Patches.apply(type, scale, patch, schemas.forKind(SCALE).orElse(null));
            TypeCheck.apply(patched, SCALE);
            try {
                return respond(r, scaleResource, write(r, patched, dryRun));
            } catch (ApiException e) {
                if (e.reason() != StatusReason.CONFLICT || attempt == MAX_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private ObjectNode write(ResourceRequest r, ObjectNode scale, boolean dryRun) {
        JsonNode replicas = scale.path("spec").path("replicas");
        if (!replicas.isMissingNode() && (!replicas.canConvertToInt() || replicas.asInt() < 0)) {
            throw ApiException.invalid(SCALE, r.info().name(), List.of(io.kapi.machinery.FieldError.invalid(
                    "spec.replicas", replicas.toString(), "must be greater than or equal to 0")));
        }
        ObjectNode parent = current(r);
        String rv = ObjectMeta.of(scale).resourceVersion();
        if (!rv.isEmpty()) {
            ObjectMeta.of(parent).resourceVersion(rv);
        }
        parent.with("spec").put("replicas", replicas.asInt(0));
        return scaleOf(r.store().update(r.info().namespace(), r.info().name(), parent, dryRun).object());
    }

    private RestResponse respond(ResourceRequest r, ApiResource scaleResource, ObjectNode scale) {
        return codecs.writer().object(r.http(), scaleResource, 200, scale);
    }

    private static ObjectNode current(ResourceRequest r) {
        return r.store().get(r.info().namespace(), r.info().name());
    }

    /** The Scale of a parent object. */
    static ObjectNode scaleOf(ObjectNode parent) {
        ObjectMeta meta = ObjectMeta.of(parent);
        ObjectNode scale = Json.object();
        scale.put("kind", SCALE.kind());
        scale.put("apiVersion", SCALE.apiVersion());
        ObjectNode m = scale.putObject("metadata");
        m.put("name", meta.name());
        m.put("namespace", meta.namespace());
        m.put("uid", meta.uid());
        m.put("resourceVersion", meta.resourceVersion());
        m.put("creationTimestamp", meta.creationTimestamp());
        scale.putObject("spec").put("replicas", parent.path("spec").path("replicas").asInt(0));
        ObjectNode status = scale.putObject("status");
        status.put("replicas", parent.path("status").path("replicas").asInt(0));
        String selector = selector(parent.path("spec").path("selector"));
        if (!selector.isEmpty()) {
            status.put("selector", selector);
        }
        return scale;
    }

    /** A label selector (a map, or matchLabels/matchExpressions) in the string form of {@code labels.Selector}. */
    static String selector(JsonNode selector) {
        Map<String, String> terms = new TreeMap<>();
        JsonNode labels = selector.has("matchLabels") || selector.has("matchExpressions")
                ? selector.path("matchLabels") : selector;
        labels.properties().forEach(e -> terms.put(e.getKey() + "\0=", e.getKey() + "=" + e.getValue().asText()));
        for (JsonNode expr : selector.path("matchExpressions")) {
            String key = expr.path("key").asText();
            List<String> values = new ArrayList<>();
            expr.path("values").forEach(v -> values.add(v.asText()));
            values.sort(null);
            String term = switch (expr.path("operator").asText()) {
                case "In" -> key + " in (" + String.join(",", values) + ")";
                case "NotIn" -> key + " notin (" + String.join(",", values) + ")";
                case "Exists" -> key;
                case "DoesNotExist" -> "!" + key;
                default -> key;
            };
            terms.put(key + "\0" + expr.path("operator").asText(), term);
        }
        return String.join(",", terms.values());
    }

    private static ApiResource scaleResource(ApiResource parent) {
        return new ApiResource(SCALE.group(), SCALE.version(), parent.name(), "", SCALE.kind(), parent.namespaced(),
                List.of("get", "patch", "update"), List.of(), List.of(), List.of());
    }
}
