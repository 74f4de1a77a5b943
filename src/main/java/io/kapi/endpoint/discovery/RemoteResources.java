package io.kapi.endpoint.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An aggregated API server's {@code APIResourceList} as aggregated discovery lists it (what kube's
 * discovery manager does when a backend has no aggregated document): a resource per entry without a slash,
 * its subresources from the {@code <resource>/<subresource>} entries.
 */
final class RemoteResources {

    private RemoteResources() {
    }

    /** Adds to {@code out} the {@code APIResourceDiscovery} entries of {@code resourceList}. */
    static void aggregated(JsonNode resourceList, ArrayNode out) {
        for (JsonNode r : resourceList.path("resources")) {
            String name = r.path("name").asText("");
            if (name.isEmpty() || name.contains("/")) {
                continue;
            }
            ObjectNode entry = out.addObject();
            entry.put("resource", name);
            kind(entry.putObject("responseKind"), r);
            entry.put("scope", r.path("namespaced").asBoolean() ? "Namespaced" : "Cluster");
            entry.put("singularResource", r.path("singularName").asText(""));
            entry.set("verbs", strings(r.path("verbs")));
            copyNonEmpty(r, entry, "shortNames");
            copyNonEmpty(r, entry, "categories");
            ArrayNode subresources = null;
            for (JsonNode s : resourceList.path("resources")) {
                String sub = s.path("name").asText("");
                if (sub.startsWith(name + "/")) {
                    if (subresources == null) {
                        subresources = entry.putArray("subresources");
                    }
                    ObjectNode subEntry = subresources.addObject();
                    subEntry.put("subresource", sub.substring(name.length() + 1));
                    kind(subEntry.putObject("responseKind"), s);
                    subEntry.set("verbs", strings(s.path("verbs")));
                }
            }
        }
    }

    private static void kind(ObjectNode node, JsonNode resource) {
        node.put("group", resource.path("group").asText(""));
        node.put("version", resource.path("version").asText(""));
        node.put("kind", resource.path("kind").asText(""));
    }

    private static ArrayNode strings(JsonNode values) {
        ArrayNode array = io.kapi.machinery.Json.MAPPER.createArrayNode();
        for (JsonNode v : values) {
            if (v.isTextual()) {
                array.add(v.asText());
            }
        }
        return array;
    }

    private static void copyNonEmpty(JsonNode from, ObjectNode to, String field) {
        if (from.path(field).isArray() && !from.path(field).isEmpty()) {
            to.set(field, strings(from.path(field)));
        }
    }
}
