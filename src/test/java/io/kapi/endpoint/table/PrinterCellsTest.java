package io.kapi.endpoint.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Table-driven: each fixture in {@code src/test/resources/table/*.yaml} is an object and the cells
 * kube-apiserver 1.34 prints for it (wide form, as the server always prints), at a fixed now.
 */
class PrinterCellsTest {

    static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final TableConvertor CONVERTOR = BuiltinPrinting.convertor();

    record Fixture(String file, String group, String kind, String name, JsonNode object, JsonNode cells,
                   JsonNode conditions) {
        @Override
        public String toString() {
            return (group.isEmpty() ? "core" : group) + "/" + kind + ": " + name;
        }
    }

    static Stream<Arguments> fixtures() throws IOException {
        List<Arguments> out = new ArrayList<>();
        for (String file : List.of("pods.yaml", "workloads.yaml", "core.yaml", "others.yaml")) {
            try (InputStream in = PrinterCellsTest.class.getResourceAsStream("/table/" + file)) {
                for (JsonNode section : Json.yaml().readTree(in)) {
                    for (JsonNode c : section.path("cases")) {
                        out.add(Arguments.of(new Fixture(file, section.path("group").asText(""),
                                section.path("kind").asText(), c.path("case").asText(), c.path("object"),
                                c.path("cells"), c.get("conditions"))));
                    }
                }
            }
        }
        return out.stream();
    }

    static ApiResource resource(String group, String kind) {
        return new ApiResource(group, "v1", kind.toLowerCase() + "s", kind.toLowerCase(), kind, true,
                List.of("get", "list"), List.of(), List.of(), List.of());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    @DisplayName("a built-in object should print the cells kube-apiserver prints")
    void printsCells(Fixture f) throws IOException {
        JsonNode table = CONVERTOR.single(resource(f.group(), f.kind()), f.object(), TableOptions.DEFAULT, NOW);
        JsonNode row = table.path("rows").get(0);
        assertEquals(Json.MAPPER.writeValueAsString(f.cells()), Json.MAPPER.writeValueAsString(row.path("cells")),
                f.toString());
        assertEquals(table.path("columnDefinitions").size(), row.path("cells").size(), "one cell per column");
        assertEquals(f.conditions(), row.get("conditions"), "row conditions");
    }
}
