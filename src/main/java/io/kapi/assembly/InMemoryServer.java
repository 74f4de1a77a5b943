package io.kapi.assembly;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.authz.Authorizer;
import io.kapi.endpoint.FrameSink;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.Json;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import io.kapi.server.HandlerChain;
import io.kapi.server.filter.FilterChain;
import io.kapi.server.filter.ServerRequest;
import io.kapi.user.UserInfo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An assembled API served without sockets: each call goes through the same filter chain as the HTTPS
 * listener's, from request info to the handlers, with the caller's identity given instead of
 * authenticated (as the server's own in-process clients send theirs), so authorization, admission and
 * storage run as for any request. What unit tests of routing, handlers and subresources drive, and what
 * the test library offers as its direct client. Made by {@link ApiAssembly#inMemory}, which runs the
 * post-start hooks first, as a listening server does.
 */
public final class InMemoryServer {

    /**
     * A whole response, read.
     *
     * @param headers values by lower-case name
     */
    public record Response(int status, Map<String, List<String>> headers, byte[] body) {

        /** The values of a header (any case); empty when absent. */
        public List<String> header(String name) {
            return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The body as JSON; an empty object when it is no JSON object. */
        public JsonNode json() {
            String text = text();
            if (!text.startsWith("{")) {
                return Json.object();
            }
            try {
                return Json.MAPPER.readTree(text);
            } catch (IOException e) {
                return Json.object();
            }
        }
    }

    private final FilterChain chain;

    InMemoryServer(Authorizer authorizer, io.kapi.endpoint.RestHandler handler) {
        this.chain = HandlerChain.inProcess(authorizer, handler);
    }

    /**
     * One request as {@code user}.
     *
     * @param pathAndQuery the path, with an encoded query string if any
     * @param headers header values; names in any case
     */
    public Response call(UserInfo user, String method, String pathAndQuery, Map<String, List<String>> headers,
                         byte[] body) {
        Map<String, List<String>> lowerCase = new LinkedHashMap<>();
        headers.forEach((name, values) -> lowerCase.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
        int q = pathAndQuery.indexOf('?');
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        Map<String, List<String>> query = query(q < 0 ? "" : pathAndQuery.substring(q + 1));
        RequestContext identity = RequestContext.of(RequestInfo.parse(method, path, query), null, null, "")
                .withUser(user);
        RestRequest request = new RestRequest(method, path, query, lowerCase, new ByteArrayInputStream(body), identity);
        return read(chain.proceed(new ServerRequest(request, List.of(), "127.0.0.1")));
    }

    private static Map<String, List<String>> query(String raw) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        if (raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            String[] kv = pair.split("=", 2);
            query.computeIfAbsent(URLDecoder.decode(kv[0], StandardCharsets.UTF_8), k -> new ArrayList<>())
                    .add(kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
        }
        return query;
    }

    private static Response read(RestResponse response) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        response.headers().forEach(h -> headers.computeIfAbsent(h.getKey().toLowerCase(Locale.ROOT),
                k -> new ArrayList<>()).add(h.getValue()));
        String contentType = switch (response.body()) {
            case RestResponse.Bytes bytes -> bytes.contentType();
            case RestResponse.Encoded encoded -> encoded.contentType();
            case RestResponse.Stream stream -> stream.contentType();
        };
        if (contentType != null) {
            headers.putIfAbsent("content-type", List.of(contentType));
        }
        byte[] data = switch (response.body()) {
            case RestResponse.Bytes bytes -> bytes.data();
            case RestResponse.Encoded encoded -> written(encoded.writer());
            case RestResponse.Stream stream -> written(out -> stream.writer().writeTo(FrameSink.of(out)));
        };
        return new Response(response.status(), headers, data);
    }

    private static byte[] written(RestResponse.BodyWriter writer) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            writer.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
