package io.kapi.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import io.kapi.user.UserInfo;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("/healthz, /livez and /readyz")
class HealthHandlerTest {

    private final AtomicBoolean etcdUp = new AtomicBoolean(true);
    private final HealthHandler handler = new HealthHandler(
            List.of(NamedCheck.ping(), NamedCheck.log(), new NamedCheck("etcd", () -> {
                if (!etcdUp.get()) {
                    throw new IllegalStateException("connection refused");
                }
            }), new NamedCheck("shutdown", () -> { }, true)));

    private static final UserInfo ADMIN = new UserInfo("admin", "", List.of("system:masters", "system:authenticated"));

    private RestResponse get(String pathAndQuery, UserInfo user) {
        int q = pathAndQuery.indexOf('?');
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        Map<String, List<String>> query = new LinkedHashMap<>();
        if (q >= 0) {
            for (String pair : pathAndQuery.substring(q + 1).split("&")) {
                String[] kv = pair.split("=", 2);
                query.computeIfAbsent(kv[0], k -> new java.util.ArrayList<>()).add(kv.length > 1 ? kv[1] : "");
            }
        }
        return handler.handle(new RestRequest("GET", path, query, Map.of(), new ByteArrayInputStream(new byte[0]),
                RequestContext.of(RequestInfo.parse("GET", path, query), null, null, "").withUser(user)));
    }

    private static String body(RestResponse r) {
        return new String(((RestResponse.Bytes) r.body()).data(), StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("a healthy server answers plain ok, as text/plain")
    void ok() {
        RestResponse r = get("/readyz", UserInfo.ANONYMOUS);
        assertEquals(200, r.status());
        assertEquals("ok", body(r));
        assertEquals("text/plain; charset=utf-8", ((RestResponse.Bytes) r.body()).contentType());
    }

    @Test
    @DisplayName("?verbose lists every check and ends with 'readyz check passed'")
    void verbose() {
        assertEquals("[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]shutdown ok\nreadyz check passed\n",
                body(get("/readyz?verbose", UserInfo.ANONYMOUS)));
        assertEquals("[+]ping ok\n[+]log ok\n[+]etcd ok\nlivez check passed\n",
                body(get("/livez?verbose", UserInfo.ANONYMOUS)));
        assertEquals("[+]ping ok\n[+]log ok\n[+]etcd ok\nhealthz check passed\n",
                body(get("/healthz?verbose=true", UserInfo.ANONYMOUS)));
    }

    @Test
    @DisplayName("a failing check makes 500 with the verbose report and withholds the reason")
    void failing() {
        etcdUp.set(false);
        RestResponse r = get("/readyz", ADMIN);
        assertEquals(500, r.status());
        assertEquals("[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n",
                body(r));
    }

    @Test
    @DisplayName("?exclude skips a check, and warns about names that match none")
    void exclude() {
        etcdUp.set(false);
        RestResponse r = get("/readyz?verbose&exclude=etcd&exclude=nope", UserInfo.ANONYMOUS);
        assertEquals(200, r.status());
        assertEquals("[+]ping ok\n[+]log ok\n[+]etcd excluded: ok\n[+]shutdown ok\n"
                + "warn: some health checks cannot be excluded: no matches for \"nope\"\nreadyz check passed\n", body(r));
    }

    @Test
    @DisplayName("/readyz/{check} answers that check alone; its reason only to authenticated users")
    void single() {
        assertEquals("ok", body(get("/readyz/ping", UserInfo.ANONYMOUS)));
        etcdUp.set(false);
        RestResponse anonymous = get("/livez/etcd", UserInfo.ANONYMOUS);
        assertEquals(500, anonymous.status());
        assertEquals("internal server error: reason withheld\n", body(anonymous));
        assertEquals("internal server error: connection refused\n", body(get("/livez/etcd", ADMIN)));
    }

    @Test
    @DisplayName("shutdown is a readyz check only; unknown checks are 404; other paths are not served")
    void paths() {
        assertEquals("ok", body(get("/readyz/shutdown", ADMIN)));
        assertEquals(404, assertThrows(ApiException.class, () -> get("/livez/shutdown", ADMIN)).code());
        assertNull(get("/api", ADMIN));
        assertNull(get("/readyzz", ADMIN));
    }

    @Test
    @DisplayName("a readyz-only check (etcd-readiness, informer-sync) is on /readyz, not on /livez or /healthz")
    void readyzOnly() {
        HealthCheck readiness = new NamedCheck("etcd-readiness", () -> { }, true);
        HealthHandler h = new HealthHandler(List.of(NamedCheck.ping(), readiness, NamedCheck.log()));
        RestRequest ready = request("/readyz", Map.of("verbose", List.of("")));
        assertEquals("[+]ping ok\n[+]etcd-readiness ok\n[+]log ok\nreadyz check passed\n", body(h.handle(ready)));
        for (String endpoint : List.of("livez", "healthz")) {
            RestRequest live = request("/" + endpoint, Map.of("verbose", List.of("")));
            assertEquals("[+]ping ok\n[+]log ok\n" + endpoint + " check passed\n", body(h.handle(live)));
            assertEquals(404, assertThrows(ApiException.class,
                    () -> h.handle(request("/" + endpoint + "/etcd-readiness", Map.of()))).code());
        }
        assertEquals("ok", body(h.handle(request("/readyz/etcd-readiness", Map.of()))));
    }

    private static RestRequest request(String path, Map<String, List<String>> query) {
        return new RestRequest("GET", path, query, Map.of(), new ByteArrayInputStream(new byte[0]),
                RequestContext.of(RequestInfo.parse("GET", path, query), null, null, "").withUser(ADMIN));
    }
}
