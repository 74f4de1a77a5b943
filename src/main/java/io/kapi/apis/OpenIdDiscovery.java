package io.kapi.apis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.Lazy;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * Service-account issuer discovery, as kube-apiserver serves it: {@code /.well-known/openid-configuration}
 * (issuer, {@code jwks_uri} under the issuer, RS256) and {@code /openid/v1/jwks} (the public keys
 * that verify service-account tokens), each built once (the key set on its first request).
 */
public final class OpenIdDiscovery implements RestHandler {

    private final byte[] configuration;
    private final Lazy<byte[]> jwks;

    /** @param jwks the JWK set of the service-account signing keys, as JSON, asked for on its first request */
    public OpenIdDiscovery(String issuer, Supplier<String> jwks) {
        ObjectNode config = Json.object();
        config.put("issuer", issuer);
        config.put("jwks_uri", issuer.replaceAll("/+$", "") + "/openid/v1/jwks");
        config.putArray("response_types_supported").add("id_token");
        config.putArray("subject_types_supported").add("public");
        config.putArray("id_token_signing_alg_values_supported").add("RS256");
        try {
            // the server's mapper, not JsonNode.toString's own one (which a start need not make)
            this.configuration = Json.MAPPER.writeValueAsBytes(config);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode the OpenID configuration", e);
        }
        this.jwks = Lazy.of(() -> jwks.get().getBytes(StandardCharsets.UTF_8));
    }

    /** Serves the issuer's discovery document and keys only, never a resource request. */
    @Override
    public boolean servesResources() {
        return false;
    }

    @Override
    public RestResponse handle(RestRequest request) {
        byte[] body = switch (request.path()) {
            case "/.well-known/openid-configuration" -> configuration;
            case "/openid/v1/jwks" -> jwks.get();
            default -> null;
        };
        if (body == null) {
            return null;
        }
        if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
            throw ApiException.methodNotAllowed();
        }
        String type = body == configuration ? "application/json" : "application/jwk-set+json";
        return RestResponse.bytes(200, type, body).withHeader("Cache-Control", "public, max-age=3600");
    }
}
