package io.kapi.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Routing of resource requests, in memory: what is served, what is 404 and what is 405. */
class ApiRouterTest {

    @InMemoryApi
    private static ApiHarness api;

    @ParameterizedTest(name = "{0} {1} → {2} {3}")
    @DisplayName("paths route to the resource and verb, or answer kube-apiserver's 404/405")
    @CsvSource(delimiter = '|', value = {
            "GET|/api/v1/namespaces/default/configmaps|200|",
            "GET|/api/v1/configmaps|200|",
            "GET|/api/v1/namespaces|200|",
            "GET|/api/v1/namespaces/default|200|",
            "GET|/api/v1/nodes|200|",
            "GET|/api/v1/watch/namespaces/default/configmaps?timeoutSeconds=1|200|",
            "GET|/apis/apps/v1/namespaces/default/deployments|200|",
            "GET|/api/v1/namespaces/default/widgets|404|NotFound",
            "GET|/apis/nope.example.com/v1/widgets|404|NotFound",
            "GET|/api/v1/configmaps/x|404|NotFound",
            "POST|/api/v1/configmaps|405|MethodNotAllowed",
            "GET|/api/v1/namespaces/default/nodes|404|NotFound",
            "PUT|/api/v1/namespaces/default/configmaps|405|MethodNotAllowed",
            "GET|/api/v1/namespaces/default/configmaps/x/status|404|NotFound",
            "POST|/api/v1/namespaces/default/pods/p/status|405|MethodNotAllowed",
            "DELETE|/api/v1/namespaces|405|MethodNotAllowed",
            "POST|/apis/authorization.k8s.io/v1/selfsubjectaccessreviews|400|BadRequest",
            "GET|/apis/authentication.k8s.io/v1/tokenreviews|405|MethodNotAllowed",
    })
    void routes(String method, String path, int code, String reason) {
        ApiHarness.Reply reply = api.call(method, path, method.equals("GET") || method.equals("DELETE") ? null
                : "application/json", "");
        assertEquals(code, reply.code(), reply.text());
        if (reason != null) {
            assertEquals(reason, reply.body().path("reason").asText(), reply.text());
        }
    }
}
