package io.kapi.endpoint.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.schema.Schemas;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The Swagger 2.0 definitions as kube-apiserver publishes them, made from {@link Schemas}: deep
 * copies without fabric8's {@code x-fabric8-info}, with {@code x-kubernetes-group-version-kind} on
 * every top-level kind (what {@code kubectl explain} and kubectl's patch and validation code look
 * kinds up by), and the {@code x-kubernetes-patch-*} / {@code x-kubernetes-list-*} extensions kept.
 * Definitions with a reference that resolves nowhere are left out.
 */
final class Definitions {

    static final String V2_REF = "#/definitions/";
    private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
    /** Options types kube-apiserver registers in every group-version it serves. */
    private static final Set<String> EVERY_GROUP = Set.of(META + "DeleteOptions", META + "WatchEvent");

    private final Map<String, ObjectNode> definitions;
    private final Map<GroupVersionKind, String> byKind = new HashMap<>();

    Definitions(Schemas schemas, Collection<GroupVersion> served) {
        Map<String, ObjectNode> defs = new TreeMap<>();
        for (Map.Entry<String, ObjectNode> e : schemas.definitions().entrySet()) {
            ObjectNode def = e.getValue().deepCopy();
            def.remove("x-fabric8-info");
            defs.put(e.getKey(), def);
        }
        defs.keySet().removeIf(name -> !resolves(defs.get(name), defs));
        for (Map.Entry<String, ObjectNode> e : schemas.definitions().entrySet()) {
            ObjectNode def = defs.get(e.getKey());
            if (def == null || !(Schemas.isTopLevel(def) || EVERY_GROUP.contains(e.getKey()))) {
                continue;
            }
            Schemas.gvkOf(e.getKey(), e.getValue()).ifPresent(gvk -> mark(e.getKey(), def, gvk, served));
        }
        this.definitions = defs;
    }

    private void mark(String name, ObjectNode def, GroupVersionKind gvk, Collection<GroupVersion> served) {
        if (name.startsWith(META)) {
            gvk = new GroupVersionKind("", "v1", gvk.kind());
        }
        ArrayNode markers = def.putArray("x-kubernetes-group-version-kind");
        marker(markers, gvk);
        byKind.putIfAbsent(gvk, name);
        if (EVERY_GROUP.contains(name)) {
            for (GroupVersion gv : served) {
                if (!gv.group().isEmpty()) {
                    marker(markers, new GroupVersionKind(gv.group(), gv.version(), gvk.kind()));
                }
            }
        }
    }

    private static void marker(ArrayNode markers, GroupVersionKind gvk) {
        ObjectNode m = markers.addObject();
        m.put("group", gvk.group());
        m.put("kind", gvk.kind());
        m.put("version", gvk.version());
    }

    /** The definition of a kind, e.g. {@code io.k8s.api.apps.v1.Deployment}, or null. */
    String nameOf(GroupVersionKind gvk) {
        return byKind.get(gvk);
    }

    ObjectNode get(String name) {
        return definitions.get(name);
    }

    /** {@code roots} and every definition they reach through references, sorted by name. */
    Set<String> closure(Collection<String> roots) {
        Set<String> seen = new TreeSet<>();
        Deque<String> todo = new ArrayDeque<>(roots);
        while (!todo.isEmpty()) {
            String name = todo.pop();
            ObjectNode def = definitions.get(name);
            if (def != null && seen.add(name)) {
                refs(def, todo);
            }
        }
        return seen;
    }

    /** Every definition name referenced anywhere below {@code node}. */
    static void refs(JsonNode node, Collection<String> into) {
        if (node.isObject()) {
            JsonNode ref = node.get("$ref");
            if (ref != null && ref.isTextual() && ref.asText().startsWith(V2_REF)) {
                into.add(ref.asText().substring(V2_REF.length()));
            }
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                if (!e.getKey().equals("$ref")) {
                    refs(e.getValue(), into);
                }
            }
        } else if (node.isArray()) {
            node.forEach(n -> refs(n, into));
        }
    }

    private static boolean resolves(JsonNode def, Map<String, ObjectNode> defs) {
        List<String> found = new ArrayList<>();
        refs(def, found);
        return defs.keySet().containsAll(found);
    }

    /** A ref object for definition {@code name} in Swagger 2.0 form. */
    static ObjectNode ref(String name) {
        ObjectNode ref = Json.object();
        ref.put("$ref", V2_REF + name);
        return ref;
    }
}
