package io.kapi.flowcontrol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.request.RequestInfo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WorkEstimatorTest {

    private final WorkEstimator estimator = new WorkEstimator((group, version, resource) -> switch (resource) {
        case "configmaps" -> new ObjectCounts.Counts(450, 3);
        case "pods" -> new ObjectCounts.Counts(10_000, 95);
        default -> null;
    });

    private WorkEstimate estimate(String method, String path, Map<String, List<String>> query) {
        return estimator.estimate(RequestInfo.parse(method, path, query), query);
    }

    @Test
    @DisplayName("a LIST costs a seat per 100 objects it touches, 1 to 10")
    void lists() {
        assertEquals(5, estimate("GET", "/api/v1/configmaps", Map.of()).initialSeats());
        assertEquals(10, estimate("GET", "/api/v1/pods", Map.of()).initialSeats());
        // a page from storage: twice the page
        assertEquals(2, estimate("GET", "/api/v1/pods", Map.of("limit", List.of("100"))).initialSeats());
        // a page from the cache (a resource version given): everything stored
        assertEquals(10, estimate("GET", "/api/v1/pods", Map.of("limit", List.of("100"),
                "resourceVersion", List.of("0"))).initialSeats());
        assertEquals(1, estimate("GET", "/api/v1/secrets", Map.of()).initialSeats(), "no counts: one seat");
    }

    @Test
    @DisplayName("a WATCH costs its initial events only when it asks for them")
    void watches() {
        assertEquals(1, estimate("GET", "/api/v1/pods", Map.of("watch", List.of("1"))).initialSeats());
        assertEquals(10, estimate("GET", "/api/v1/pods", Map.of("watch", List.of("1"),
                "sendInitialEvents", List.of("true"))).initialSeats());
    }

    @Test
    @DisplayName("a write costs one seat, then a seat per 10 watchers for 5 ms each once 10 or more watch, for 5 ms")
    void writes() {
        assertEquals(WorkEstimate.ONE, estimate("POST", "/api/v1/namespaces/d/configmaps", Map.of()));
        WorkEstimate pod = estimate("DELETE", "/api/v1/namespaces/d/pods/p", Map.of());
        assertEquals(1, pod.initialSeats());
        assertEquals(10, pod.finalSeats());
        assertEquals(Duration.ofMillis(5), pod.additionalLatency());
        assertEquals(WorkEstimate.ONE, estimate("GET", "/healthz", Map.of()));
    }
}
