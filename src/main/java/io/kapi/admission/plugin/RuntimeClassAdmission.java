package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.MutatingPlugin;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.quantity.Quantity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube-apiserver's default-on {@code RuntimeClass}: a new pod naming a {@code runtimeClassName} that does not
 * exist is Forbidden; otherwise the class's {@code overhead.podFixed} becomes the pod's {@code spec.overhead}
 * (a different one is refused) and its {@code scheduling} node selector and tolerations are merged into the
 * pod's (a contradicting selector value is refused). An overhead without a class that defines one is refused.
 */
public record RuntimeClassAdmission(ObjectLookup lookup) implements MutatingPlugin, ValidatingPlugin {

    static final GroupVersionResource RUNTIME_CLASSES = new GroupVersionResource("node.k8s.io", "v1", "runtimeclasses");
    private static final String MISMATCH = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";

    @Override
    public String name() {
        return "RuntimeClass";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void admit(Attributes a) {
        if (!a.isMain("", "pods") || a.object() == null) {
            return;
        }
        Optional<ObjectNode> rc = runtimeClass(a);
        if (rc.isEmpty()) {
            return;
        }
        ObjectNode spec = a.object().get("spec") instanceof ObjectNode s ? s : a.object().putObject("spec");
        JsonNode fixed = rc.get().path("overhead").get("podFixed");
        if (rc.get().path("overhead").isObject() && fixed != null) {
            if (!spec.path("overhead").isEmpty() && !sameResources(fixed, spec.path("overhead"))) {
                throw a.forbidden(MISMATCH);
            }
            spec.set("overhead", fixed.deepCopy());
        }
        JsonNode scheduling = rc.get().path("scheduling");
        if (scheduling.isObject()) {
            mergeNodeSelector(a, spec, scheduling.path("nodeSelector"));
            mergeTolerations(spec, scheduling.path("tolerations"));
        }
    }

    @Override
    public void validate(Attributes a) {
        if (!a.isMain("", "pods") || a.object() == null) {
            return;
        }
        Optional<ObjectNode> rc = runtimeClass(a);
        JsonNode overhead = a.object().path("spec").path("overhead");
        if (overhead.isEmpty()) {
            return;
        }
        JsonNode fixed = rc.map(r -> r.path("overhead").get("podFixed")).orElse(null);
        if (fixed == null) {
            throw a.forbidden("pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead");
        }
        if (!sameResources(fixed, overhead)) {
            throw a.forbidden(MISMATCH);
        }
    }

    private Optional<ObjectNode> runtimeClass(Attributes a) {
        JsonNode name = a.object().path("spec").get("runtimeClassName");
        if (name == null || !name.isTextual()) {
            return Optional.empty();
        }
        Optional<ObjectNode> rc = lookup.get(RUNTIME_CLASSES, "", name.asText())
                .filter(r -> !r.path("metadata").hasNonNull("deletionTimestamp"));
        if (rc.isEmpty()) {
            throw a.forbidden("pod rejected: RuntimeClass \"%s\" not found".formatted(name.asText()));
        }
        return rc;
    }

    private static void mergeNodeSelector(Attributes a, ObjectNode spec, JsonNode classSelector) {
        if (!classSelector.isObject() || classSelector.isEmpty()) {
            return;
        }
        ObjectNode selector = spec.get("nodeSelector") instanceof ObjectNode s ? s : spec.putObject("nodeSelector");
        for (Map.Entry<String, JsonNode> e : classSelector.properties()) {
            JsonNode pod = selector.get(e.getKey());
            if (pod != null && !pod.asText().equals(e.getValue().asText())) {
                throw a.forbidden("conflict: runtimeClass.scheduling.nodeSelector[%1$s] = %2$s; pod.spec.nodeSelector[%1$s] = %3$s"
                        .formatted(e.getKey(), e.getValue().asText(), pod.asText()));
            }
            selector.put(e.getKey(), e.getValue().asText());
        }
    }

    /** The pod's tolerations merged with the class's, kube's way: one that another covers is dropped. */
    private static void mergeTolerations(ObjectNode spec, JsonNode classTolerations) {
        if (!classTolerations.isArray() || classTolerations.isEmpty()) {
            return;
        }
        List<JsonNode> pod = new ArrayList<>();
        spec.path("tolerations").forEach(pod::add);
        List<JsonNode> added = new ArrayList<>();
        classTolerations.forEach(t -> added.add(t.deepCopy()));
        ArrayNode merged = spec.putArray("tolerations");
        Tolerations.merge(pod, added).forEach(merged::add);
    }

    /** Semantic equality of two resource lists: the same names, each the same quantity. */
    static boolean sameResources(JsonNode a, JsonNode b) {
        Map<String, Quantity> left = quantities(a);
        Map<String, Quantity> right = quantities(b);
        if (!left.keySet().equals(right.keySet())) {
            return false;
        }
        return left.entrySet().stream().allMatch(e -> right.get(e.getKey()) != null && e.getValue() != null
                && e.getValue().compareTo(right.get(e.getKey())) == 0);
    }

    private static Map<String, Quantity> quantities(JsonNode list) {
        Map<String, Quantity> map = new HashMap<>();
        list.properties().forEach(e -> map.put(e.getKey(), Quantity.parseOrNull(e.getValue().asText(""))));
        return map;
    }

}
