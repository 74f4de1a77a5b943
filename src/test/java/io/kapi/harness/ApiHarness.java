package io.kapi.harness;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.assembly.ApiAssembly;
import io.kapi.assembly.ApiConfig;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.Json;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import io.kapi.server.HandlerChain;
import io.kapi.server.ServerConfig;
import io.kapi.server.filter.BodyLimit;
import io.kapi.server.filter.FilterChain;
import io.kapi.server.filter.ServerRequest;
import io.kapi.user.UserInfo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole API in memory, behind the same filter chain as the HTTPS server, started as the server starts
 * it (every post-start hook but the OpenAPI warm-up, in order), called with plain requests and no sockets: what unit tests of routing, handlers and subresources drive. Requests carry the user
 * given (by default an admin in {@code system:masters}) the way the server's own in-process clients do,
 * so authentication is skipped and authorization, admission and storage run as for any request.
 */
public final class ApiHarness implements AutoCloseable {

    /** The default caller. */
    public static final UserInfo ADMIN = new UserInfo("admin", "", List.of("system:masters", "system:authenticated"));

    /** A response, with its body parsed when it is JSON. */
    public record Reply(int code, JsonNode body, String text, Map<String, List<String>> headers) {

        /** The values of a response header. */
        public List<String> header(String name) {
            return headers.getOrDefault(name.toLowerCase(java.util.Locale.ROOT), List.of());
        }
    }

    private final ApiAssembly assembly;
    private final FilterChain chain;
    private volatile boolean closed;

    /** A memory-backed API with no standalone controllers, the system namespaces created. */
    public ApiHarness() {
        this(attributes -> Decision.allow());
    }

    public ApiHarness(Authorizer authorizer) {
        this(ApiConfig.builder().dataDir(Path.of("target/unused")).build(), authorizer);
    }

    /** The API of {@code config}, authorized by its own chain ({@code config.authorizationModes()}). */
    public ApiHarness(ApiConfig config) {
        this(config, null);
    }

    /** @param authorizer the authorizer of the filter chain; null: the assembly's own */
    public ApiHarness(ApiConfig config, Authorizer authorizer) {
        assembly = ApiAssembly.create(config);
        authorizer = authorizer == null ? assembly.authorizer() : authorizer;
        chain = HandlerChain.build(new ServerConfig.Security((request, certs) -> Optional.empty(), authorizer,
                Duration.ofMinutes(1)), BodyLimit.DEFAULT_MAX_BYTES, assembly.handler());
        for (PostStartHook hook : assembly.hooks()) {
            if (!hook.name().equals("apiservice-openapiv3-controller")) {
                try {
                    hook.run();
                } catch (Exception e) {
                    throw new IllegalStateException("post-start hook " + hook.name() + " failed", e);
                }
            }
        }
    }

    public ApiAssembly assembly() {
        return assembly;
    }

    public Reply get(String path) {
        return call("GET", path, null, "");
    }

    public Reply post(String path, String json) {
        return call("POST", path, "application/json", json);
    }

    public Reply put(String path, String json) {
        return call("PUT", path, "application/json", json);
    }

    public Reply patch(String path, String contentType, String body) {
        return call("PATCH", path, contentType, body);
    }

    public Reply delete(String path) {
        return call("DELETE", path, null, "");
    }

    public Reply call(String method, String pathAndQuery, String contentType, String body) {
        return call(ADMIN, method, pathAndQuery, contentType, body);
    }

    /** One request as {@code user}; {@code pathAndQuery} may carry an encoded query string. */
    public Reply call(UserInfo user, String method, String pathAndQuery, String contentType, String body) {
        return call(user, method, pathAndQuery, contentType, "application/json", body);
    }

    /** One request as {@code user} with its own Accept header. */
    public Reply call(UserInfo user, String method, String pathAndQuery, String contentType, String accept,
                      String body) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("accept", List.of(accept));
        if (contentType != null) {
            headers.put("content-type", List.of(contentType));
        }
        int q = pathAndQuery.indexOf('?');
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        Map<String, List<String>> query = query(q < 0 ? "" : pathAndQuery.substring(q + 1));
        RequestContext identity = RequestContext.of(RequestInfo.parse(method, path, query), null, null, "")
                .withUser(user);
        RestRequest request = new RestRequest(method, path, query, headers,
                new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), identity);
        RestResponse response = chain.proceed(new ServerRequest(request, List.of(), "127.0.0.1"));
        return reply(response);
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

    private static Reply reply(RestResponse response) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        response.headers().forEach(h -> headers.computeIfAbsent(h.getKey().toLowerCase(java.util.Locale.ROOT),
                k -> new ArrayList<>()).add(h.getValue()));
        byte[] data = switch (response.body()) {
            case RestResponse.Bytes bytes -> bytes.data();
            case RestResponse.Encoded encoded -> written(encoded.writer());
            case RestResponse.Stream stream -> written(out -> stream.writer().writeTo(io.kapi.endpoint.FrameSink.of(out)));
        };
        String text = new String(data, StandardCharsets.UTF_8);
        try {
            JsonNode json = text.startsWith("{") ? Json.MAPPER.readTree(text) : Json.object();
            return new Reply(response.status(), json, text, headers);
        } catch (IOException e) {
            return new Reply(response.status(), Json.object(), text, headers);
        }
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

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() throws Exception {
        closed = true;
        assembly.close();
    }
}
