package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.codec.Format;
import io.kapi.endpoint.codec.MediaType;
import io.kapi.endpoint.codec.RequestDecoder;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoBool;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.registry.DeleteOptions;
import java.util.ArrayList;
import java.util.List;

/** Reads {@code metav1.DeleteOptions} from a DELETE's body (optional) and query parameters. */
final class DeleteOptionsReader {

    private static final GroupVersionKind DELETE_OPTIONS = new GroupVersionKind("meta.k8s.io", "v1", "DeleteOptions");
    static final String UNSAFE = "ignoreStoreReadErrorWithClusterBreakingPotential";

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
        JsonNode unsafeField = body.get(UNSAFE);
        boolean unsafe = unsafeField != null && !unsafeField.isNull() ? unsafeField.asBoolean()
                : GoBool.query(request.param(UNSAFE), false);
        if (unsafe) {
            checkUnsafe(body, request, dryRun, grace);
        }
        return new DeleteOptions(GoValues.textPointer(pre, "uid"), GoValues.textPointer(pre, "resourceVersion"), dryRun,
                propagation, grace, unsafe);
    }

    /** kube's {@code ValidateDeleteOptions} of an unsafe delete: nothing that needs the object goes with it. */
    private static void checkUnsafe(JsonNode body, RestRequest request, boolean dryRun, Long grace) {
        List<FieldError> errors = new ArrayList<>();
        if (dryRun) {
            errors.add(FieldError.invalid(UNSAFE, "true", "cannot be set together with .dryRun"));
        }
        if (body.hasNonNull("propagationPolicy") || request.param("propagationPolicy") != null) {
            errors.add(FieldError.invalid(UNSAFE, "true", "cannot be set together with .propagationPolicy"));
        }
        if (body.hasNonNull("orphanDependents") || request.param("orphanDependents") != null) {
            errors.add(FieldError.invalid(UNSAFE, "true", "cannot be set together with .orphanDependents"));
        }
        if (grace != null && grace != 0) {
            errors.add(FieldError.invalid(UNSAFE, "true", "cannot be set with a non-zero value of .gracePeriodSeconds"));
        }
        if (body.hasNonNull("preconditions")) {
            errors.add(FieldError.invalid(UNSAFE, "true", "cannot be set together with .preconditions"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.invalid(new GroupVersionKind("meta.k8s.io", "", "DeleteOptions"), "", errors);
        }
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
