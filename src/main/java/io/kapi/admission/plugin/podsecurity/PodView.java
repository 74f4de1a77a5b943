package io.kapi.admission.plugin.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The pod metadata and spec the checks read (a pod's own, or a workload's pod template), as JSON.
 *
 * @param metadata the object metadata (annotations), a missing node when absent
 * @param spec the pod spec, a missing node when absent
 */
public record PodView(JsonNode metadata, JsonNode spec) {

    public PodView {
        metadata = metadata == null ? MissingNode.getInstance() : metadata;
        spec = spec == null ? MissingNode.getInstance() : spec;
    }

    /** The pod a workload's pod template makes, empty when it has none (an optional template left out). */
    public static Optional<PodView> ofTemplate(JsonNode template) {
        if (template == null || !template.isObject()) {
            return Optional.empty();
        }
        return Optional.of(new PodView(template.path("metadata"), template.path("spec")));
    }

    /** The init containers, containers and ephemeral containers, in that order (kube's visitor). */
    List<JsonNode> containers() {
        List<JsonNode> all = new ArrayList<>();
        for (String field : List.of("initContainers", "containers", "ephemeralContainers")) {
            spec.path(field).forEach(all::add);
        }
        return all;
    }

    static String name(JsonNode container) {
        return container.path("name").asText("");
    }

    /** The pod-level security context (a missing node when unset). */
    JsonNode podSecurity() {
        return spec.path("securityContext");
    }

    String annotation(String key) {
        JsonNode v = metadata.path("annotations").get(key);
        return v == null || !v.isTextual() ? null : v.asText();
    }

    boolean windows() {
        return "windows".equals(spec.path("os").path("name").asText(""));
    }

    /** Whether {@code node.field} is the JSON boolean true. */
    static boolean isTrue(JsonNode node, String field) {
        return node.path(field).asBoolean(false) && node.path(field).isBoolean();
    }

    /** Whether {@code node.field} is the JSON boolean false. */
    static boolean isFalse(JsonNode node, String field) {
        return node.path(field).isBoolean() && !node.path(field).asBoolean();
    }

    static boolean has(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && !v.isNull();
    }
}
