package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.MutatingPlugin;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube-apiserver's {@code AlwaysPullImages} (off by default): every container of a pod (init, regular and
 * ephemeral; on create, update and the {@code ephemeralcontainers} subresource) gets
 * {@code imagePullPolicy: Always}, so that a node pulls, and checks access to, each image; validation
 * refuses a pod whose containers would not, unless an update brings no new image.
 */
public final class AlwaysPullImages implements MutatingPlugin, ValidatingPlugin {

    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    private static final List<String> KINDS = List.of("initContainers", "containers", "ephemeralContainers");

    @Override
    public String name() {
        return "AlwaysPullImages";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE || operation == Operation.UPDATE;
    }

    @Override
    public void admit(Attributes a) {
        if (ignored(a)) {
            return;
        }
        for (String kind : KINDS) {
            for (JsonNode c : a.object().path("spec").path(kind)) {
                if (c instanceof ObjectNode container) {
                    container.put("imagePullPolicy", "Always");
                }
            }
        }
    }

    @Override
    public void validate(Attributes a) {
        if (ignored(a) || (a.operation() == Operation.UPDATE && !newImages(a))) {
            return;
        }
        for (String kind : KINDS) {
            int i = 0;
            for (JsonNode c : a.object().path("spec").path(kind)) {
                String policy = c.path("imagePullPolicy").asText("");
                if (!policy.equals("Always")) {
                    throw ApiException.forbidden(PODS, a.target().name(), "spec." + kind + "[" + i
                            + "].imagePullPolicy: Unsupported value: \"" + policy + "\": supported values: \"Always\"",
                            List.of());
                }
                i++;
            }
        }
    }

    private static boolean ignored(Attributes a) {
        Attributes.Target t = a.target();
        return a.object() == null || !t.resource().group().isEmpty() || !t.resource().resource().equals("pods")
                || !(t.subresource().isEmpty() || t.subresource().equals("ephemeralcontainers"));
    }

    /** Whether an update names an image the old pod did not have. */
    private static boolean newImages(Attributes a) {
        if (a.oldObject() == null) {
            return true;
        }
        Set<String> old = images(a.oldObject());
        return !old.containsAll(images(a.object()));
    }

    private static Set<String> images(ObjectNode pod) {
        Set<String> images = new HashSet<>();
        for (String kind : KINDS) {
            pod.path("spec").path(kind).forEach(c -> images.add(c.path("image").asText("")));
        }
        return images;
    }
}
