package io.kapi.machinery.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.schema.Schemas;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every JSON property of every built-in kind's schema (Kubernetes 1.34) is reachable from a proto field
 * under the JSON name {@link Fields} gives it: a wrong name or a missed inline would lose data silently.
 */
class FieldsMatchSchemasTest {

    private final Schemas schemas = Schemas.load();
    private final Set<String> visited = new HashSet<>();
    private final Set<String> missing = new TreeSet<>();
    private int kinds;

    @Test
    @DisplayName("every schema property of every built-in kind has a proto field of that JSON name")
    void everyPropertyHasAField() {
        for (Map.Entry<String, ObjectNode> e : schemas.definitions().entrySet()) {
            if (!Schemas.isTopLevel(e.getValue())) {
                continue;
            }
            Optional<GroupVersionKind> gvk = Schemas.gvkOf(e.getKey(), e.getValue());
            Optional<Descriptor> message = gvk.flatMap(KindIndex.builtIn()::find);
            if (message.isPresent() && !message.get().getFile().getPackage().endsWith("meta.v1")) {
                kinds++;
                walk(e.getKey(), e.getValue(), message.get());
            }
        }
        assertTrue(kinds > 200, "kinds checked: " + kinds);
        assertEquals(Set.of(), missing);
    }

    private void walk(String name, JsonNode def, Descriptor message) {
        if (!visited.add(name) || Special.of(message) != null) {
            return;
        }
        Map<String, FieldDescriptor> byJson = new java.util.HashMap<>();
        collect(message, byJson);
        for (Map.Entry<String, JsonNode> p : def.path("properties").properties()) {
            if (List.of("apiVersion", "kind").contains(p.getKey())) {
                continue;
            }
            FieldDescriptor fd = byJson.get(p.getKey());
            if (fd == null) {
                missing.add(name + "." + p.getKey());
                continue;
            }
            String ref = ref(p.getValue());
            if (ref != null && fd.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                Descriptor target = fd.isMapField() ? fd.getMessageType().findFieldByNumber(2).getMessageType()
                        : fd.getMessageType();
                if (target != null) {
                    walk(ref, schemas.definition(ref), target);
                }
            }
        }
    }

    private static void collect(Descriptor message, Map<String, FieldDescriptor> into) {
        for (Fields.Field f : Fields.of(message).all()) {
            if (f.inline()) {
                collect(f.descriptor().getMessageType(), into);
            } else {
                into.put(f.jsonName(), f.descriptor());
            }
        }
    }

    /** The definition a property refers to, directly, through array items or map values. */
    private static String ref(JsonNode property) {
        for (JsonNode n : List.of(property, property.path("items"), property.path("additionalProperties"))) {
            String ref = n.path("$ref").asText("");
            if (ref.startsWith("#/definitions/")) {
                return ref.substring("#/definitions/".length());
            }
        }
        return null;
    }
}
