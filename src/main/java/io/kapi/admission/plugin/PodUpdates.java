package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * kube PodSecurity's {@code isSignificantPodUpdate}: a pod update is evaluated again only when it adds or
 * removes containers, adds an ephemeral container, or changes an image or a container's seccomp annotation
 * (the rest of a pod's security-relevant spec is immutable).
 */
final class PodUpdates {

    private static final String SECCOMP_CONTAINER = "container.seccomp.security.alpha.kubernetes.io/";

    private PodUpdates() {
    }

    static boolean significant(JsonNode pod, JsonNode old) {
        JsonNode spec = pod.path("spec");
        JsonNode oldSpec = old.path("spec");
        for (String field : new String[] {"containers", "initContainers"}) {
            if (spec.path(field).size() != oldSpec.path(field).size()) {
                return true;
            }
            for (int i = 0; i < spec.path(field).size(); i++) {
                if (changed(spec.path(field).get(i), oldSpec.path(field).get(i), pod, old)) {
                    return true;
                }
            }
        }
        for (JsonNode c : spec.path("ephemeralContainers")) {
            JsonNode before = null;
            for (JsonNode oc : oldSpec.path("ephemeralContainers")) {
                if (oc.path("name").asText("").equals(c.path("name").asText(""))) {
                    before = oc;
                    break;
                }
            }
            if (before == null || changed(c, before, pod, old)) {
                return true;
            }
        }
        return false;
    }

    private static boolean changed(JsonNode c, JsonNode before, JsonNode pod, JsonNode old) {
        if (!c.path("image").asText("").equals(before.path("image").asText(""))) {
            return true;
        }
        String key = SECCOMP_CONTAINER + c.path("name").asText("");
        return !Objects.equals(pod.path("metadata").path("annotations").get(key),
                old.path("metadata").path("annotations").get(key));
    }
}
