package io.kapi.endpoint.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoJson;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;

/**
 * Decodes the body of a create or update into a tree, as kube-apiserver's JSON and YAML serializers do.
 *
 * <ul>
 *   <li>Content-Type {@code application/json} or {@code application/yaml} (parameters such as
 *       {@code charset} ignored); missing means JSON, as kube-apiserver takes its first serializer; anything
 *       else, patch types included, is 415.</li>
 *   <li>At most {@link #MAX_BODY_BYTES}; more is 413.</li>
 *   <li>Malformed input and bodies that are not objects are 400, worded as kube-apiserver's
 *       {@code transformDecodeError}: {@code the object provided is unrecognized (must be of type ConfigMap):
 *       couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)}.</li>
 *   <li>YAML: only the first document counts. JSON {@code null} and an empty YAML body decode to {@code {}}.</li>
 * </ul>
 *
 * Whether {@code apiVersion} and {@code kind} match the endpoint is the handler's check, not this class's.
 */
public final class RequestDecoder {

    /** kube-apiserver's limit on a request body: 3 MiB. */
    public static final long MAX_BODY_BYTES = 3 * 1024 * 1024;

    private static final String FIND_KIND = "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; "
            + "Kind string \"json:\\\"kind,omitempty\\\"\" }";

    private RequestDecoder() {
    }

    /**
     * Reads and decodes {@code body}.
     *
     * @param contentType the request's Content-Type header, may be null
     * @param expected the kind the endpoint serves; it only words error messages
     * @throws ApiException 413, 415 or 400 as above
     */
    public static Decoded decode(String contentType, InputStream body, GroupVersionKind expected) {
        Format format = inputFormat(contentType);
        if (body instanceof TreeBody tree && format == Format.JSON) {
            JsonNode parsed = tree.parsed();
            if (parsed != null) {
                return checked(parsed, List.of(), format, expected, tree::bytes);
            }
        }
        return decode(format, readLimited(body, MAX_BODY_BYTES), expected);
    }

    /** Decodes bytes already read, in a known format. */
    public static Decoded decode(Format format, byte[] data, GroupVersionKind expected) {
        List<String> duplicates = new ArrayList<>();
        JsonNode tree;
        try {
            if (format == Format.JSON) {
                List<String> paths = new ArrayList<>();
                tree = JsonTreeReader.read(data, paths);
                paths.forEach(p -> duplicates.add("duplicate field " + GoStrings.quote(p)));
            } else {
                tree = YamlTreeReader.read(data, duplicates);
            }
        } catch (SyntaxError e) {
            String detail = format == Format.JSON ? "couldn't get version/kind; json parse error: " + e.getMessage()
                    : e.getMessage();
            throw unrecognized(expected, detail, data);
        }
        return checked(tree, duplicates, format, expected, () -> data);
    }

    /**
     * Decodes a server-side apply body (YAML, JSON included) as kube's apply patcher does, into a map
     * ({@code yaml.Unmarshal}): malformed input, and a body that is no map, are 400 {@code error decoding
     * YAML: ...}; an empty body is an empty map (whose missing kind the field manager then refuses).
     */
    public static Decoded decodeApplied(byte[] data) {
        List<String> duplicates = new ArrayList<>();
        JsonNode tree;
        try {
            tree = YamlTreeReader.read(data, duplicates);
        } catch (SyntaxError e) {
            throw ApiException.badRequest("error decoding YAML: " + e.getMessage());
        }
        if (tree == null || tree.isNull()) {
            return new Decoded(Json.object(), List.copyOf(duplicates), Format.YAML);
        }
        if (!(tree instanceof ObjectNode obj)) {
            throw ApiException.badRequest("error decoding YAML: error unmarshaling JSON: while decoding JSON: json: "
                    + "cannot unmarshal " + GoJson.kind(tree) + " into Go value of type map[string]interface {}");
        }
        return new Decoded(obj, List.copyOf(duplicates), Format.YAML);
    }

    /** A parsed body as the endpoint may take it: an object whose apiVersion and kind, if any, are strings. */
    private static Decoded checked(JsonNode tree, List<String> duplicates, Format format, GroupVersionKind expected,
                                   Supplier<byte[]> body) {
        if (tree == null || tree.isNull()) {
            return new Decoded(Json.object(), List.copyOf(duplicates), format);
        }
        if (!(tree instanceof ObjectNode obj)) {
            throw unrecognized(expected, "couldn't get version/kind; json parse error: json: cannot unmarshal "
                    + GoJson.kind(tree) + " into Go value of type " + FIND_KIND, body.get());
        }
        for (String field : new String[] {"apiVersion", "kind"}) {
            JsonNode v = obj.get(field);
            if (v != null && !v.isNull() && !v.isTextual()) {
                throw unrecognized(expected, "couldn't get version/kind; json parse error: json: cannot unmarshal "
                        + GoJson.kind(v) + " into Go struct field ." + field + " of type string", body.get());
            }
        }
        return new Decoded(obj, List.copyOf(duplicates), format);
    }

    /**
     * The format of a create or update body.
     *
     * @throws ApiException 415 for anything but JSON and YAML
     */
    public static Format inputFormat(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return Format.JSON;
        }
        MediaType m = MediaType.parse(contentType);
        if (m != null) {
            for (Format f : List.of(Format.JSON, Format.YAML)) { // protobuf bodies are KubeBodyDecoder's
                if (f.mediaType().equals(m.essence())) {
                    return f;
                }
            }
        }
        throw ApiException.unsupportedMediaType(contentType);
    }

    /**
     * Reads all of {@code in}, failing with 413 {@code Request entity too large: limit is 3145728} past
     * {@code limit} bytes, and with 400 when the body cannot be read (a malformed chunked encoding, a
     * stream the client reset): the request, not the server, is at fault.
     */
    public static byte[] readLimited(InputStream in, long limit) {
        try {
            int cap = (int) Math.min(Integer.MAX_VALUE - 8, limit + 1);
            byte[] data = new byte[Math.min(cap, 1024)];
            int n = 0;
            while (true) {
                if (n == data.length) {
                    if (n >= cap) {
                        throw ApiException.tooLarge(limit);
                    }
                    data = Arrays.copyOf(data, (int) Math.min(cap, data.length * 2L));
                }
                int read = in.read(data, n, data.length - n);
                if (read < 0) {
                    return n == data.length ? data : Arrays.copyOf(data, n);
                }
                n += read;
            }
        } catch (IOException | UncheckedIOException e) {
            throw ApiException.badRequest("error reading the request body: " + describe(e));
        }
    }

    private static String describe(Exception e) {
        Throwable root = e instanceof UncheckedIOException u ? u.getCause() : e;
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static ApiException unrecognized(GroupVersionKind expected, String detail, byte[] data) {
        return ApiException.badRequest("the object provided is unrecognized (must be of type %s): %s (%s)"
                .formatted(expected.kind(), detail, summarize(data)));
    }

    /** kube-apiserver's {@code summarizeData}: the first 30 bytes, as text for JSON objects, else in hex. */
    static String summarize(byte[] data) {
        int max = 30;
        if (data.length == 0) {
            return "<empty>";
        }
        boolean cut = data.length > max;
        int n = cut ? max : data.length;
        String head = data[0] == '{' ? new String(data, 0, n, java.nio.charset.StandardCharsets.UTF_8)
                : HexFormat.of().formatHex(data, 0, n);
        return cut ? head + " ..." : head;
    }
}
