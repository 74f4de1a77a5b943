package io.kapi.endpoint.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Server-side apply over HTTP, against kube-apiserver's patch handler ({@code endpoints/handlers/patch.go}:
 * the apply runs on the stored object, or on an empty one to create, then the uid, namespace and name of
 * the result are checked) and its field manager ({@code util/managedfields}: conflicts, reset fields).
 */
class ApplyHandlerTest {

    private static final String PODS = "/api/v1/namespaces/default/pods";
    private static final String APPLY = "application/apply-patch+yaml";

    @InMemoryApi
    private static ApiHarness api;

    private static ApiHarness.Reply apply(String path, String body) {
        return api.patch(path, APPLY, body);
    }

    private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\"},"
            + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"%s\"}]},\"status\":{\"message\":\"%s\"}}";

    @Test
    @DisplayName("apply to the main resource owns no status field, apply to status owns no spec field; neither conflicts "
            + "on the other's")
    void statusSubresource() {
        ApiHarness.Reply created = apply(PODS + "/sub?fieldManager=main", POD.formatted("sub", "nginx", "main"));
        assertEquals(201, created.code(), created.text());
        assertTrue(fields(created.body(), "main", "Apply", "").path("f:status").isMissingNode(), created.text());

        ApiHarness.Reply status = apply(PODS + "/sub/status?fieldManager=kubelet", POD.formatted("sub", "busybox", "running"));
        assertEquals(200, status.code(), status.text());
        assertEquals("running", status.body().at("/status/message").asText());
        assertEquals("nginx", status.body().at("/spec/containers/0/image").asText());
        JsonNode owned = fields(status.body(), "kubelet", "Apply", "status");
        assertEquals("{\"f:status\":{\"f:message\":{}}}", owned.toString());

        ApiHarness.Reply again = apply(PODS + "/sub?fieldManager=main", POD.formatted("sub", "nginx", "main"));
        assertEquals(200, again.code(), again.text());
        assertEquals("running", again.body().at("/status/message").asText());
        assertTrue(fields(again.body(), "main", "Apply", "").path("f:status").isMissingNode(), again.text());
    }

    /** The fields of one managedFields entry, or a missing node. */
    private static JsonNode fields(JsonNode object, String manager, String operation, String subresource) {
        for (JsonNode entry : object.at("/metadata/managedFields")) {
            if (entry.path("manager").asText().equals(manager) && entry.path("operation").asText().equals(operation)
                    && entry.path("subresource").asText().equals(subresource)) {
                return entry.path("fieldsV1");
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
}
