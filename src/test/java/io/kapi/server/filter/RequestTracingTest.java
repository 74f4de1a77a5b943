package io.kapi.server.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.request.RequestInfo;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

final class RequestTracingTest {

    private static String name(String method, String path) {
        return RequestTracing.spanName(RequestInfo.parse(method, path, Map.of()), method);
    }

    @Test
    @DisplayName("request spans are named as kube's: placeholders for namespace and name, the bare method elsewhere")
    void spanNames() {
        assertEquals("POST /api/v1/namespaces/{:namespace}/configmaps", name("POST", "/api/v1/namespaces/default/configmaps"));
        assertEquals("GET /apis/apps/v1/namespaces/{:namespace}/deployments/{:name}/status",
                name("GET", "/apis/apps/v1/namespaces/kube-system/deployments/coredns/status"));
        assertEquals("GET /api/v1/nodes/{:name}", name("GET", "/api/v1/nodes/node-1"));
        // kube's request info gives a namespace its own name as namespace too, and so kube's span name
        assertEquals("GET /api/v1/namespaces/{:namespace}/namespaces/{:name}", name("GET", "/api/v1/namespaces/default"));
        assertEquals("GET", name("GET", "/healthz"));
        assertEquals("PUT", name("PUT", "/debug/flags/v"));
    }
}
