package io.kapi.apiextensions.conversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apiextensions.schema.StructuralSchema;
import io.kapi.machinery.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Reads and writes of a custom resource with conversion None: defaults of each object's own version, pruning. */
class CustomResourceConverterTest {

    private static StructuralSchema schema(String json) throws Exception {
        return StructuralSchema.of(Json.MAPPER.readTree(json));
    }

    private static ObjectNode object(String json) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(json);
    }

    private static CustomResourceConverter converter(String served) throws Exception {
        StructuralSchema v1 = schema("{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\",\"properties\":{"
                + "\"a\":{\"type\":\"string\",\"default\":\"from-v1\"},\"old\":{\"type\":\"string\"}}}}}");
        StructuralSchema v2 = schema("{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\",\"properties\":{"
                + "\"a\":{\"type\":\"string\",\"default\":\"from-v2\"},\"b\":{\"type\":\"integer\",\"default\":2}}}}}");
        return new CustomResourceConverter(served, "g/v2", Map.of("g/v1", v1, "g/v2", v2), true, new NoneConversion());
    }

    @Test
    @DisplayName("an object still stored in the old version gets that version's defaults, then the served version's shape")
    void oldStoredVersion() throws Exception {
        ObjectNode stored = object("{\"apiVersion\":\"g/v1\",\"kind\":\"K\",\"metadata\":{\"name\":\"x\"},"
                + "\"spec\":{\"old\":\"kept in v1\"}}");
        ObjectNode served = converter("g/v2").fromStorage(stored);
        assertEquals("g/v2", served.path("apiVersion").asText());
        assertEquals("from-v1", served.path("spec").path("a").asText(), "defaults of the version it is stored in");
        assertFalse(served.path("spec").has("b"), "not the served version's defaults: " + served);
        assertFalse(served.path("spec").has("old"), "pruned by the served schema: " + served);
        assertEquals("g/v1", stored.path("apiVersion").asText(), "the argument is unchanged");
        assertFalse(stored.path("spec").has("a"));
    }

    @Test
    @DisplayName("objects stored in the served version are defaulted, not converted; writes get the storage version's defaults")
    void sameVersion() throws Exception {
        CustomResourceConverter c = converter("g/v2");
        List<ObjectNode> items = c.fromStorage(List.of(object("{\"apiVersion\":\"g/v2\",\"kind\":\"K\",\"metadata\":{},"
                + "\"spec\":{\"a\":\"set\"}}")));
        assertEquals("set", items.getFirst().path("spec").path("a").asText());
        assertEquals(2, items.getFirst().path("spec").path("b").asInt());
        ObjectNode written = converter("g/v1").toStorage(object("{\"apiVersion\":\"g/v1\",\"kind\":\"K\",\"metadata\":{},"
                + "\"spec\":{\"old\":\"x\"}}"));
        assertEquals("g/v2", written.path("apiVersion").asText());
        assertEquals("from-v2", written.path("spec").path("a").asText());
        assertFalse(written.path("spec").has("old"), "pruned by the storage schema: " + written);
    }
}
