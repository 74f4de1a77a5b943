package io.kapi.admission.plugin.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GroupVersionResource;
import java.util.Map;
import java.util.Optional;

/**
 * The workload resources whose pod template PodSecurity checks (warn and audit only), and where each keeps
 * it, as kube's {@code DefaultPodSpecExtractor}.
 */
public final class PodTemplates {

    private static final Map<String, String> TEMPLATE_PATHS = Map.of(
            "/replicationcontrollers", "/spec/template",
            "/podtemplates", "/template",
            "apps/replicasets", "/spec/template",
            "apps/deployments", "/spec/template",
            "apps/statefulsets", "/spec/template",
            "apps/daemonsets", "/spec/template",
            "batch/jobs", "/spec/template",
            "batch/cronjobs", "/spec/jobTemplate/spec/template");

    private PodTemplates() {
    }

    /** Whether objects of the resource hold a pod template. */
    public static boolean holdsTemplate(GroupVersionResource resource) {
        return TEMPLATE_PATHS.containsKey(resource.group() + "/" + resource.resource());
    }

    /** The object's pod template, empty when it has none (an optional template left out). */
    public static Optional<PodView> template(GroupVersionResource resource, JsonNode object) {
        String path = TEMPLATE_PATHS.get(resource.group() + "/" + resource.resource());
        JsonNode template = path == null ? null : object.at(path);
        if (template == null || !template.isObject()) {
            return Optional.empty();
        }
        return Optional.of(new PodView(template.path("metadata"), template.path("spec")));
    }
}
