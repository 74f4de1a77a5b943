package io.kapi.machinery.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RawJsonTest {

    private static final String FIELDS = """
            {"f:metadata":{"f:labels":{".":{},"f:app":{}},"f:annotations":{"k:{\\"a\\":\\"é\\"}":{}}},
             "f:spec":{"f:a":{},"f:b":{},"f:c":{},"f:d":{},"f:e":{},"f:f":{},"f:g":{},"f:h":{},"f:i":{},"f:j":{},
               "f:k":{},"f:l":{},"f:m":{},"f:n":{"x":[1,-2,9223372036854775807,true,null,"s\\n"]}}}""";

    @Test
    @DisplayName("ordinary and compact trees (inline and past 12 fields) are written as the mapper writes them")
    void sameBytesAsTheMapper() throws Exception {
        for (JsonNode tree : new JsonNode[] {Json.MAPPER.readTree(FIELDS), Json.COMPACT_READER.readTree(FIELDS)}) {
            assertArrayEquals(Json.MAPPER.writeValueAsBytes(tree), RawJson.bytes(tree));
            assertArrayEquals(Json.MAPPER.writeValueAsBytes(Json.MAPPER.readTree(FIELDS)), RawJson.bytes(tree));
        }
    }

    @Test
    @DisplayName("empty objects (written with their key in one copy), arrays and strings, as the mapper writes them")
    void empties() throws Exception {
        for (String json : new String[] {"{}", "[]", "[{}]",
                "{\"a\":{},\"b\":[],\"c\":\"\",\"d\":{\"e\":{}},\"f\":[{}]}",
                "{\"\":{},\"k:{\\\"a\\\":1}\":{},\"x\":null}"}) {
            for (JsonNode tree : new JsonNode[] {Json.MAPPER.readTree(json), Json.COMPACT_READER.readTree(json)}) {
                assertArrayEquals(Json.MAPPER.writeValueAsBytes(tree), RawJson.bytes(tree), json);
            }
        }
    }
}
