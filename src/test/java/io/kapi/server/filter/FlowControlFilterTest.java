package io.kapi.server.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.flowcontrol.FlowControl;
import io.kapi.machinery.ApiException;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("flow control filter")
class FlowControlFilterTest {

    private static final FlowControl.Classification CLASSIFIED =
            new FlowControl.Classification("fs", "fs-uid", "pl", "pl-uid", "alice");

    private static ServerRequest get(String path) {
        RestRequest rest = new RestRequest("GET", path, Map.of(), Map.of(), new ByteArrayInputStream(new byte[0]), null);
        return new ServerRequest(rest, List.of(), "127.0.0.1")
                .withContext(RequestContext.of(RequestInfo.parse("GET", path, Map.of()), null, null, ""));
    }

    private static String header(RestResponse r, String name) {
        return r.headers().stream().filter(h -> h.getKey().equals(name)).map(Map.Entry::getValue).findFirst().orElse(null);
    }

    @Test
    @DisplayName("a rejected request gets kube's plain-text 429 with Retry-After and the classification's uids")
    void rejected() {
        FlowControl reject = (c, q, w) -> new FlowControl.Admission.Rejected(CLASSIFIED, 4);
        RestResponse r = FilterChain.of(List.of(new FlowControlFilter(reject, Duration.ofMinutes(1))),
                req -> { throw new AssertionError("must not run"); }).proceed(get("/api"));
        assertEquals(429, r.status());
        assertEquals("Too many requests, please try again later.\n",
                new String(((RestResponse.Bytes) r.body()).data(), StandardCharsets.UTF_8));
        assertEquals("text/plain; charset=utf-8", ((RestResponse.Bytes) r.body()).contentType());
        assertEquals("4", header(r, "Retry-After"));
        assertEquals("fs-uid", header(r, "X-Kubernetes-PF-FlowSchema-UID"));
        assertEquals("pl-uid", header(r, "X-Kubernetes-PF-PriorityLevel-UID"));
    }

    @Test
    @DisplayName("a refusal is recorded as kube's request termination (429), and the queue wait is left out of the SLI")
    void terminationAndQueueWait() {
        FlowControl slowReject = (c, q, w) -> {
            try {
                Thread.sleep(30);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new FlowControl.Admission.Rejected(CLASSIFIED, 1);
        };
        List<Integer> terminations = new java.util.ArrayList<>();
        ServerRequest request = get("/api/v1/namespaces/default/configmaps");
        RestResponse r = FilterChain.of(List.of(new FlowControlFilter(slowReject, Duration.ofMinutes(1),
                (req, code) -> terminations.add(code))), req -> { throw new AssertionError("must not run"); })
                .proceed(request);
        assertEquals(429, r.status());
        assertEquals(List.of(429), terminations);
        long excluded = request.context().excluded().nanos();
        org.junit.jupiter.api.Assertions.assertTrue(excluded >= 30_000_000L, "the wait, left out of the SLI: " + excluded);
    }

    @Test
    @DisplayName("an admitted request carries the uids, errors too, and gives its seats back once")
    void admitted() {
        AtomicInteger released = new AtomicInteger();
        FlowControl admit = (c, q, w) -> new FlowControl.Admission.Admitted(CLASSIFIED, released::incrementAndGet);
        RestResponse ok = FilterChain.of(List.of(new FlowControlFilter(admit, Duration.ofMinutes(1))),
                req -> RestResponse.bytes(200, "text/plain", new byte[0])).proceed(get("/api"));
        assertEquals("pl-uid", header(ok, "X-Kubernetes-PF-PriorityLevel-UID"));
        assertEquals(1, released.get());
        RestResponse error = FilterChain.of(List.of(new FlowControlFilter(admit, Duration.ofMinutes(1))),
                req -> { throw ApiException.notFound(new io.kapi.machinery.GroupVersionResource("", "v1", "configmaps"), "x"); }).proceed(get("/api/v1/namespaces/d/configmaps/x"));
        assertEquals(404, error.status());
        assertEquals("fs-uid", header(error, "X-Kubernetes-PF-FlowSchema-UID"));
        assertEquals(2, released.get());
    }

    @Test
    @DisplayName("a list encoded while written holds its seats until it is written")
    void encodedHoldsSeats() throws Exception {
        AtomicInteger released = new AtomicInteger();
        FlowControl admit = (c, q, w) -> new FlowControl.Admission.Admitted(CLASSIFIED, released::incrementAndGet);
        RestResponse r = FilterChain.of(List.of(new FlowControlFilter(admit, Duration.ofMinutes(1))),
                req -> new RestResponse(200, new java.util.ArrayList<>(), new RestResponse.Encoded("application/json",
                        out -> out.write('x')))).proceed(get("/api/v1/configmaps"));
        assertEquals(0, released.get());
        ((RestResponse.Encoded) r.body()).writer().writeTo(new ByteArrayOutputStream());
        assertEquals(1, released.get());
    }
}
