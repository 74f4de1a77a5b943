package io.kapi.endpoint.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CustomColumnsTest {

    private static final TableConvertor CONVERTOR = TableConvertor.withoutSchemas();
    private static final ApiResource CERTS = PrinterCellsTest.resource("cert-manager.io", "Certificate");

    private static JsonNode yaml(String s) throws IOException {
        return Json.yaml().readTree(s);
    }

    private static final String CERT = """
            apiVersion: cert-manager.io/v1
            kind: Certificate
            metadata: {name: web-tls, creationTimestamp: "2025-12-31T23:55:00Z"}
            spec:
              secretName: web-tls
              issuerRef: {name: letsencrypt}
              replicas: 3
              ratio: 1.5
              big: 1234567.0
              paused: true
              labels: {z: "1", a: "2"}
              nothing: null
            status:
              conditions:
              - {type: Issuing, status: "False"}
              - {type: Ready, status: "True", message: Certificate is up to date}
            """;

    @Test
    @DisplayName("printer columns should print the first value their JSONPath selects, typed")
    void columns() throws IOException {
        JsonNode columns = yaml("""
                - {name: Ready, type: string, jsonPath: '.status.conditions[?(@.type=="Ready")].status'}
                - {name: Secret, type: string, jsonPath: .spec.secretName}
                - {name: Issuer, type: string, jsonPath: .spec.issuerRef.name, priority: 1}
                - {name: Replicas, type: integer, jsonPath: .spec.replicas}
                - {name: Ratio, type: number, jsonPath: .spec.ratio}
                - {name: Paused, type: boolean, jsonPath: .spec.paused}
                - {name: Labels, type: string, jsonPath: .spec.labels}
                - {name: Big, type: string, jsonPath: .spec.big}
                - {name: Missing, type: string, jsonPath: .spec.absent}
                - {name: 'Null', type: string, jsonPath: .spec.nothing}
                - {name: First, type: string, jsonPath: '.status.conditions[*].type'}
                - {name: Last, type: string, jsonPath: '.status.conditions[-1].type'}
                - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
                """);
        ResourcePrinter printer = CONVERTOR.customResourcePrinter(CERTS, columns);
        JsonNode table = CONVERTOR.single(printer, yaml(CERT), TableOptions.DEFAULT, PrinterCellsTest.NOW);
        assertEquals("[\"web-tls\",\"True\",\"web-tls\",\"letsencrypt\",3,1.5,true,\"{\\\"a\\\":\\\"2\\\",\\\"z\\\":\\\"1\\\"}\","
                        + "\"1.234567e+06\",null,\"<no value>\",\"Issuing\",\"Ready\",\"5m\"]",
                table.path("rows").get(0).path("cells").toString());
        JsonNode defs = table.path("columnDefinitions");
        assertEquals(List.of("Name", "Ready", "Secret", "Issuer", "Replicas", "Ratio", "Paused", "Labels", "Big",
                "Missing", "Null", "First", "Last", "Age"), defs.findValuesAsText("name"));
        assertEquals(1, defs.get(3).path("priority").asInt());
        assertEquals("Custom resource definition column (in JSONPath format): .spec.secretName",
                defs.get(2).path("description").asText());
    }

    @Test
    @DisplayName("a CRD without printer columns should print NAME and AGE")
    void defaultAge() throws IOException {
        ResourcePrinter printer = CONVERTOR.customResourcePrinter(CERTS, null);
        assertEquals(List.of("Name", "Age"), printer.columnNames());
        assertEquals("date", printer.columnDefinitions().get(1).path("type").asText());
        JsonNode table = CONVERTOR.single(printer, yaml(CERT), TableOptions.DEFAULT, PrinterCellsTest.NOW);
        assertEquals("[\"web-tls\",\"5m\"]", table.path("rows").get(0).path("cells").toString());
    }

    @Test
    @DisplayName("a column with an unsupported JSONPath should end the columns there")
    void badPath() throws IOException {
        JsonNode columns = yaml("""
                - {name: A, type: string, jsonPath: .spec.secretName}
                - {name: B, type: string, jsonPath: '..name'}
                - {name: C, type: string, jsonPath: .spec.secretName}
                """);
        assertEquals(List.of("Name", "A"), CONVERTOR.customResourcePrinter(CERTS, columns).columnNames());
    }

    @Test
    @DisplayName("a date column should print an unreadable date as <invalid>")
    void badDate() throws IOException {
        ResourcePrinter printer = CONVERTOR.customResourcePrinter(CERTS,
                yaml("[{name: When, type: date, jsonPath: .spec.secretName}]"));
        JsonNode table = CONVERTOR.single(printer, yaml(CERT), TableOptions.DEFAULT, PrinterCellsTest.NOW);
        assertEquals("<invalid>", table.path("rows").get(0).path("cells").get(1).asText());
    }

    private static String find(JsonPath path, JsonNode doc) {
        return Json.MAPPER.valueToTree(path.find(doc)).toString();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "1.5|1.5", "100000|100000", "1000000|1e+06", "123456789|1.23456789e+08", "0.0001|0.0001",
        "0.00001|1e-05", "-2.5|-2.5", "0|0"
    })
    @DisplayName("floats should print as Go's %v")
    void goFloat(double value, String expected) {
        assertEquals(expected, CustomColumns.goFloat(value));
    }

    @Test
    @DisplayName("filters should compare numbers and strings, and test existence")
    void filters() throws IOException {
        JsonNode doc = yaml("""
                items: [{n: 1, k: a}, {n: 5, k: b, x: true}, {n: 10, k: c}]
                """);
        assertEquals("[\"b\",\"c\"]", find(JsonPath.parse("{.items[?(@.n > 2)].k}"), doc));
        assertEquals("[\"a\",\"c\"]", find(JsonPath.parse(".items[?(@.k != 'b')].k"), doc));
        assertEquals("[\"b\"]", find(JsonPath.parse(".items[?(@.x)].k"), doc));
        assertEquals("[1]", find(JsonPath.parse(".items[0]['n']"), doc));
        assertEquals("[]", find(JsonPath.parse(".items[7].n"), doc));
        assertThrows(IllegalArgumentException.class, () -> JsonPath.parse(".items[0:2]"));
    }
}
