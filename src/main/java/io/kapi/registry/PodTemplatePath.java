package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Where the objects of a workload kind hold the pod template they make pods from, as kube's
 * {@code DefaultPodSpecExtractor} (pod security admission) knows it: {@code spec.template} for most,
 * {@code spec.jobTemplate.spec.template} for CronJobs, {@code template} for PodTemplates.
 *
 * @param fields the fields leading to the template from the object's root
 */
public record PodTemplatePath(List<String> fields) {

    public PodTemplatePath {
        fields = List.copyOf(fields);
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("a pod template path names at least one field");
        }
    }

    public static PodTemplatePath of(String... fields) {
        return new PodTemplatePath(List.of(fields));
    }

    /** The template {@code object} holds: the node at the path, a missing node when a field on the way is absent. */
    public JsonNode in(JsonNode object) {
        JsonNode node = object;
        for (String field : fields) {
            node = node.path(field);
        }
        return node;
    }
}
