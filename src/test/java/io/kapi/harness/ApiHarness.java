package io.kapi.harness;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.assembly.ApiAssembly;
import io.kapi.assembly.ApiConfig;
import io.kapi.assembly.InMemoryServer;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.user.UserInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole API in memory ({@link ApiAssembly#inMemory}: the HTTPS server's filter chain, every post-start
 * hook run first, in order), called with plain requests and no sockets: what unit tests of routing,
 * handlers and subresources drive. Requests carry the user
 * given (by default an admin in {@code system:masters}) the way the server's own in-process clients do,
 * so authentication is skipped and authorization, admission and storage run as for any request.
 */
public final class ApiHarness implements AutoCloseable {

    /** The default caller. */
    public static final UserInfo ADMIN = new UserInfo("admin", "", List.of("system:masters", "system:authenticated"));

    /** A response, with its body parsed when it is JSON; its headers include the body's {@code content-type}. */
    public record Reply(int code, JsonNode body, String text, Map<String, List<String>> headers) {

        /** The values of a response header. */
        public List<String> header(String name) {
            return headers.getOrDefault(name.toLowerCase(java.util.Locale.ROOT), List.of());
        }
    }

    private final ApiAssembly assembly;
    private final InMemoryServer server;
    private volatile boolean closed;

    /**
     * A memory-backed API with no standalone controllers, the system namespaces created, and (as envtest,
     * with nothing making default service accounts) no ServiceAccount admission.
     */
    public ApiHarness() {
        this(attributes -> Decision.allow());
    }

    public ApiHarness(Authorizer authorizer) {
        this(ApiConfig.builder().dataDir(Path.of("target/unused")).admission(ApiConfig.Admission.DEFAULT.bare()).build(),
                authorizer);
    }

    /** The API of {@code config}, authorized by its own chain ({@code config.authorizationModes()}). */
    public ApiHarness(ApiConfig config) {
        this(config, null);
    }

    /** @param authorizer the authorizer of the filter chain; null: the assembly's own */
    public ApiHarness(ApiConfig config, Authorizer authorizer) {
        assembly = ApiAssembly.create(config);
        server = assembly.inMemory(authorizer);
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
        InMemoryServer.Response response = server.call(user, method, pathAndQuery, headers,
                body.getBytes(StandardCharsets.UTF_8));
        return new Reply(response.status(), response.json(), response.text(), response.headers());
    }

    /** One request as the admin, with the response's bytes as they are (a protobuf body, say). */
    public InMemoryServer.Response raw(String method, String pathAndQuery, Map<String, List<String>> headers,
                                       byte[] body) {
        return server.call(ADMIN, method, pathAndQuery, headers, body);
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
