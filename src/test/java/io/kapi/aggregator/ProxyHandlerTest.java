package io.kapi.aggregator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.GroupVersion;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The proxy's decisions before it calls a backend, and what it sends in kube's forms. */
class ProxyHandlerTest {

    private static final ApiServiceRoute.ServiceRef WARDLE = new ApiServiceRoute.ServiceRef("default", "wardle", 443);

    private static ApiServiceRoute route(boolean available) {
        return new ApiServiceRoute("v1alpha1.wardle.example.com", new GroupVersion("wardle.example.com", "v1alpha1"),
                1000, 15, WARDLE, "", false, available);
    }

    private static ProxyHandler proxy(ApiServiceRoute route, ServiceLocator locator) {
        Routes routes = Routes.of(Map.of(route.groupVersion(), route), Map.of(), Map.of(), Map.of());
        return new ProxyHandler(() -> routes, locator, new Backends(null));
    }

    private static RestRequest get(String path) {
        return new RestRequest("GET", path, Map.of(), Map.of(), InputStream.nullInputStream(), null);
    }

    @Test
    @DisplayName("paths of group-versions no APIService routes pass to the next handler")
    void passes() {
        ProxyHandler proxy = proxy(route(true), s -> URI.create("https://127.0.0.1:1"));
        assertNull(proxy.handle(get("/apis/wardle.example.com")));
        assertNull(proxy.handle(get("/apis/apps/v1/deployments")));
        assertNull(proxy.handle(get("/api/v1/pods")));
        assertNull(proxy.handle(get("/apis")));
    }

    @Test
    @DisplayName("an APIService that is not Available answers 503 'service unavailable' as Go's http.Error")
    void unavailable() {
        RestResponse r = proxy(route(false), s -> URI.create("https://127.0.0.1:1"))
                .handle(get("/apis/wardle.example.com/v1alpha1/namespaces/default/flunders"));
        assertEquals(503, r.status());
        RestResponse.Bytes body = (RestResponse.Bytes) r.body();
        assertEquals("text/plain; charset=utf-8", body.contentType());
        assertEquals("service unavailable\n", new String(body.data(), StandardCharsets.UTF_8));
        assertEquals(List.of(Map.entry("X-Content-Type-Options", "nosniff")), r.headers());
    }

    @Test
    @DisplayName("a Service that cannot be resolved answers 503 'service unavailable'")
    void unresolved() {
        RestResponse r = proxy(route(true), s -> {
            throw new IllegalStateException("service \"wardle\" not found");
        }).handle(get("/apis/wardle.example.com/v1alpha1"));
        assertEquals(503, r.status());
        assertEquals("service unavailable\n", new String(((RestResponse.Bytes) r.body()).data(), StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("the query is passed on as Go's url.Values.Encode writes it: keys sorted, values form-encoded")
    void query() {
        assertEquals("", ProxyHandler.query(Map.of()));
        assertEquals("?fieldSelector=metadata.name%3Da+b&labelSelector=x+in+%28y%29&limit=5&watch=true",
                ProxyHandler.query(Map.of("watch", List.of("true"), "limit", List.of("5"),
                        "labelSelector", List.of("x in (y)"), "fieldSelector", List.of("metadata.name=a b"))));
    }

    @Test
    @DisplayName("extra keys are escaped for X-Remote-Extra- header names as kube escapes them")
    void extraKeys() {
        assertEquals("scopes", AuthProxyHeaders.escape("scopes"));
        assertEquals("example.com%2Fkey", AuthProxyHeaders.escape("example.com/key"));
        assertEquals("a%20b%25", AuthProxyHeaders.escape("a b%"));
    }
}
