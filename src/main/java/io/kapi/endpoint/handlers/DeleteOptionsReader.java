package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoBool;
import io.kapi.machinery.Json;
import io.kapi.registry.DeleteOptions;
import java.io.IOException;

/** Reads {@code metav1.DeleteOptions} from a DELETE's body (optional) and query parameters. */
final class DeleteOptionsReader {

    private static final int MAX_BODY = 3 * 1024 * 1024;

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
            throw ApiException.badRequest("DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \""
                    + propagation + "\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"");
        }
        Long grace = body.hasNonNull("gracePeriodSeconds") ? Long.valueOf(body.get("gracePeriodSeconds").asLong())
                : request.param("gracePeriodSeconds") != null ? parseGrace(request.param("gracePeriodSeconds")) : null;
        if (propagation == null || propagation.isEmpty()) {
            JsonNode orphan = body.get("orphanDependents");
            String param = request.param("orphanDependents");
            boolean orphanDependents = orphan != null && !orphan.isNull() ? orphan.asBoolean() : GoBool.query(param, false);
            propagation = orphanDependents ? "Orphan" : null;
        }
        return new DeleteOptions(text(pre, "uid"), text(pre, "resourceVersion"), dryRun, propagation, grace);
    }

    private static Long parseGrace(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid value for gracePeriodSeconds: " + value);
        }
    }

    private static JsonNode body(RestRequest request) {
        try {
            byte[] bytes = request.body().readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                throw ApiException.tooLarge(MAX_BODY);
            }
            if (bytes.length == 0) {
                return Json.object();
            }
            JsonNode node = Json.YAML.readTree(bytes);
            if (node == null || node.isMissingNode() || node.isNull()) {
                return Json.object();
            }
            if (!node.isObject()) {
                throw ApiException.badRequest("DeleteOptions must be an object");
            }
            return node;
        } catch (IOException e) {
            throw ApiException.badRequest("the body of the request could not be decoded as DeleteOptions: " + e.getMessage());
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
