package io.kapi.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.assembly.InMemoryServer;
import io.kapi.user.UserInfo;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Requests to an {@link InMemoryKapi} without sockets, as one user: each goes through the server's whole
 * filter chain (request info, authorization, impersonation, ...), handlers, admission and storage, as a
 * request over HTTPS does, and its response is read whole. The user is given rather than authenticated:
 * the admin ({@code kubernetes-admin} in {@code system:masters}) unless made with {@link #as}.
 *
 * <pre>{@code
 * try (InMemoryKapi kapi = KapiServer.builder().authorizationModes("RBAC").startInMemory()) {
 *     DirectClient admin = kapi.client();
 *     admin.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"app\"}}");
 *     DirectClient.Response denied = admin.as("jane", "dev").get("/api/v1/namespaces/app/secrets");
 *     assertEquals(403, denied.status());
 * }
 * }</pre>
 */
public final class DirectClient {

    /**
     * A response, read whole.
     *
     * @param headers values by lower-case name
     */
    public record Response(int status, Map<String, List<String>> headers, String text) {

        /** The values of a header (any case); empty when absent. */
        public List<String> header(String name) {
            return headers.getOrDefault(name.toLowerCase(java.util.Locale.ROOT), List.of());
        }

        /** The body as JSON (an object, a list, a {@code Status}); an empty object when it is not JSON. */
        public JsonNode json() {
            return new InMemoryServer.Response(status, headers, text.getBytes(StandardCharsets.UTF_8)).json();
        }
    }

    private final InMemoryServer server;
    private final UserInfo user;

    DirectClient(InMemoryServer server, UserInfo user) {
        this.server = server;
        this.user = user;
    }

    /** The same server as {@code name} in {@code groups} (and {@code system:authenticated}). */
    public DirectClient as(String name, String... groups) {
        List<String> all = new java.util.ArrayList<>(List.of(groups));
        if (!all.contains("system:authenticated")) {
            all.add("system:authenticated");
        }
        return new DirectClient(server, new UserInfo(name, "", all));
    }

    public Response get(String path) {
        return call("GET", path, null, "");
    }

    /** POSTs a JSON body. */
    public Response post(String path, String json) {
        return call("POST", path, "application/json", json);
    }

    /** PUTs a JSON body. */
    public Response put(String path, String json) {
        return call("PUT", path, "application/json", json);
    }

    /** PATCHes with {@code contentType}: {@code application/merge-patch+json}, {@code application/apply-patch+yaml}, ... */
    public Response patch(String path, String contentType, String body) {
        return call("PATCH", path, contentType, body);
    }

    public Response delete(String path) {
        return call("DELETE", path, null, "");
    }

    /**
     * One request, accepting JSON.
     *
     * @param pathAndQuery the path, with an encoded query string if any
     * @param contentType the body's type, or null for none
     */
    public Response call(String method, String pathAndQuery, String contentType, String body) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("accept", List.of("application/json"));
        if (contentType != null) {
            headers.put("content-type", List.of(contentType));
        }
        InMemoryServer.Response r = server.call(user, method, pathAndQuery, headers,
                body.getBytes(StandardCharsets.UTF_8));
        return new Response(r.status(), r.headers(), r.text());
    }
}
