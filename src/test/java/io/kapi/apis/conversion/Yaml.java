package io.kapi.apis.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Objects for conversion tests, written as YAML. */
final class Yaml {

    private Yaml() {
    }

    static ObjectNode of(String yaml) {
        return (ObjectNode) node(yaml);
    }

    static JsonNode node(String yaml) {
        try {
            return Json.yaml().readTree(yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Through JSON text and back, as a client that reads an object and sends it again. */
    static ObjectNode wire(ObjectNode object) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(Json.MAPPER.writeValueAsBytes(object));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
