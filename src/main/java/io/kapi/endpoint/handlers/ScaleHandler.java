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
import io.kapi.machinery.TypeMeta;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.machinery.patch.PatchSchemas;
import io.kapi.machinery.patch.PatchType;
import io.kapi.registry.Write;
import io.kapi.machinery.patch.Patches;
import io.kapi.machinery.resource.ApiResource;
import java.util.List;

/**
 * The {@code scale} subresource ({@code autoscaling/v1 Scale}) of deployments, replicasets,
 * statefulsets and replicationcontrollers: GET reads {@code spec.replicas}, {@code status.replicas}
 * and the selector; PUT and PATCH change only the parent's {@code spec.replicas}, with the Scale's
 * resourceVersion (the parent's) as precondition. Custom resources read and write the paths their CRD
 * names ({@code specReplicasPath}, {@code statusReplicasPath}, {@code labelSelectorPath}, a selector
 * in its string form), absent replicas reading as 0.
 */
public record ScaleHandler(Codecs codecs, PatchSchemas schemas) implements VerbHandler {

    static final GroupVersionKind SCALE = new GroupVersionKind("autoscaling", "v1", "Scale");

    @Override
    public RestResponse handle(ResourceRequest r) {
        ApiResource scaleResource = scaleResource(r.resource());
        Paths paths = Paths.of(r);
        ResponseWriter.Negotiated response = codecs.writer().negotiate(r.http(), scaleResource);
        return switch (r.info().verb()) {
            case GET -> response.object(200, paths.scaleOf(r.store().get(r.info().namespace(), r.info().name())));
            case UPDATE -> {
                Decoded body = codecs.decoder().decode(r.http(), SCALE);
                ObjectNode scale = body.object();
                checkKind(scale);
                yield response.object(200, write(r, paths, current -> scale.deepCopy()));
            }
            case PATCH -> response.object(200, patch(r, paths));
            default -> throw ApiException.methodNotAllowed();
        };
    }

    private ObjectNode patch(ResourceRequest r, Paths paths) {
        PatchType type = PatchType.fromContentType(r.http().header("Content-Type"));
        if (type == PatchType.APPLY) {
            throw PatchType.unsupported(List.of(PatchType.JSON, PatchType.MERGE, PatchType.STRATEGIC_MERGE));
        }
        byte[] patch = RequestDecoder.readLimited(r.http().body(), RequestDecoder.MAX_BODY_BYTES);
        return write(r, paths, current -> {
            ObjectNode patched = Patches.apply(type, paths.scaleOf(current), patch, schemas.forKind(SCALE).orElse(null));
            checkKind(patched);
            return patched;
        });
    }

    /** Writes {@code spec.replicas} of the parent from the Scale a function makes of the current parent. */
    private ObjectNode write(ResourceRequest r, Paths paths, java.util.function.UnaryOperator<ObjectNode> scaleOfCurrent) {
        var result = r.store().update(r.context(), r.info().namespace(), r.info().name(), parent -> {
            if (parent == null) {
                throw ApiException.notFound(r.resource().gvr(), r.info().name());
            }
            return withReplicas(r, paths, parent, scaleOfCurrent.apply(parent));
        }, Write.subresource("scale", null));
        return paths.scaleOf(result.object());
    }

    /** The parent with the Scale's replicas; the Scale's resourceVersion, if any, is the precondition. */
    private static ObjectNode withReplicas(ResourceRequest r, Paths paths, ObjectNode parent, ObjectNode scale) {
        JsonNode replicas = scale.path("spec").path("replicas");
        if (!replicas.isMissingNode() && (!replicas.canConvertToInt() || replicas.asInt() < 0)) {
            throw ApiException.invalid(SCALE, r.info().name(), List.of(io.kapi.machinery.FieldError.invalid(
                    "spec.replicas", replicas.toString(), "must be greater than or equal to 0")));
        }
        String rv = ObjectMeta.of(scale).resourceVersion();
        if (!rv.isEmpty()) {
            ObjectMeta.of(parent).resourceVersion(rv);
        }
        paths.setReplicas(parent, replicas.asInt(0));
        return parent;
    }

    /** The Scale kind's decoding check: another apiVersion or kind is refused, absent ones filled. */
    private static void checkKind(ObjectNode scale) {
        TypeMeta.checkAndFill(scale, SCALE);
    }

    /**
     * Where a parent keeps what its Scale shows.
     *
     * @param spec the desired replicas, e.g. {@code spec.replicas}
     * @param status the current replicas
     * @param selector a custom resource's selector string, or null for the built-ins' {@code spec.selector}
     */
    private record Paths(String[] spec, String[] status, String[] selector) {

        static final Paths BUILT_IN = new Paths(new String[] {"spec", "replicas"},
                new String[] {"status", "replicas"}, null);

        static Paths of(ResourceRequest r) {
            var custom = r.store().definition().custom();
            if (custom == null || custom.scale() == null) {
                return BUILT_IN;
            }
            var scale = custom.scale();
            String selector = scale.labelSelectorPath();
            return new Paths(split(scale.specReplicasPath()), split(scale.statusReplicasPath()),
                    selector == null || selector.isEmpty() ? new String[0] : split(selector));
        }

        private static String[] split(String jsonPath) {
            return jsonPath.substring(1).split("\\.");
        }

        private static JsonNode at(JsonNode node, String[] path) {
            for (String p : path) {
                node = node.path(p);
            }
            return node;
        }

        void setReplicas(ObjectNode parent, int replicas) {
            ObjectNode node = parent;
            for (int i = 0; i < spec.length - 1; i++) {
                node = node.with(spec[i]);
            }
            node.put(spec[spec.length - 1], replicas);
        }

        ObjectNode scaleOf(ObjectNode parent) {
            ObjectNode scale = ScaleHandler.scaleOf(parent);
            ((ObjectNode) scale.get("spec")).put("replicas", at(parent, spec).asInt(0));
            ObjectNode status = (ObjectNode) scale.get("status");
            status.put("replicas", at(parent, this.status).asInt(0));
            if (selector != null) {
                status.remove("selector");
                JsonNode value = selector.length == 0 ? null : at(parent, selector);
                if (value != null && value.isTextual() && !value.asText().isEmpty()) {
                    status.put("selector", value.asText());
                }
            }
            return scale;
        }
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

    /**
     * The Scale's {@code status.selector}: the parent's selector (a map, as a ReplicationController's, or
     * matchLabels/matchExpressions) in the string form of {@code labels.Selector}; "" for none.
     */
    static String selector(JsonNode selector) {
        if (!selector.has("matchLabels") && !selector.has("matchExpressions")) {
            return LabelSelector.fromSet(selector).toString();
        }
        try {
            return LabelSelector.fromObject(selector).toString();
        } catch (IllegalArgumentException e) {
            throw ApiException.internal(e.getMessage());
        }
    }

    private static ApiResource scaleResource(ApiResource parent) {
        return new ApiResource(SCALE.group(), SCALE.version(), parent.name(), "", SCALE.kind(), parent.namespaced(),
                List.of("get", "patch", "update"), List.of(), List.of(), List.of());
    }
}
