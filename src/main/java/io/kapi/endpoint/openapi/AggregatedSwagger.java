package io.kapi.endpoint.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Merges aggregated API servers' {@code /openapi/v2} documents into this server's, as kube-aggregator's OpenAPI
 * v2 aggregation does: from the document read for an APIService, the paths of its group, and the definitions
 * and shared parameters they refer to. This server's own paths win; a definition or parameter whose name is
 * taken by a different one is renamed ({@code name_2}, ...) and the references to it with it; one equal to
 * this server's is shared. A document that is not a Swagger object is left out.
 */
final class AggregatedSwagger {

    private static final String DEFINITIONS = "#/definitions/";
    private static final String PARAMETERS = "#/parameters/";

    private AggregatedSwagger() {
    }

    /**
     * @param doc this server's v2 document, changed in place
     * @param externals the aggregated servers' v2 JSON by {@code apis/<group>/<version>}
     * @return {@code doc}
     */
    static ObjectNode merge(ObjectNode doc, Map<String, String> externals) {
        ObjectNode paths = doc.withObject("/paths");
        ObjectNode definitions = doc.withObject("/definitions");
        for (Map.Entry<String, String> e : new TreeMap<>(externals).entrySet()) {
            String[] key = e.getKey().split("/");
            if (key.length != 3 || !key[0].equals("apis")) {
                continue;
            }
            JsonNode external;
            try {
                external = Json.MAPPER.readTree(e.getValue());
            } catch (IOException unreadable) {
                continue;
            }
            if (external instanceof ObjectNode spec && spec.path("paths").isObject()) {
                mergeOne(doc, paths, definitions, spec, "/apis/" + key[1]);
            }
        }
        return doc;
    }

    private static void mergeOne(ObjectNode doc, ObjectNode paths, ObjectNode definitions, ObjectNode spec,
                                 String groupPath) {
        Map<String, JsonNode> taken = new TreeMap<>();
        spec.path("paths").properties().forEach(p -> {
            String path = p.getKey();
            if ((path.equals(groupPath) || path.startsWith(groupPath + "/")) && !paths.has(path)) {
                taken.put(path, p.getValue());
            }
        });
        if (taken.isEmpty()) {
            return;
        }
        Set<String> definitionNames = new LinkedHashSet<>();
        Set<String> parameterNames = new LinkedHashSet<>();
        referenced(taken.values(), spec, definitionNames, parameterNames);
        ObjectNode parameters = parameterNames.isEmpty() ? null : doc.withObject("/parameters");
        Map<String, String> renamed = new HashMap<>();
        renames(definitionNames, spec.path("definitions"), definitions, DEFINITIONS, renamed);
        if (parameters != null) {
            renames(parameterNames, spec.path("parameters"), parameters, PARAMETERS, renamed);
        }
        taken.forEach((path, item) -> paths.set(path, rewritten(item, renamed)));
        copy(definitionNames, spec.path("definitions"), definitions, DEFINITIONS, renamed);
        if (parameters != null) {
            copy(parameterNames, spec.path("parameters"), parameters, PARAMETERS, renamed);
        }
    }

    /** The definitions and parameters {@code roots} refer to, directly or through definitions. */
    private static void referenced(Iterable<JsonNode> roots, ObjectNode spec, Set<String> definitions,
                                   Set<String> parameters) {
        Deque<JsonNode> todo = new ArrayDeque<>();
        roots.forEach(todo::push);
        while (!todo.isEmpty()) {
            JsonNode node = todo.pop();
            if (node.isObject()) {
                JsonNode ref = node.get("$ref");
                if (ref != null && ref.isTextual()) {
                    String r = ref.asText();
                    if (r.startsWith(DEFINITIONS) && definitions.add(r.substring(DEFINITIONS.length()))) {
                        todo.push(spec.path("definitions").path(r.substring(DEFINITIONS.length())));
                    } else if (r.startsWith(PARAMETERS) && parameters.add(r.substring(PARAMETERS.length()))) {
                        todo.push(spec.path("parameters").path(r.substring(PARAMETERS.length())));
                    }
                }
                node.forEach(todo::push);
            } else if (node.isArray()) {
                node.forEach(todo::push);
            }
        }
    }

    /** Picks a free name for each of {@code names} whose name is taken here by something different. */
    private static void renames(Set<String> names, JsonNode theirs, ObjectNode ours, String prefix,
                                Map<String, String> renamed) {
        for (String name : names) {
            JsonNode existing = ours.get(name);
            if (existing == null || existing.equals(theirs.path(name))) {
                continue;
            }
            int n = 2;
            while (ours.has(name + "_" + n) && !ours.get(name + "_" + n).equals(theirs.path(name))) {
                n++;
            }
            renamed.put(prefix + name, prefix + name + "_" + n);
        }
    }

    private static void copy(Set<String> names, JsonNode theirs, ObjectNode ours, String prefix,
                             Map<String, String> renamed) {
        for (String name : names) {
            JsonNode value = theirs.get(name);
            if (value == null) {
                continue; // a dangling reference stays dangling, as the aggregated server wrote it
            }
            String target = renamed.getOrDefault(prefix + name, prefix + name).substring(prefix.length());
            if (!ours.has(target)) {
                ours.set(target, rewritten(value, renamed));
            }
        }
    }

    /** A copy of {@code node} with its references renamed. */
    private static JsonNode rewritten(JsonNode node, Map<String, String> renamed) {
        JsonNode copy = node.deepCopy();
        if (renamed.isEmpty()) {
            return copy;
        }
        Deque<JsonNode> todo = new ArrayDeque<>();
        todo.push(copy);
        while (!todo.isEmpty()) {
            JsonNode n = todo.pop();
            if (n instanceof ObjectNode o) {
                JsonNode ref = o.get("$ref");
                if (ref != null && ref.isTextual() && renamed.containsKey(ref.asText())) {
                    o.put("$ref", renamed.get(ref.asText()));
                }
                o.forEach(todo::push);
            } else if (n instanceof ArrayNode a) {
                a.forEach(todo::push);
            }
        }
        return copy;
    }
}
