package io.kapi.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.machinery.ApiException;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("delegation chain")
class DelegationChainTest {

    /** A handler of one fixed path that notes every request it is asked. */
    private record Fixed(String path, boolean resources, List<String> asked) implements RestHandler {

        @Override
        public RestResponse handle(RestRequest request) {
            asked.add(path + " asked " + request.path());
            return request.path().equals(path)
                    ? RestResponse.bytes(200, "text/plain", path.getBytes(StandardCharsets.UTF_8)) : null;
        }

        @Override
        public boolean servesResources() {
            return resources;
        }
    }

    private static RestRequest get(String path) {
        return new RestRequest("GET", path, Map.of(), Map.of(), new ByteArrayInputStream(new byte[0]),
                RequestContext.of(RequestInfo.parse("GET", path, Map.of()), "id", null, ""));
    }

    private static String body(RestResponse response) {
        return new String(((RestResponse.Bytes) response.body()).data(), StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("a resource request is offered only to the handlers that serve resources, in order; others to all")
    void resourceRequestsSkipFixedPaths() {
        List<String> asked = new ArrayList<>();
        String pods = "/api/v1/namespaces/default/pods/p";
        DelegationChain chain = new DelegationChain(List.of(new Fixed("/version", false, asked),
                new Fixed("/apis/aggregated.example/v1/things", true, asked), new Fixed("/api/v1", false, asked),
                new Fixed(pods, true, asked)));
        assertTrue(chain.servesResources());

        assertEquals(pods, body(chain.handle(get(pods))));
        assertEquals(List.of("/apis/aggregated.example/v1/things asked " + pods, pods + " asked " + pods), asked);

        asked.clear();
        assertEquals("/api/v1", body(chain.handle(get("/api/v1"))));
        assertEquals(List.of("/version asked /api/v1", "/apis/aggregated.example/v1/things asked /api/v1",
                "/api/v1 asked /api/v1"), asked);

        asked.clear();
        assertEquals(404, assertThrows(ApiException.class, () -> chain.handle(get("/api/v1/nodes"))).code());
        assertEquals(2, asked.size(), "only the resource handlers were asked: " + asked);
    }

    @Test
    @DisplayName("a chain of fixed paths only serves no resources, so an outer chain skips it for them")
    void nestedChains() {
        List<String> asked = new ArrayList<>();
        DelegationChain fixed = new DelegationChain(List.of(new Fixed("/healthz", false, asked)));
        assertFalse(fixed.servesResources());
        DelegationChain outer = new DelegationChain(List.of(fixed, new Fixed("/api/v1/pods", true, asked)));
        outer.handle(get("/api/v1/pods"));
        assertEquals(List.of("/api/v1/pods asked /api/v1/pods"), asked);
        asked.clear();
        assertEquals("/healthz", body(outer.handle(get("/healthz"))));
        assertEquals(List.of("/healthz asked /healthz"), asked);
    }
}
