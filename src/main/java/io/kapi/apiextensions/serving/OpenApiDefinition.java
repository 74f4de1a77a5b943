package io.kapi.apiextensions.serving;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The OpenAPI (Swagger 2.0 style) definition of a custom resource version, as kube's CRD OpenAPI
 * builder publishes it: the version's schema with {@code apiVersion}, {@code kind} and {@code metadata}
 * (a reference to ObjectMeta) filled in, tagged with its group-version-kind, named after the reversed
 * group ({@code com.example.stable.v1.CronTab}).
 */
final class OpenApiDefinition {

    private static final String OBJECT_META = "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

    private OpenApiDefinition() {
    }

    static String name(GroupVersionKind gvk) {
        List<String> parts = new ArrayList<>(List.of(gvk.group().split("\\.")));
        Collections.reverse(parts);
        return String.join(".", parts) + "." + gvk.version() + "." + gvk.kind();
    }

    static ObjectNode of(GroupVersionKind gvk, JsonNode schema) {
        ObjectNode def = schema instanceof ObjectNode o ? o.deepCopy() : Json.object();
        def.put("type", "object");
        ObjectNode props = def.with("properties");
        props.putObject("apiVersion").put("type", "string").put("description", "APIVersion defines the versioned "
                + "schema of this representation of an object. Servers should convert recognized schemas to the "
                + "latest internal value, and may reject unrecognized values.");
        props.putObject("kind").put("type", "string").put("description", "Kind is a string value representing "
                + "the REST resource this object represents. Servers may infer this from the endpoint the client "
                + "submits requests to. Cannot be updated. In CamelCase.");
        props.putObject("metadata").put("$ref", OBJECT_META);
        def.putArray("x-kubernetes-group-version-kind").addObject().put("group", gvk.group())
                .put("kind", gvk.kind()).put("version", gvk.version());
        return def;
    }
}
