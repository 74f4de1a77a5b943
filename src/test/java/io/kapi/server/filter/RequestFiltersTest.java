package io.kapi.server.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.authz.modes.AuthorizationModes;
import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.Json;
import io.kapi.request.RequestContext;
import io.kapi.user.UserInfo;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RequestFiltersTest {

    private static final UserInfo ALICE = new UserInfo("alice", "", List.of("dev"));

    private static ServerRequest request(String method, String path, Map<String, List<String>> query) {
        return new ServerRequest(new RestRequest(method, path, query, Map.of("user-agent", List.of("kubectl/v1.32")),
                new ByteArrayInputStream(new byte[0]), null), List.of(), "127.0.0.1");
    }

    private static RestResponse run(List<Filter> filters, RestHandler handler, ServerRequest request) {
        return FilterChain.of(filters, handler).proceed(request);
    }

    private static List<Filter> chain(String mode) {
        return List.of(new RequestContextFilter(Duration.ofMinutes(1)), new PanicRecovery(),
                new Authentication((r, certs) -> Optional.of(ALICE)),
                new Authorization(AuthorizationModes.chain(List.of(mode))), new WriteOptions());
    }

    private static JsonNode json(RestResponse r) throws IOException {
        return Json.MAPPER.readTree(((RestResponse.Bytes) r.body()).data());
    }

    private static String header(RestResponse r, String name) {
        return r.headers().stream().filter(h -> h.getKey().equals(name)).map(Map.Entry::getValue).findFirst().orElse(null);
    }

    @Test
    @DisplayName("the first filter gives every request a context: request info, audit ID, deadline, user agent")
    void context() {
        AtomicReference<RequestContext> seen = new AtomicReference<>();
        RestResponse r = run(chain("AlwaysAllow"), req -> {
            seen.set(req.context());
            req.context().warnings().add("first");
            req.context().warnings().add("say \"hi\"");
            req.context().warnings().add("first");
            return RestResponse.bytes(200, null, new byte[0]);
        }, request("GET", "/api/v1/namespaces/ns/pods", Map.of("timeout", List.of("5s"))));
        RequestContext c = seen.get();
        assertEquals("list", c.info().verb().apiName());
        assertEquals("ns", c.info().namespace());
        assertEquals("alice", c.user().name());
        assertEquals("kubectl/v1.32", c.userAgent());
        assertTrue(c.deadline().isBefore(Instant.now().plusSeconds(6)));
        assertEquals(c.auditId(), header(r, "Audit-Id"));
        assertEquals(List.of("299 - \"first\"", "299 - \"say \\\"hi\\\"\""), r.headers().stream()
                .filter(h -> h.getKey().equals("Warning")).map(Map.Entry::getValue).toList());
    }

    @Test
    @DisplayName("watches have no deadline; a malformed timeout is a 400 worded as kube-apiserver's")
    void deadlines() throws IOException {
        AtomicReference<RequestContext> seen = new AtomicReference<>();
        run(chain("AlwaysAllow"), req -> {
            seen.set(req.context());
            return RestResponse.bytes(200, null, new byte[0]);
        }, request("GET", "/api/v1/pods", Map.of("watch", List.of("true"))));
        assertNull(seen.get().deadline());
        RestResponse bad = run(chain("AlwaysAllow"), req -> RestResponse.bytes(200, null, new byte[0]),
                request("GET", "/api/v1/pods", Map.of("timeout", List.of("abc"))));
        assertEquals(400, bad.status());
        assertTrue(json(bad).path("message").asText().startsWith("invalid timeout specified in the request URL - "),
                json(bad).toString());
        assertNotNull(header(bad, "Audit-Id"));
    }

    @Test
    @DisplayName("AlwaysDeny refuses with kube-apiserver's 403 wording, for namespaced, cluster and non-resource requests")
    void denied() throws IOException {
        RestHandler never = req -> {
            throw new AssertionError("handler ran");
        };
        JsonNode ns = json(run(chain("AlwaysDeny"), never, request("GET", "/api/v1/namespaces/x/pods", Map.of())));
        assertEquals(403, ns.path("code").asInt());
        assertEquals("Forbidden", ns.path("reason").asText());
        assertEquals("pods is forbidden: User \"alice\" cannot list resource \"pods\" in API group \"\" in the namespace \"x\"",
                ns.path("message").asText());
        JsonNode named = json(run(chain("AlwaysDeny"), never,
                request("DELETE", "/apis/apps/v1/namespaces/x/deployments/web/scale", Map.of())));
        assertEquals("deployments.apps \"web\" is forbidden: User \"alice\" cannot delete resource \"deployments/scale\" "
                + "in API group \"apps\" in the namespace \"x\"", named.path("message").asText());
        assertEquals("web", named.path("details").path("name").asText());
        JsonNode cluster = json(run(chain("AlwaysDeny"), never, request("GET", "/api/v1/nodes", Map.of())));
        assertEquals("nodes is forbidden: User \"alice\" cannot list resource \"nodes\" in API group \"\" at the cluster scope",
                cluster.path("message").asText());
        JsonNode path = json(run(chain("AlwaysDeny"), never, request("GET", "/metrics", Map.of())));
        assertEquals("forbidden: User \"alice\" cannot get path \"/metrics\"", path.path("message").asText());
    }

    @Test
    @DisplayName("write options: dryRun=All sets dry run, any other value is a 400; reads ignore it")
    void writeOptions() throws IOException {
        AtomicReference<RequestContext> seen = new AtomicReference<>();
        RestHandler record = req -> {
            seen.set(req.context());
            return RestResponse.bytes(200, null, new byte[0]);
        };
        run(chain("AlwaysAllow"), record, request("POST", "/api/v1/namespaces/x/pods",
                Map.of("dryRun", List.of("All"), "fieldManager", List.of("me"))));
        assertTrue(seen.get().dryRun());
        assertEquals("me", seen.get().fieldManager());
        RestResponse bad = run(chain("AlwaysAllow"), record, request("POST", "/api/v1/namespaces/x/pods",
                Map.of("dryRun", List.of("Some"))));
        assertEquals(400, bad.status());
        assertEquals("Invalid dry run value: [Some], supported values: All", json(bad).path("message").asText());
        assertEquals(200, run(chain("AlwaysAllow"), record, request("GET", "/api/v1/namespaces/x/pods",
                Map.of("dryRun", List.of("Some")))).status());
    }

    @Test
    @DisplayName("an unknown authorization mode stops the start with kube-apiserver's error")
    void unknownMode() {
        var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> AuthorizationModes.chain(List.of("Bogus")));
        assertEquals("authorization-mode \"Bogus\" is not a valid mode", e.getMessage());
        var node = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> AuthorizationModes.chain(List.of("Node")));
        assertEquals("authorization-mode Node needs the API's registry", node.getMessage(),
                "every mode kube-apiserver has is implemented now: Node reads the stored pods");
    }
}
