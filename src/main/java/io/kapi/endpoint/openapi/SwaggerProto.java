package io.kapi.endpoint.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.util.HashMap;
import java.util.Map;

/**
 * Encodes the Swagger 2.0 document as the {@code openapi.v2.Document} protobuf message of gnostic
 * ({@code application/com.github.proto-openapi.spec.v2@v1.0+protobuf}), which kubectl and client-go ask
 * {@code /openapi/v2} for. Covers what the generated document contains: info, paths with operations,
 * query/path/body parameters and responses, schemas (ref, type, format, description, required,
 * properties, items, additionalProperties, allOf, default) and every {@code x-} extension, whose value
 * is carried as YAML like gnostic does.
 */
final class SwaggerProto {

    /** YAML of extension and default values, memoized: most values repeat thousands of times. */
    private final Map<JsonNode, String> yaml = new HashMap<>();

    private SwaggerProto() {
    }

    static byte[] encode(JsonNode doc) {
        return new SwaggerProto().document(doc);
    }

    private byte[] document(JsonNode doc) {
        ProtoWriter w = new ProtoWriter();
        w.string(1, doc.path("swagger").asText());
        w.message(2, info -> info.string(1, doc.at("/info/title").asText()).string(2, doc.at("/info/version").asText()));
        w.message(8, paths -> doc.path("paths").properties().forEach(p ->
                paths.message(2, named -> named.string(1, p.getKey()).message(2, item -> pathItem(item, p.getValue())))));
        w.message(9, defs -> doc.path("definitions").properties().forEach(d ->
                defs.message(1, named -> named.string(1, d.getKey()).message(2, s -> schema(s, d.getValue())))));
        for (JsonNode requirement : doc.path("security")) {
            w.message(12, req -> requirement.properties().forEach(e -> req.message(1, named -> named
                    .string(1, e.getKey()).message(2, array -> e.getValue().forEach(v -> array.string(1, v.asText()))))));
        }
        w.message(13, defs -> doc.path("securityDefinitions").properties().forEach(e ->
                defs.message(1, named -> named.string(1, e.getKey()).message(2, item -> item.message(2, key -> key
                        .string(1, e.getValue().path("type").asText()).string(2, e.getValue().path("name").asText())
                        .string(3, e.getValue().path("in").asText())
                        .string(4, e.getValue().path("description").asText()))))));
        return w.toByteArray();
    }

    private void pathItem(ProtoWriter w, JsonNode item) {
        int[] fields = {2, 3, 4, 5, 6, 7, 8};
        String[] methods = {"get", "put", "post", "delete", "options", "head", "patch"};
        for (int i = 0; i < methods.length; i++) {
            JsonNode op = item.get(methods[i]);
            if (op != null) {
                w.message(fields[i], o -> operation(o, op));
            }
        }
        item.path("parameters").forEach(p -> w.message(9, pi -> parameter(pi, p)));
        extensions(w, 10, item);
    }

    private void operation(ProtoWriter w, JsonNode op) {
        op.path("tags").forEach(t -> w.string(1, t.asText()));
        w.string(3, op.path("description").asText());
        w.string(5, op.path("operationId").asText());
        op.path("produces").forEach(t -> w.string(6, t.asText()));
        op.path("consumes").forEach(t -> w.string(7, t.asText()));
        op.path("parameters").forEach(p -> w.message(8, pi -> parameter(pi, p)));
        w.message(9, responses -> op.path("responses").properties().forEach(r -> responses.message(1, named -> named
                .string(1, r.getKey()).message(2, value -> value.message(1, response -> {
                    response.string(1, r.getValue().path("description").asText());
                    JsonNode schema = r.getValue().get("schema");
                    if (schema != null) {
                        response.message(2, item -> item.message(1, s -> schema(s, schema)));
                    }
                })))));
        op.path("schemes").forEach(s -> w.string(10, s.asText()));
        extensions(w, 13, op);
    }

    /** A ParametersItem: body parameters, or query / path sub-schemas of a non-body parameter. */
    private void parameter(ProtoWriter w, JsonNode p) {
        String in = p.path("in").asText();
        w.message(1, parameter -> {
            if (in.equals("body")) {
                parameter.message(1, body -> {
                    body.string(1, p.path("description").asText()).string(2, p.path("name").asText()).string(3, in)
                            .bool(4, p.path("required").asBoolean());
                    body.message(5, s -> schema(s, p.path("schema")));
                });
                return;
            }
            boolean path = in.equals("path");
            parameter.message(2, nonBody -> nonBody.message(path ? 4 : 3, sub -> {
                sub.bool(1, p.path("required").asBoolean()).string(2, in).string(3, p.path("description").asText())
                        .string(4, p.path("name").asText());
                sub.string(path ? 5 : 6, p.path("type").asText());
                sub.bool(path ? 19 : 20, p.path("uniqueItems").asBoolean());
            }));
        });
    }

    private void schema(ProtoWriter w, JsonNode s) {
        w.string(1, s.path("$ref").isTextual() ? s.get("$ref").asText() : null);
        w.string(2, s.path("format").asText());
        w.string(3, s.path("title").asText());
        w.string(4, s.path("description").asText());
        if (s.has("default")) {
            w.message(5, any -> any.string(2, yaml(s.get("default"))));
        }
        s.path("required").forEach(r -> w.string(19, r.asText()));
        JsonNode additional = s.get("additionalProperties");
        if (additional != null) {
            w.message(21, item -> {
                if (additional.isBoolean()) {
                    item.bool(2, additional.asBoolean());
                } else {
                    item.message(1, a -> schema(a, additional));
                }
            });
        }
        if (s.has("type")) {
            w.message(22, type -> type.string(1, s.get("type").asText()));
        }
        JsonNode items = s.get("items");
        if (items != null) {
            w.message(23, item -> {
                if (items.isArray()) {
                    items.forEach(i -> item.message(1, a -> schema(a, i)));
                } else {
                    item.message(1, a -> schema(a, items));
                }
            });
        }
        s.path("allOf").forEach(a -> w.message(24, x -> schema(x, a)));
        if (s.has("properties")) {
            w.message(25, props -> s.get("properties").properties().forEach(p ->
                    props.message(1, named -> named.string(1, p.getKey()).message(2, x -> schema(x, p.getValue())))));
        }
        if (s.path("discriminator").isTextual()) {
            w.string(26, s.get("discriminator").asText());
        }
        extensions(w, 31, s);
    }

    private void extensions(ProtoWriter w, int field, JsonNode node) {
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (e.getKey().startsWith("x-")) {
                w.message(field, named -> named.string(1, e.getKey()).message(2, any -> any.string(2, yaml(e.getValue()))));
            }
        }
    }

    private String yaml(JsonNode value) {
        return yaml.computeIfAbsent(value, v -> {
            try {
                return Json.yaml().writeValueAsString(v);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
