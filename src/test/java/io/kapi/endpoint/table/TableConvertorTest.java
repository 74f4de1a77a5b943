package io.kapi.endpoint.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.schema.Schemas;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TableConvertorTest {

    private static final TableConvertor CONVERTOR = BuiltinPrinting.convertor();
    private static final ApiResource PODS = PrinterCellsTest.resource("", "Pod");

    private static ObjectNode pod(String name, String rv) throws IOException {
        return (ObjectNode) Json.MAPPER.readTree("""
                {"apiVersion":"v1","kind":"Pod",
                 "metadata":{"name":"%s","namespace":"default","resourceVersion":"%s","uid":"u-%s",
                             "labels":{"app":"web"},"creationTimestamp":"2025-12-31T23:55:00Z",
                             "managedFields":[{"manager":"kubectl","operation":"Update"}]},
                 "spec":{"containers":[{"name":"c","image":"nginx"}]},
                 "status":{"phase":"Running"}}""".formatted(name, rv, name));
    }

    private static ObjectNode list(TableOptions options) throws IOException {
        return CONVERTOR.list(PODS, List.of(pod("a", "10"), pod("b", "11")), new ListMeta("12", "tok", 5L),
                options, PrinterCellsTest.NOW);
    }

    @Test
    @DisplayName("a list should print as a meta.k8s.io/v1 Table with the list's metadata")
    void listEnvelope() throws IOException {
        ObjectNode table = list(TableOptions.DEFAULT);
        assertEquals("Table", table.path("kind").asText());
        assertEquals("meta.k8s.io/v1", table.path("apiVersion").asText());
        assertEquals("{\"resourceVersion\":\"12\",\"continue\":\"tok\",\"remainingItemCount\":5}",
                table.path("metadata").toString());
        assertEquals(2, table.path("rows").size());
        assertEquals(List.of("kind", "apiVersion", "metadata", "columnDefinitions", "rows"),
                List.copyOf(iterable(table.fieldNames())));
    }

    @Test
    @DisplayName("pod columns should be kube's, the wide ones at priority 1")
    void podColumns() throws IOException {
        JsonNode defs = list(TableOptions.DEFAULT).path("columnDefinitions");
        List<String> names = defs.findValuesAsText("name");
        assertEquals(List.of("Name", "Ready", "Status", "Restarts", "Age", "IP", "Node", "Nominated Node",
                "Readiness Gates"), names);
        assertEquals(Json.MAPPER.readTree("""
                {"name":"Name","type":"string","format":"name","description":"","priority":0}"""), defs.get(0));
        assertEquals(0, defs.get(4).path("priority").asInt());
        assertEquals(1, defs.get(5).path("priority").asInt());
        assertEquals("", defs.get(5).path("format").asText(), "format is always written, empty when unset");
    }

    @Test
    @DisplayName("rows should carry a PartialObjectMetadata by default")
    void metadataObjects() throws IOException {
        JsonNode object = list(TableOptions.DEFAULT).path("rows").get(0).path("object");
        assertEquals("PartialObjectMetadata", object.path("kind").asText());
        assertEquals("meta.k8s.io/v1", object.path("apiVersion").asText());
        assertEquals(pod("a", "10").path("metadata"), object.path("metadata"));
        assertFalse(object.has("spec"));
    }

    @Test
    @DisplayName("includeObject=None should leave the row object null, Object should embed the object")
    void includeObject() throws IOException {
        assertTrue(list(TableOptions.of("v1", "None")).path("rows").get(0).get("object").isNull());
        assertEquals(pod("b", "11"), list(TableOptions.of("v1", "Object")).path("rows").get(1).get("object"));
    }

    @Test
    @DisplayName("an embedded object without apiVersion and kind should get them from the resource")
    void objectTypeMeta() throws IOException {
        ObjectNode bare = pod("a", "1");
        bare.remove("apiVersion");
        bare.remove("kind");
        JsonNode row = CONVERTOR.single(PrinterCellsTest.resource("apps", "Deployment"), bare,
                TableOptions.of("v1", "Object"), PrinterCellsTest.NOW).path("rows").get(0);
        assertEquals("apps/v1", row.path("object").path("apiVersion").asText());
        assertEquals("Deployment", row.path("object").path("kind").asText());
    }

    @Test
    @DisplayName("a v1beta1 Table should say so in the table and its partial objects")
    void v1beta1() throws IOException {
        ObjectNode table = list(TableOptions.of("v1beta1", null));
        assertEquals("meta.k8s.io/v1beta1", table.path("apiVersion").asText());
        assertEquals("meta.k8s.io/v1beta1", table.path("rows").get(0).path("object").path("apiVersion").asText());
    }

    @Test
    @DisplayName("a single object should print one row and carry its resourceVersion")
    void single() throws IOException {
        ObjectNode table = CONVERTOR.single(PODS, pod("a", "42"), TableOptions.DEFAULT, PrinterCellsTest.NOW);
        assertEquals(Json.MAPPER.readTree("{\"resourceVersion\":\"42\"}"), table.path("metadata"));
        assertEquals(1, table.path("rows").size());
        assertEquals("[\"a\",\"0/1\",\"Running\",\"0\",\"5m\",\"<none>\",\"<none>\",\"<none>\",\"<none>\"]",
                table.path("rows").get(0).path("cells").toString());
    }

    @Test
    @DisplayName("an empty list should have an empty rows array and empty metadata")
    void empty() {
        ObjectNode table = CONVERTOR.list(PODS, List.of(), ListMeta.EMPTY, TableOptions.DEFAULT, PrinterCellsTest.NOW);
        assertEquals(0, table.path("rows").size());
        assertTrue(table.path("rows").isArray());
        assertEquals(0, table.path("metadata").size());
    }

    @Test
    @DisplayName("noHeaders should leave out the column definitions")
    void noHeaders() {
        ObjectNode table = CONVERTOR.list(PODS, List.of(), ListMeta.EMPTY,
                TableOptions.DEFAULT.withoutHeaders(), PrinterCellsTest.NOW);
        assertTrue(table.get("columnDefinitions").isNull(), "kube writes a nil slice as null");
    }

    @Test
    @DisplayName("an unknown includeObject should be a 400 worded as kube-apiserver")
    void badIncludeObject() {
        ApiException e = assertThrows(ApiException.class, () -> TableOptions.of("v1", "Everything"));
        assertEquals(400, e.code());
        assertEquals("unrecognized includeObject value: \"Everything\"", e.getMessage());
    }

    @Test
    @DisplayName("a meta.k8s.io version without Table should be 406 Not Acceptable")
    void badVersion() {
        ApiException e = assertThrows(ApiException.class, () -> TableOptions.of("v2", null));
        assertEquals(StatusReason.NOT_ACCEPTABLE, e.reason());
        assertEquals("no Table exists in group version meta.k8s.io/v2", e.getMessage());
    }

    @Test
    @DisplayName("kinds without their own printer should get the default Name / Created At columns")
    void defaultColumns() {
        ApiResource widgets = PrinterCellsTest.resource("example.com", "Widget");
        JsonNode defs = CONVERTOR.printer(widgets).columnDefinitions();
        assertEquals(List.of("Name", "Created At"), defs.findValuesAsText("name"));
        assertEquals("date", defs.get(1).path("type").asText());
        assertNull(BuiltinPrinting.of(widgets), "no printer of its own");
        assertNotNull(BuiltinPrinting.of(PODS));
        assertNull(BuiltinPrinting.of(PrinterCellsTest.resource("rbac.authorization.k8s.io", "Role")));
    }

    @Test
    @DisplayName("descriptions should come from the OpenAPI docs, without the enum list")
    void descriptions() {
        TableConvertor withDocs = TableConvertor.create(Schemas.load(), BuiltinPrinting::of);
        JsonNode pods = withDocs.printer(PODS).columnDefinitions();
        assertTrue(pods.get(0).path("description").asText().startsWith("Name must be unique within a namespace."));
        assertTrue(pods.get(4).path("description").asText().startsWith("CreationTimestamp is a timestamp"));
        assertTrue(pods.get(5).path("description").asText().startsWith("podIP address allocated to the pod."),
                pods.get(5).path("description").asText());
        JsonNode svc = withDocs.printer(PrinterCellsTest.resource("", "Service")).columnDefinitions();
        String type = svc.get(1).path("description").asText();
        assertTrue(type.startsWith("type determines how the Service is exposed."));
        assertFalse(type.contains("Possible enum values"));
        assertTrue(type.endsWith("#publishing-services-service-types"), type);
    }

    @Test
    @DisplayName("a PartialObjectMetadataList should carry the list metadata and one item per object")
    void partialList() throws IOException {
        ObjectNode list = PartialObjectMetadata.list(List.of(pod("a", "1"), pod("b", "2")),
                new ListMeta("3", null, null), MetaVersion.V1);
        assertEquals("PartialObjectMetadataList", list.path("kind").asText());
        assertEquals("meta.k8s.io/v1", list.path("apiVersion").asText());
        assertEquals("3", list.path("metadata").path("resourceVersion").asText());
        assertFalse(list.path("metadata").has("continue"));
        assertEquals(2, list.path("items").size());
        JsonNode item = list.path("items").get(1);
        assertEquals("PartialObjectMetadata", item.path("kind").asText());
        assertEquals("b", item.path("metadata").path("name").asText());
        assertEquals(1, item.path("metadata").path("managedFields").size(), "managed fields are kept");
    }

    @Test
    @DisplayName("a partial object should not share its metadata with the stored object")
    void partialCopies() throws IOException {
        ObjectNode stored = pod("a", "1");
        ObjectNode partial = PartialObjectMetadata.of(stored, MetaVersion.V1);
        ((ObjectNode) partial.path("metadata")).put("name", "changed");
        assertEquals("a", stored.path("metadata").path("name").asText());
    }

    @Test
    @DisplayName("flow schemas should be listed by matching precedence, then name, as kube prints them")
    void flowSchemaOrder() throws IOException {
        List<JsonNode> items = List.of(
                Json.MAPPER.readTree("{\"metadata\":{\"name\":\"b\"},\"spec\":{\"matchingPrecedence\":500}}"),
                Json.MAPPER.readTree("{\"metadata\":{\"name\":\"z\"},\"spec\":{\"matchingPrecedence\":1}}"),
                Json.MAPPER.readTree("{\"metadata\":{\"name\":\"a\"},\"spec\":{\"matchingPrecedence\":500}}"));
        ObjectNode table = CONVERTOR.list(PrinterCellsTest.resource("flowcontrol.apiserver.k8s.io", "FlowSchema"),
                items, ListMeta.EMPTY, TableOptions.DEFAULT, PrinterCellsTest.NOW);
        assertEquals(List.of("z", "a", "b"), table.path("rows").findValues("cells").stream()
                .map(c -> c.get(0).asText()).toList());
        assertEquals("b", items.get(0).path("metadata").path("name").asText(), "the input list is not reordered");
    }

    private static <T> List<T> iterable(java.util.Iterator<T> it) {
        List<T> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
