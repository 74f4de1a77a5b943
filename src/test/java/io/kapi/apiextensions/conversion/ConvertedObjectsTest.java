package io.kapi.apiextensions.conversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** kube's checks of a conversion webhook's converted objects, and their wording. */
class ConvertedObjectsTest {

    private static final String FROM = "g/v1, Kind=K";

    private static ObjectNode original() throws Exception {
        return (ObjectNode) Json.MAPPER.readTree("{\"apiVersion\":\"g/v1\",\"kind\":\"K\",\"metadata\":{\"name\":\"a\","
                + "\"namespace\":\"ns\",\"uid\":\"u1\",\"resourceVersion\":\"7\",\"labels\":{\"x\":\"1\"}},\"spec\":{}}");
    }

    private static JsonNode array(JsonNode... nodes) {
        var a = Json.MAPPER.createArrayNode();
        for (JsonNode n : nodes) {
            a.add(n);
        }
        return a;
    }

    private static String failure(Consumer<ObjectNode> change, boolean list) throws Exception {
        ObjectNode converted = original();
        converted.put("apiVersion", "g/v2");
        change.accept(converted);
        ApiException e = assertThrows(ApiException.class,
                () -> ConvertedObjects.check(FROM, "g/v2", array(original()), array(converted), list));
        assertEquals(500, e.code());
        return e.getMessage();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "apiVersion|invalid groupVersion (expected g/v2, received g/v3)",
        "kind|invalid kind (expected K, received Other)",
        "name|must have the same name: a != b",
        "namespace|must have the same namespace: ns != other",
        "uid|must have the same UID: u1 != u2"})
    @DisplayName("an object whose identity changed is refused, per index in a list")
    void identity(String field, String message) throws Exception {
        Consumer<ObjectNode> change = switch (field) {
            case "apiVersion" -> o -> o.put("apiVersion", "g/v3");
            case "kind" -> o -> o.put("kind", "Other");
            case "name" -> o -> o.with("metadata").put("name", "b");
            case "namespace" -> o -> o.with("metadata").put("namespace", "other");
            default -> o -> o.with("metadata").put("uid", "u2");
        };
        assertEquals("conversion webhook for g/v1, Kind=K returned invalid object: " + message, failure(change, false));
        assertEquals("conversion webhook for g/v1, Kind=K returned invalid converted object at index 0: " + message,
                failure(change, true));
    }

    @Test
    @DisplayName("metadata that is not an object has no name (kube checks identity first); labels must be strings")
    void metadata() throws Exception {
        assertEquals("conversion webhook for g/v1, Kind=K returned invalid object: must have the same name: a != ",
                failure(o -> o.put("metadata", "x"), false));
        assertEquals("conversion webhook for g/v1, Kind=K returned invalid metadata in object at index 0: invalid "
                + "metadata.labels[x]: expected string", failure(o -> o.with("metadata").with("labels").put("x", 1), true));
    }

    @Test
    @DisplayName("the count must match: none for a single object, or another number for a list")
    void count() throws Exception {
        ApiException none = assertThrows(ApiException.class,
                () -> ConvertedObjects.check(FROM, "g/v2", array(original()), array(), false));
        assertEquals("conversion webhook for g/v1, Kind=K failed, no objects returned", none.getMessage());
        ApiException more = assertThrows(ApiException.class,
                () -> ConvertedObjects.check(FROM, "g/v2", array(original()), array(original(), original()), true));
        assertEquals("conversion webhook for g/v1, Kind=K returned 2 objects, expected 1", more.getMessage());
    }

    @Test
    @DisplayName("of the metadata only labels and annotations are the webhook's; the rest is restored")
    void restored() throws Exception {
        ObjectNode converted = original();
        converted.put("apiVersion", "g/v2");
        ObjectNode meta = converted.with("metadata");
        meta.put("resourceVersion", "99");
        meta.putObject("labels").put("y", "2");
        meta.putObject("annotations").put("note", "converted");
        Map<Integer, ObjectNode> out = ConvertedObjects.check(FROM, "g/v2", array(original()), array(converted), false);
        JsonNode m = out.get(0).path("metadata");
        assertEquals("7", m.path("resourceVersion").asText());
        assertEquals("{\"y\":\"2\"}", m.path("labels").toString());
        assertEquals("converted", m.path("annotations").path("note").asText());
    }
}
