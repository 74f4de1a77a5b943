package io.kapi.endpoint.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.openapi.Operation.Param;
import io.kapi.endpoint.openapi.Operation.PathItem;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Renders planned paths and definitions as the Swagger 2.0 document of {@code /openapi/v2}. */
final class SwaggerWriter {

    private SwaggerWriter() {
    }

    static ObjectNode document(String version, List<PathItem> items, Definitions definitions,
                               Collection<String> names) {
        ObjectNode doc = Json.object();
        doc.put("swagger", "2.0");
        ObjectNode info = doc.putObject("info");
        info.put("title", "Kubernetes");
        info.put("version", version);
        ObjectNode paths = doc.putObject("paths");
        for (PathItem item : items) {
            paths.set(item.path(), pathItem(item));
        }
        ObjectNode defs = doc.putObject("definitions");
        names.forEach(n -> defs.set(n, definitions.get(n)));
        ObjectNode bearer = doc.putObject("securityDefinitions").putObject("BearerToken");
        bearer.put("description", "Bearer Token authentication");
        bearer.put("type", "apiKey");
        bearer.put("name", "authorization");
        bearer.put("in", "header");
        doc.putArray("security").addObject().putArray("BearerToken");
        return doc;
    }

    private static ObjectNode pathItem(PathItem item) {
        return item.toJson(SwaggerWriter::operation, SwaggerWriter::param);
    }

    private static ObjectNode operation(Operation op) {
        ObjectNode node = Json.object();
        node.put("description", op.description());
        strings(node.putArray("consumes"), op.consumes());
        strings(node.putArray("produces"), op.produces());
        node.putArray("schemes").add("https");
        node.putArray("tags").add(op.tag());
        node.put("operationId", op.operationId());
        if (op.body() != null || !op.parameters().isEmpty()) {
            ArrayNode params = node.putArray("parameters");
            if (op.body() != null) {
                ObjectNode body = params.addObject();
                body.put("name", "body");
                body.put("in", "body");
                if (op.bodyRequired()) {
                    body.put("required", true);
                }
                body.set("schema", Definitions.ref(op.body()));
            }
            op.parameters().forEach(p -> params.add(param(p)));
        }
        ObjectNode responses = node.putObject("responses");
        for (Map.Entry<String, String> r : op.responses().entrySet()) {
            ObjectNode response = responses.putObject(r.getKey());
            response.put("description", describe(r.getKey()));
            response.set("schema", r.getValue() == null ? Json.object().put("type", "string")
                    : Definitions.ref(r.getValue()));
        }
        responses.putObject("401").put("description", "Unauthorized");
        if (op.action() != null) {
            node.put("x-kubernetes-action", op.action());
            node.set("x-kubernetes-group-version-kind", gvk(op.gvk()));
        }
        return node;
    }

    static ObjectNode gvk(GroupVersionKind gvk) {
        ObjectNode node = Json.object();
        node.put("group", gvk.group());
        node.put("kind", gvk.kind());
        node.put("version", gvk.version());
        return node;
    }

    private static ObjectNode param(Param p) {
        ObjectNode node = Json.object();
        node.put("uniqueItems", true);
        node.put("type", p.type());
        node.put("description", p.description());
        node.put("name", p.name());
        node.put("in", p.in());
        if (p.required()) {
            node.put("required", true);
        }
        return node;
    }

    static String describe(String code) {
        return switch (code) {
            case "201" -> "Created";
            case "202" -> "Accepted";
            default -> "OK";
        };
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }
}
