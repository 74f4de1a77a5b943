package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The opaque {@code continue} token of a paged list, shaped as kube-apiserver's: base64 of
 * {@code {"v":"meta.k8s.io/v1","rv":REVISION,"start":"KEY-SUFFIX"}}, the revision pinning the snapshot
 * every page is read at and {@code start} the first key of the next page relative to the list prefix.
 */
record ContinueToken(long revision, String start) {

    static final String EXPIRED_MESSAGE = "The provided continue parameter is too old to display a consistent "
            + "list result. You can start a new list without the continue parameter, or use the continue token "
            + "in this response to retrieve the remainder of the results. Continuing with the provided token "
            + "results in an inconsistent list - objects that were created, modified, or deleted between the "
            + "time the first chunk was returned and now may show up in the list.";

    String encode() {
        ObjectNode token = Json.object();
        token.put("v", "meta.k8s.io/v1");
        token.put("rv", revision);
        token.put("start", start);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(token.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The token, or null for none; 400 BadRequest when it is not one of ours. */
    static ContinueToken decode(String token) {
        if (token == null || token.isEmpty()) {
            return null;
        }
        try {
            byte[] raw = Base64.getUrlDecoder().decode(token.replace('+', '-').replace('/', '_'));
            JsonNode node = Json.MAPPER.readTree(raw);
            if (!"meta.k8s.io/v1".equals(node.path("v").asText()) || !node.path("rv").canConvertToLong()
                    || node.path("rv").asLong() <= 0 || !node.path("start").isTextual()
                    || node.path("start").asText().startsWith("/") || node.path("start").asText().contains("..")) {
                throw new IOException("not a continue token");
            }
            return new ContinueToken(node.get("rv").asLong(), node.get("start").asText());
        } catch (IOException | IllegalArgumentException e) {
            throw ApiException.badRequest("invalid continue token: " + e.getMessage());
        }
    }
}
