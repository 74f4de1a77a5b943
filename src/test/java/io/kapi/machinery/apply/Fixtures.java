package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.schema.Schemas;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;

/** Shared test data: field managers over the real 1.34 schemas, YAML helpers, clock ticks. */
final class Fixtures {

    static final FieldManagers MANAGERS = new FieldManagers(Schemas.load());
    static final FieldManager DEPLOYMENTS = MANAGERS.forKind(new GroupVersionKind("apps", "v1", "Deployment"));
    static final FieldManager CONFIGMAPS = MANAGERS.forKind(new GroupVersionKind("", "v1", "ConfigMap"));
    static final FieldManager PODS = MANAGERS.forKind(new GroupVersionKind("", "v1", "Pod"));

    private Fixtures() {
    }

    static ObjectNode yaml(String text) {
        try {
            return (ObjectNode) Json.yaml().readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Instant at(int second) {
        return Instant.parse("2026-01-01T00:00:00Z").plusSeconds(second);
    }

    /** The object as stored: with a uid, as the registry gives it on create. */
    static ObjectNode stored(ObjectNode obj) {
        ObjectNode copy = obj.deepCopy();
        copy.with("metadata").put("uid", "6b2f6a8e-0000-4000-8000-000000000001");
        return copy;
    }

    /** The fieldsV1 of the entry of {@code manager} with {@code operation}, or null. */
    static JsonNode fieldsOf(ObjectNode obj, String manager, String operation) {
        for (JsonNode e : obj.path("metadata").path("managedFields")) {
            if (e.path("manager").asText().equals(manager) && e.path("operation").asText().equals(operation)) {
                return e.get("fieldsV1");
            }
        }
        return null;
    }

    static String managers(ObjectNode obj) {
        StringBuilder b = new StringBuilder();
        for (JsonNode e : obj.path("metadata").path("managedFields")) {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            b.append(e.path("manager").asText()).append('/').append(e.path("operation").asText());
            if (e.has("subresource")) {
                b.append('/').append(e.path("subresource").asText());
            }
        }
        return b.toString();
    }

    static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
              namespace: default
              labels: {app: web}
            spec:
              replicas: 2
              selector:
                matchLabels: {app: web}
              template:
                metadata:
                  labels: {app: web}
                spec:
                  containers:
                  - name: nginx
                    image: nginx:1.27
            """;
}
