package io.kapi.endpoint.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * An OpenAPI document encoded once, with its hash: the upper-case hex SHA-512 of the bytes, which
 * kube-openapi uses both as the ETag (quoted) and as the {@code hash} of {@code serverRelativeURL}.
 */
record Document(byte[] data, String hash) {

    static Document of(JsonNode doc) {
        try {
            return ofBytes(Json.MAPPER.writeValueAsBytes(doc));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode OpenAPI document", e);
        }
    }

    static Document ofBytes(byte[] bytes) {
        try {
            return new Document(bytes, HexFormat.of().withUpperCase().formatHex(
                    MessageDigest.getInstance("SHA-512").digest(bytes)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    String etag() {
        return '"' + hash + '"';
    }

    /** Whether an If-None-Match header names this document. */
    boolean matches(String ifNoneMatch) {
        if (ifNoneMatch == null) {
            return false;
        }
        for (String tag : ifNoneMatch.split(",")) {
            String t = tag.strip();
            if (t.equals("*") || t.equals(etag()) || t.equals("W/" + etag())) {
                return true;
            }
        }
        return false;
    }
}
