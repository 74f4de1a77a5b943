package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.codec.Format;
import io.kapi.endpoint.codec.MediaType;
import io.kapi.endpoint.codec.RequestDecoder;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoBool;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.registry.DeleteOptions;

/** Reads {@code metav1.DeleteOptions} from a DELETE's body (optional) and query parameters. */
final class DeleteOptionsReader {

    private static final GroupVersionKind DELETE_OPTIONS = new GroupVersionKind("meta.k8s.io", "v1", "DeleteOptions");

    private DeleteOptionsReader() {
    }

    static DeleteOptions read(RestRequest request, boolean dryRunParam) {
        JsonNode body = body(request);
        JsonNode pre = body.path("preconditions");
        boolean dryRun = dryRunParam;
        for (JsonNode v : body.path("dryRun")) {
            if (!v.asText().equals("All")) {
                throw ApiException.badRequest("Invalid dry run value: [" + v.asText() + "], supported values: All");
            }
            dryRun = true;
        }
        String propagation = body.path("propagationPolicy").asText(request.param("propagationPolicy"));
        if (propagation != null && !propagation.isEmpty()
                && !propagation.equals("Orphan") && !propagation.equals("Background") && !propagation.equals("Foreground")) {
            throw ApiException.badRequest("DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: "
                    + GoStrings.quote(propagation) + ": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"");
        }
        Long grace = body.hasNonNull("gracePeriodSeconds") ? Long.valueOf(body.get("gracePeriodSeconds").asLong())
                : request.param("gracePeriodSeconds") != null ? parseGrace(request.param("gracePeriodSeconds")) : null;
        if (propagation == null || propagation.isEmpty()) {
            JsonNode orphan = body.get("orphanDependents");
            String param = request.param("orphanDependents");
            boolean orphanDependents = orphan != null && !orphan.isNull() ? orphan.asBoolean() : GoBool.query(param, false);
            propagation = orphanDependents ? "Orphan" : null;
        }
        return new DeleteOptions(GoValues.textPointer(pre, "uid"), GoValues.textPointer(pre, "resourceVersion"), dryRun, propagation, grace);
    }

    private static Long parseGrace(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid value for gracePeriodSeconds: " + value);
        }
    }

    /**
     * The body as a tree, through the bounded decoders: JSON when the Content-Type says so (or is
     * missing), otherwise YAML, which reads JSON too. An empty body is {@code {}}.
     */
    private static JsonNode body(RestRequest request) {
        byte[] bytes = RequestDecoder.readLimited(request.body(), RequestDecoder.MAX_BODY_BYTES);
        if (bytes.length == 0) {
            return Json.object();
        }
        String type = request.header("Content-Type");
        MediaType media = type == null || type.isBlank() ? null : MediaType.parse(type);
        Format format = media == null || media.essence().equals(Format.JSON.mediaType()) ? Format.JSON : Format.YAML;
        return RequestDecoder.decode(format, bytes, DELETE_OPTIONS).object();
    }
}
