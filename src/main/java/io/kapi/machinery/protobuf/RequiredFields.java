package io.kapi.machinery.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Descriptors.Descriptor;
import io.kapi.machinery.schema.Schemas;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The fields of a message whose zero value Go's JSON writes: those without {@code omitempty}, which kube's
 * OpenAPI lists as {@code required} (its generator marks a field optional when it has {@code omitempty} or
 * {@code +optional}). Read from the built-in schemas once per message, on the first zero value met.
 */
final class RequiredFields {

    private final Function<String, JsonNode> definitions;
    private final ConcurrentHashMap<Descriptor, Set<String>> byMessage = new ConcurrentHashMap<>();

    /** @param definitions the schema definition of a name such as {@code io.k8s.api.core.v1.Pod}, or null */
    RequiredFields(Function<String, JsonNode> definitions) {
        this.definitions = definitions;
    }

    /** The fields of the built-in schemas. */
    static RequiredFields builtIn() {
        return new RequiredFields(name -> Schemas.builtin().definition(name));
    }

    /** Whether Go writes {@code jsonName} of {@code message} even when it is zero. */
    boolean contains(Descriptor message, String jsonName) {
        return byMessage.computeIfAbsent(message, this::read).contains(jsonName);
    }

    private Set<String> read(Descriptor message) {
        // k8s.io.api.core.v1.Pod is io.k8s.api.core.v1.Pod; k8s.io.apiextensions_apiserver... has a dash there
        String full = message.getFullName();
        if (!full.startsWith("k8s.io.")) {
            return Set.of();
        }
        JsonNode def = definitions.apply("io.k8s." + full.substring("k8s.io.".length()).replace('_', '-'));
        if (def == null) {
            return Set.of();
        }
        Set<String> out = new HashSet<>();
        def.path("required").forEach(n -> out.add(n.asText()));
        return Set.copyOf(out);
    }
}
