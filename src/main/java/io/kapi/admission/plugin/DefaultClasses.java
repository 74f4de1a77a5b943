package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The default class among StorageClasses or IngressClasses: those annotated {@code "true"} by one of the
 * default-class annotations; when several are, the newest (then the first by name), as kube's
 * DefaultStorageClass and DefaultIngressClass choose since 1.26.
 */
final class DefaultClasses {

    private DefaultClasses() {
    }

    static Optional<String> newest(List<ObjectNode> classes, List<String> annotations) {
        Comparator<ObjectNode> newestFirst = Comparator.comparing(DefaultClasses::created).reversed();
        return classes.stream()
                .filter(c -> annotations.stream().anyMatch(a ->
                        "true".equals(c.path("metadata").path("annotations").path(a).asText(""))))
                .min(newestFirst.thenComparing(c -> c.path("metadata").path("name").asText("")))
                .map(c -> c.path("metadata").path("name").asText(""));
    }

    /** RFC 3339 UTC timestamps of one format sort as text. */
    private static String created(ObjectNode object) {
        return object.path("metadata").path("creationTimestamp").asText("");
    }
}
