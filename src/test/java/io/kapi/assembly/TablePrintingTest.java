package io.kapi.assembly;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.kapi.harness.ApiHarness;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Tables as the server prints them: each resource with the printer its definition carries. */
class TablePrintingTest {

    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
    private static ApiHarness api;

    @BeforeAll
    static void start() {
        api = new ApiHarness();
        assertEquals(201, api.post("/apis/apps/v1/namespaces/default/deployments", """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
                 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
                         "template":{"metadata":{"labels":{"app":"web"}},
                                     "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}""").code());
        assertEquals(201, api.post("/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers", """
                {"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},
                 "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},
                         "minReplicas":1,"maxReplicas":3,
                         "metrics":[{"type":"Pods","pods":{"metric":{"name":"qps"},
                                     "target":{"type":"AverageValue","averageValue":"1k"}}}]}}""").code());
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    private static JsonNode table(String path) {
        ApiHarness.Reply r = api.call(ApiHarness.ADMIN, "GET", path, null, TABLE, "");
        assertEquals(200, r.code(), r.text());
        return r.body();
    }

    private static List<String> columns(JsonNode table) {
        return table.path("columnDefinitions").findValuesAsText("name");
    }

    @Test
    @DisplayName("a built-in resource should print with its kind's columns")
    void kindColumns() {
        JsonNode table = table("/apis/apps/v1/namespaces/default/deployments/web");
        assertEquals(List.of("Name", "Ready", "Up-to-date", "Available", "Age", "Containers", "Images", "Selector"),
                columns(table));
        assertEquals("0/2", table.path("rows").get(0).path("cells").get(1).asText());
    }

    @Test
    @DisplayName("a scale subresource should print as a Scale, a kind with no resource of its own")
    void scaleColumns() {
        JsonNode table = table("/apis/apps/v1/namespaces/default/deployments/web/scale");
        assertEquals(List.of("Name", "Desired", "Available", "Age"), columns(table));
        assertEquals("web", table.path("rows").get(0).path("cells").get(0).asText());
        assertEquals(2, table.path("rows").get(0).path("cells").get(1).asInt());
    }

    @Test
    @DisplayName("a resource served in several versions should print its stored form, whichever version is asked")
    void storedForm() {
        JsonNode v2 = table("/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/h");
        JsonNode v1 = table("/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/h");
        assertEquals("<unknown>/1k", v2.path("rows").get(0).path("cells").get(2).asText());
        assertEquals(v2.path("columnDefinitions"), v1.path("columnDefinitions"));
        assertEquals(withoutAge(v2), withoutAge(v1),
                "the v1 object carries its Pods metric in an annotation; its stored form has it in spec.metrics");
    }

    /** The cells of the first row but the last (AGE, which may tick between two requests). */
    private static JsonNode withoutAge(JsonNode table) {
        ArrayNode cells = table.path("rows").get(0).path("cells").deepCopy();
        cells.remove(cells.size() - 1);
        return cells;
    }

    @Test
    @DisplayName("a kind without a printer of its own should print kube's default NAME and CREATED AT")
    void defaultColumns() {
        assertEquals(201, api.post("/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
                "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\",\"metadata\":{\"name\":\"r\"}}").code());
        assertEquals(List.of("Name", "Created At"),
                columns(table("/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/r")));
    }
}
