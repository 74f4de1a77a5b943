package io.kapi.endpoint.discovery;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.ResponseEncoder;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.Lazy;
import io.kapi.machinery.protobuf.ProtobufCodec;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A document encoded once, with its strong ETag (the quoted upper-case hex SHA-512 of the bytes, as
 * kube-apiserver's aggregated discovery handler computes it), and its protobuf encoding, made when first
 * asked for.
 *
 * @param protobuf the document in protobuf ({@code null} for the protobuf encoding itself)
 */
record Encoded(byte[] data, String contentType, String etag, Lazy<Encoded> protobuf) {

    /**
     * @param contentType of the JSON document
     * @param protobufContentType of its protobuf encoding, whose message the document's {@code kind} names
     *     (unversioned discovery kinds, without {@code apiVersion}, in {@code v1})
     */
    static Encoded json(JsonNode doc, String contentType, String protobufContentType) {
        try {
            byte[] bytes = Json.MAPPER.writeValueAsBytes(doc);
            return new Encoded(bytes, contentType, etag(bytes), Lazy.of(() -> {
                GroupVersionKind gvk = ResponseEncoder.kindOf(doc);
                byte[] pb = ProtobufCodec.encode(doc, gvk.version().isEmpty()
                        ? new GroupVersionKind("", "v1", gvk.kind()) : gvk);
                return new Encoded(pb, protobufContentType, etag(pb), null);
            }));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode discovery document", e);
        }
    }

    static String etag(byte[] bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-512").digest(bytes);
            return '"' + HexFormat.of().withUpperCase().formatHex(digest) + '"';
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** 200 with the bytes, or 304 without a body when the request's If-None-Match names this ETag. */
    RestResponse respond(RestRequest request) {
        String ifNoneMatch = request.header("If-None-Match");
        RestResponse response = ifNoneMatch != null && matches(ifNoneMatch)
                ? RestResponse.bytes(304, null, new byte[0])
                : RestResponse.bytes(200, contentType, data);
        return response.withHeader("ETag", etag);
    }

    private boolean matches(String ifNoneMatch) {
        for (String tag : ifNoneMatch.split(",")) {
            String t = tag.strip();
            if (t.equals("*") || t.equals(etag) || t.equals("W/" + etag)) {
                return true;
            }
        }
        return false;
    }
}
