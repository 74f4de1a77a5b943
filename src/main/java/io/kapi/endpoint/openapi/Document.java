package io.kapi.endpoint.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * An OpenAPI document encoded once, with its hash: the upper-case hex SHA-512 of the bytes, which
 * kube-openapi uses both as the ETag (quoted) and as the {@code hash} of {@code serverRelativeURL}.
 *
 * <p>The bytes are kept gzipped (the documents of the built-in API are 8 MB of JSON and protobuf, a
 * tenth of that compressed, and a server holds them for its lifetime): a client that accepts gzip, as
 * kubectl and client-go do, gets them as kept, any other a fresh copy unzipped.
 */
record Document(byte[] gzipped, int length, String hash) {

    static Document of(JsonNode doc) {
        try {
            return ofBytes(Json.MAPPER.writeValueAsBytes(doc));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode OpenAPI document", e);
        }
    }

    static Document ofBytes(byte[] bytes) {
        try {
            return new Document(gzip(bytes), bytes.length, HexFormat.of().withUpperCase().formatHex(
                    MessageDigest.getInstance("SHA-512").digest(bytes)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The document's bytes, unzipped. */
    byte[] data() {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
            return in.readNBytes(length);
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt OpenAPI document", e);
        }
    }

    private static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 8 + 64);
        try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
            zip.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
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
