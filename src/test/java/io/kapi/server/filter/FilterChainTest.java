package io.kapi.server.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.user.UserInfo;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("filter chain")
class FilterChainTest {

    private static final RestHandler WHOAMI = r -> RestResponse.bytes(200, "text/plain",
            (r.user().name() + " " + r.user().groups()).getBytes(StandardCharsets.UTF_8));

    private static ServerRequest request(String method, String path, Map<String, List<String>> headers, byte[] body) {
        return new ServerRequest(new RestRequest(method, path, Map.of(), headers, new ByteArrayInputStream(body), null),
                List.of(), "127.0.0.1");
    }

    private static ServerRequest get(String path) {
        return request("GET", path, Map.of(), new byte[0]);
    }

    private static String body(RestResponse r) {
        return new String(((RestResponse.Bytes) r.body()).data(), StandardCharsets.UTF_8);
    }

    private static RestResponse run(List<Filter> filters, RestHandler handler, ServerRequest request) {
        return FilterChain.of(filters, handler).proceed(request);
    }

    @Test
    @DisplayName("filters run in list order, then the handler")
    void order() {
        List<String> seen = new ArrayList<>();
        Filter a = (chain, r) -> {
            seen.add("a");
            return chain.proceed(r);
        };
        Filter b = (chain, r) -> {
            seen.add("b");
            return chain.proceed(r);
        };
        run(List.of(a, b), r -> {
            seen.add("handler");
            return RestResponse.bytes(204, null, new byte[0]);
        }, get("/"));
        assertEquals(List.of("a", "b", "handler"), seen);
    }

    @Test
    @DisplayName("a filter that neither proceeds nor responds fails loudly")
    void silentFilter() {
        Filter silent = (chain, r) -> null;
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> run(List.of(silent), WHOAMI, get("/")));
        assertTrue(e.getMessage().contains("neither proceeded nor responded"));
        RestResponse recovered = run(List.of(new PanicRecovery(), silent), WHOAMI, get("/"));
        assertEquals(500, recovered.status());
    }

    @Test
    @DisplayName("panic recovery answers errors of the JVM (stack overflow, out of memory) with 500")
    void jvmErrors() throws IOException {
        for (Error error : new Error[] {new StackOverflowError(), new OutOfMemoryError("Java heap space")}) {
            RestResponse r = run(List.of(new PanicRecovery()), req -> {
                throw error;
            }, get("/x"));
            assertEquals(500, r.status());
            assertEquals("InternalError", Json.MAPPER.readTree(body(r)).path("reason").asText());
        }
    }

    @Test
    @DisplayName("a handler answering null is 404 NotFound")
    void nobodyServes() throws IOException {
        RestResponse r = run(List.of(new PanicRecovery()), req -> null, get("/x"));
        assertEquals(404, r.status());
        assertEquals("the server could not find the requested resource",
                Json.MAPPER.readTree(body(r)).path("message").asText());
    }

    @Test
    @DisplayName("panic recovery answers an ApiException with its Status and code")
    void apiException() throws IOException {
        RestResponse r = run(List.of(new PanicRecovery()), req -> {
            throw ApiException.badRequest("nope");
        }, get("/x"));
        assertEquals(400, r.status());
        assertEquals("BadRequest", Json.MAPPER.readTree(body(r)).path("reason").asText());
    }

    @Test
    @DisplayName("without credentials: 401 for the API, anonymous for GET of health and version")
    void anonymous() {
        Authentication authn = new Authentication((r, certs) -> Optional.empty());
        List<Filter> filters = List.of(new RequestContextFilter(Duration.ofMinutes(1)), new PanicRecovery(), authn);
        assertEquals(401, run(filters, WHOAMI, get("/api")).status());
        assertEquals(401, run(filters, WHOAMI, request("POST", "/readyz", Map.of(), new byte[0])).status());
        assertEquals("system:anonymous [system:unauthenticated]", body(run(filters, WHOAMI, get("/readyz"))));
        for (String sub : List.of("/readyz/etcd", "/readyz/shutdown", "/healthz/etcd", "/livez/ping", "/version/x")) {
            assertEquals(401, run(filters, WHOAMI, get(sub)).status(), sub);
        }
        assertEquals("system:anonymous [system:unauthenticated]", body(run(filters, WHOAMI, get("/version/"))));
        assertEquals("system:anonymous [system:unauthenticated]", body(run(filters, WHOAMI, get("/version"))));
        assertEquals(401, run(filters, WHOAMI, get("/versions")).status());
    }

    @Test
    @DisplayName("an authenticated user also gets the group system:authenticated")
    void authenticated() {
        Authentication authn = new Authentication((r, certs) -> Optional.of(new UserInfo("jane", "", List.of("dev"))));
        assertEquals("jane [dev, system:authenticated]", body(run(
                List.of(new RequestContextFilter(Duration.ofMinutes(1)), authn), WHOAMI, get("/api"))));
    }

    private static final RestHandler READ_ALL = r -> {
        try {
            return RestResponse.bytes(200, "text/plain",
                    String.valueOf(r.body().readAllBytes().length).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    };

    @Test
    @DisplayName("the body limit refuses a large Content-Length at once and a long body when read")
    void bodyLimit() {
        List<Filter> filters = List.of(new PanicRecovery(), new BodyLimit(10));
        RestHandler mustNotRun = r -> {
            throw new AssertionError("handler ran");
        };
        assertEquals(413, run(filters, mustNotRun,
                request("POST", "/x", Map.of("content-length", List.of("11")), new byte[11])).status());
        assertEquals(413, run(filters, READ_ALL, request("POST", "/x", Map.of(), new byte[11])).status());
        assertEquals("10", body(run(filters, READ_ALL, request("POST", "/x", Map.of(), new byte[10]))));
    }
}
