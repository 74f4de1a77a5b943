package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.Json;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
import java.util.List;

/**
 * The post-start hook {@code scheduling/bootstrap-system-priority-classes}: creates the two system
 * PriorityClasses when missing (kube-apiserver never updates existing ones; its strategy forbids
 * changing them).
 */
final class SystemPriorityClasses implements PostStartHook {

    static final List<ObjectNode> CLASSES = List.of(
            priorityClass("system-node-critical", 2000001000,
                    "Used for system critical pods that must not be moved from their current node."),
            priorityClass("system-cluster-critical", 2000000000,
                    "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."));

    private final ResourceClient priorityClasses;

    SystemPriorityClasses(LocalClient client) {
        this.priorityClasses = client.resource("scheduling.k8s.io", "v1", "priorityclasses");
    }

    @Override
    public String name() {
        return "scheduling/bootstrap-system-priority-classes";
    }

    @Override
    public void run() {
        for (ObjectNode pc : CLASSES) {
            Stores.createIfMissing(priorityClasses, pc);
        }
    }

    private static ObjectNode priorityClass(String name, int value, String description) {
        ObjectNode pc = Json.object();
        pc.put("apiVersion", "scheduling.k8s.io/v1");
        pc.put("kind", "PriorityClass");
        pc.putObject("metadata").put("name", name);
        pc.put("value", value);
        pc.put("description", description);
        pc.put("preemptionPolicy", "PreemptLowerPriority");
        return pc;
    }
}
