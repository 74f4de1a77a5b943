package io.kapi.endpoint.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SwaggerProtoTest {

    /** A field read back from the wire: number and, for length-delimited fields, the bytes. */
    private record Field(int number, long varint, byte[] bytes) {
        String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private static List<Field> fields(byte[] data) {
        List<Field> out = new ArrayList<>();
        int[] pos = {0};
        while (pos[0] < data.length) {
            long key = varint(data, pos);
            int number = (int) (key >>> 3);
            if ((key & 7) == 0) {
                out.add(new Field(number, varint(data, pos), null));
            } else {
                int length = (int) varint(data, pos);
                byte[] bytes = java.util.Arrays.copyOfRange(data, pos[0], pos[0] + length);
                pos[0] += length;
                out.add(new Field(number, 0, bytes));
            }
        }
        return out;
    }

    private static long varint(byte[] data, int[] pos) {
        long value = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = data[pos[0]++];
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
    }

    private static Field first(List<Field> fields, int number) {
        return fields.stream().filter(f -> f.number() == number).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("a schema's ref, type, required, properties and x- extensions encode as gnostic's openapi.v2 messages")
    void encodesDefinitions() throws IOException {
        JsonNode doc = Json.MAPPER.readTree("""
                {"swagger": "2.0", "info": {"title": "Kubernetes", "version": "v1.34.0"}, "paths": {},
                 "definitions": {"io.k8s.api.apps.v1.Deployment": {
                   "description": "Deployment", "type": "object", "required": ["spec"],
                   "properties": {"spec": {"$ref": "#/definitions/io.k8s.api.apps.v1.DeploymentSpec", "default": {}}},
                   "x-kubernetes-group-version-kind": [{"group": "apps", "kind": "Deployment", "version": "v1"}]}}}
                """);
        List<Field> top = fields(SwaggerProto.encode(doc));
        assertEquals("2.0", first(top, 1).text());
        assertEquals("v1.34.0", first(fields(first(top, 2).bytes()), 2).text());
        List<Field> named = fields(first(fields(first(top, 9).bytes()), 1).bytes());
        assertEquals("io.k8s.api.apps.v1.Deployment", first(named, 1).text());
        List<Field> schema = fields(first(named, 2).bytes());
        assertEquals("Deployment", first(schema, 4).text());
        assertEquals("spec", first(schema, 19).text());
        assertEquals("object", first(fields(first(schema, 22).bytes()), 1).text());
        List<Field> property = fields(first(fields(first(schema, 25).bytes()), 1).bytes());
        assertEquals("spec", first(property, 1).text());
        List<Field> spec = fields(first(property, 2).bytes());
        assertEquals("#/definitions/io.k8s.api.apps.v1.DeploymentSpec", first(spec, 1).text());
        assertEquals("{}", first(fields(first(spec, 5).bytes()), 2).text().strip());
        List<Field> extension = fields(first(schema, 31).bytes());
        assertEquals("x-kubernetes-group-version-kind", first(extension, 1).text());
        String yaml = first(fields(first(extension, 2).bytes()), 2).text();
        JsonNode gvk = Json.yaml().readTree(yaml);
        assertEquals("Deployment", gvk.get(0).get("kind").asText());
        assertTrue(gvk.isArray());
    }
}
