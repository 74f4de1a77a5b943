package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.MutatingPlugin;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.Operation;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import java.util.List;
import java.util.Optional;

/**
 * kube-apiserver's {@code Priority} plugin on pod creation: {@code priority} and {@code preemptionPolicy}
 * come from the pod's PriorityClass, or the global default class, or 0 and {@code PreemptLowerPriority};
 * an unknown class, or a priority that disagrees with the class, is Forbidden.
 */
public final class PriorityAdmission implements MutatingPlugin {

    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    private static final GroupVersionResource PRIORITY_CLASSES =
            new GroupVersionResource("scheduling.k8s.io", "v1", "priorityclasses");

    private final ObjectLookup lookup;

    public PriorityAdmission(ObjectLookup lookup) {
        this.lookup = lookup;
    }

    @Override
    public String name() {
        return "Priority";
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
        ObjectNode pod = a.object();
        String podName = pod.path("metadata").path("name").asText("");
        ObjectNode spec = pod.with("spec");
        String className = spec.path("priorityClassName").asText("");
        Optional<ObjectNode> pc = className.isEmpty() ? globalDefault()
                : lookup.get(PRIORITY_CLASSES, "", className);
        if (!className.isEmpty() && pc.isEmpty()) {
            throw ApiException.forbidden(PODS, podName, "no PriorityClass with name " + className + " was found",
                    List.of());
        }
        long value = pc.map(c -> c.path("value").asLong(0)).orElse(0L);
        if (spec.has("priority") && spec.get("priority").asLong() != value) {
            throw ApiException.forbidden(PODS, podName, "the integer value of priority ("
                    + spec.get("priority").asLong() + ") must not be provided in pod spec; priority admission "
                    + "controller computed " + value + " from the given PriorityClass name", List.of());
        }
        spec.put("priority", value);
        if (pc.isPresent() && className.isEmpty()) {
            spec.put("priorityClassName", pc.get().path("metadata").path("name").asText());
        }
        if (!spec.has("preemptionPolicy")) {
            spec.put("preemptionPolicy", pc.map(c -> c.path("preemptionPolicy").asText("PreemptLowerPriority"))
                    .orElse("PreemptLowerPriority"));
        }
    }

    private Optional<ObjectNode> globalDefault() {
        return lookup.list(PRIORITY_CLASSES, "").stream()
                .filter(c -> c.path("globalDefault").asBoolean(false)).findFirst();
    }
}
