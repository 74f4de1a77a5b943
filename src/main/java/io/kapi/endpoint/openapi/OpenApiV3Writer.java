package io.kapi.endpoint.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.openapi.Operation.Param;
import io.kapi.endpoint.openapi.Operation.PathItem;
import io.kapi.machinery.Json;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Renders one group-version's paths and the definitions they reach as the OpenAPI 3.0 document of
 * {@code /openapi/v3/apis/{group}/{version}}: references point to {@code #/components/schemas/}, and a
 * reference with siblings (description, default) is wrapped in {@code allOf}, as kube-openapi does.
 */
final class OpenApiV3Writer {

    static final String V3_REF = "#/components/schemas/";
    private static final String INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
    private static final String QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";

    private OpenApiV3Writer() {
    }

    /**
     * @param schemas the OpenAPI 3.0 form of each definition, shared between documents (built once by
     *                {@link #schema}); only those in {@code names} are included
     */
    static ObjectNode document(List<PathItem> items, Map<String, JsonNode> schemas, Collection<String> names) {
        ObjectNode doc = Json.object();
        ObjectNode components = doc.putObject("components");
        ObjectNode out = components.putObject("schemas");
        for (String name : names) {
            out.set(name, schemas.get(name));
        }
        ObjectNode bearer = components.putObject("securitySchemes").putObject("BearerToken");
        bearer.put("description", "Bearer Token authentication");
        bearer.put("in", "header");
        bearer.put("name", "authorization");
        bearer.put("type", "apiKey");
        ObjectNode info = doc.putObject("info");
        info.put("title", "Kubernetes");
        info.put("version", "unversioned");
        doc.put("openapi", "3.0.0");
        ObjectNode paths = doc.putObject("paths");
        for (PathItem item : items) {
            paths.set(item.path(), pathItem(item));
        }
        return doc;
    }

    /** The OpenAPI 3.0 form of definition {@code name}. */
    static JsonNode schema(String name, ObjectNode def) {
        ObjectNode converted = (ObjectNode) convert(def);
        if (name.equals(INT_OR_STRING) || name.equals(QUANTITY)) {
            converted.remove("type");
            ArrayNode oneOf = converted.putArray("oneOf");
            if (name.equals(INT_OR_STRING)) {
                oneOf.addObject().put("type", "integer");
                oneOf.addObject().put("type", "string");
            } else {
                oneOf.addObject().put("type", "string");
                oneOf.addObject().put("type", "number");
            }
        }
        return converted;
    }

    /** A deep copy of a Swagger 2.0 schema in OpenAPI 3.0 form. */
    static JsonNode convert(JsonNode node) {
        if (node.isArray()) {
            ArrayNode out = Json.MAPPER.createArrayNode();
            node.forEach(n -> out.add(convert(n)));
            return out;
        }
        if (!node.isObject()) {
            return node;
        }
        JsonNode ref = node.get("$ref");
        if (ref != null && ref.isTextual()) {
            ObjectNode target = Json.object().put("$ref", v3Ref(ref.asText()));
            if (node.size() == 1) {
                return target;
            }
            ObjectNode out = Json.object();
            out.putArray("allOf").add(target);
            node.properties().forEach(e -> {
                if (!e.getKey().equals("$ref")) {
                    out.set(e.getKey(), convert(e.getValue()));
                }
            });
            return out;
        }
        ObjectNode out = Json.object();
        node.properties().forEach(e -> out.set(e.getKey(), convert(e.getValue())));
        return out;
    }

    private static String v3Ref(String v2) {
        return v2.startsWith(Definitions.V2_REF) ? V3_REF + v2.substring(Definitions.V2_REF.length()) : v2;
    }

    private static ObjectNode pathItem(PathItem item) {
        return item.toJson(OpenApiV3Writer::operation, OpenApiV3Writer::param);
    }

    private static ObjectNode operation(Operation op) {
        ObjectNode node = Json.object();
        node.put("description", op.description());
        node.put("operationId", op.operationId());
        if (!op.parameters().isEmpty()) {
            ArrayNode params = node.putArray("parameters");
            op.parameters().forEach(p -> params.add(param(p)));
        }
        if (op.body() != null) {
            ObjectNode body = node.putObject("requestBody");
            ObjectNode content = body.putObject("content");
            for (String type : op.consumes().equals(PathPlanner.ANY) ? PathPlanner.OBJECT_TYPES : op.consumes()) {
                content.putObject(type).set("schema", refTo(op.body()));
            }
            if (op.bodyRequired()) {
                body.put("required", true);
            }
        }
        ObjectNode responses = node.putObject("responses");
        for (Map.Entry<String, String> r : op.responses().entrySet()) {
            ObjectNode response = responses.putObject(r.getKey());
            ObjectNode content = response.putObject("content");
            for (String type : op.produces()) {
                content.putObject(type).set("schema",
                        r.getValue() == null ? Json.object().put("type", "string") : refTo(r.getValue()));
            }
            response.put("description", SwaggerWriter.describe(r.getKey()));
        }
        responses.putObject("401").put("description", "Unauthorized");
        node.putArray("tags").add(op.tag());
        if (op.action() != null) {
            node.put("x-kubernetes-action", op.action());
            node.set("x-kubernetes-group-version-kind", SwaggerWriter.gvk(op.gvk()));
        }
        return node;
    }

    private static ObjectNode refTo(String name) {
        return Json.object().put("$ref", V3_REF + name);
    }

    private static ObjectNode param(Param p) {
        ObjectNode node = Json.object();
        node.put("description", p.description());
        node.put("in", p.in());
        node.put("name", p.name());
        if (p.required()) {
            node.put("required", true);
        }
        ObjectNode schema = node.putObject("schema");
        schema.put("type", p.type());
        schema.put("uniqueItems", true);
        return node;
    }
}
