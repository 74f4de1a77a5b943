package io.kapi.simulation;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/**
 * The objects a kubelet writes for its node, as kubelet 1.34 on containerd writes them: the Node it
 * registers (labels, addresses, capacity, {@code nodeInfo}, the four conditions with kubelet's reasons
 * and messages), its status as later reported, and its Lease in {@code kube-node-lease}.
 */
final class NodeTemplate {

    static final String LEASE_NAMESPACE = "kube-node-lease";
    /** kubelet's {@code nodeLeaseDurationSeconds}. */
    static final int LEASE_SECONDS = 40;
    static final String KUBELET_VERSION = "v1.34.0";

    private NodeTemplate() {
    }

    /** The Node as the kubelet registers it (status included). */
    static ObjectNode node(SimulatedNode n, Instant now) {
        ObjectNode node = Json.object();
        node.put("apiVersion", "v1");
        node.put("kind", "Node");
        ObjectNode meta = node.putObject("metadata");
        meta.put("name", n.name());
        ObjectNode annotations = meta.putObject("annotations");
        annotations.put(Annotations.SIMULATED, "true");
        annotations.put("node.alpha.kubernetes.io/ttl", "0");
        annotations.put("volumes.kubernetes.io/controller-managed-attach-detach", "true");
        ObjectNode labels = meta.putObject("labels");
        labels.put("beta.kubernetes.io/arch", "amd64");
        labels.put("beta.kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        labels.put("kubernetes.io/hostname", n.name());
        labels.put("kubernetes.io/os", "linux");
        NodeShape shape = n.shape();
        if (shape.instanceType() != null) {
            labels.put("node.kubernetes.io/instance-type", shape.instanceType());
        }
        labels.put("topology.kubernetes.io/region", n.region());
        labels.put("topology.kubernetes.io/zone", n.zone());
        shape.labels().forEach(labels::put);
        ObjectNode spec = node.putObject("spec");
        spec.put("podCIDR", n.podCidr());
        spec.putArray("podCIDRs").add(n.podCidr());
        if (!shape.taints().isEmpty()) {
            ArrayNode taints = spec.putArray("taints");
            for (NodeShape.Taint t : shape.taints()) {
                ObjectNode o = taints.addObject().put("key", t.key());
                if (!t.value().isEmpty()) {
                    o.put("value", t.value());
                }
                o.put("effect", t.effect());
            }
        }
        node.set("status", status(n, now));
        return node;
    }

    /** The status kubelet reports: capacity, conditions, addresses, {@code nodeInfo}. */
    static ObjectNode status(SimulatedNode n, Instant now) {
        ObjectNode status = Json.object();
        NodeShape shape = n.shape();
        ObjectNode capacity = status.putObject("capacity");
        capacity.put("cpu", shape.cpu());
        capacity.put("ephemeral-storage", shape.ephemeralStorage());
        capacity.put("hugepages-1Gi", "0");
        capacity.put("hugepages-2Mi", "0");
        capacity.put("memory", shape.memory());
        capacity.put("pods", Integer.toString(shape.pods()));
        status.set("allocatable", capacity.deepCopy());
        ArrayNode conditions = status.putArray("conditions");
        condition(conditions, "MemoryPressure", "False", "KubeletHasSufficientMemory",
                "kubelet has sufficient memory available", n.registered(), now);
        condition(conditions, "DiskPressure", "False", "KubeletHasNoDiskPressure",
                "kubelet has no disk pressure", n.registered(), now);
        condition(conditions, "PIDPressure", "False", "KubeletHasSufficientPID",
                "kubelet has sufficient PID available", n.registered(), now);
        condition(conditions, "Ready", "True", "KubeletReady", "kubelet is posting ready status", n.registered(), now);
        ArrayNode addresses = status.putArray("addresses");
        addresses.addObject().put("type", "InternalIP").put("address", n.hostIp());
        addresses.addObject().put("type", "Hostname").put("address", n.name());
        status.putObject("daemonEndpoints").putObject("kubeletEndpoint").put("Port", 10250);
        ObjectNode info = status.putObject("nodeInfo");
        info.put("machineID", id(n.name(), "machine").toString().replace("-", ""));
        info.put("systemUUID", id(n.name(), "system").toString());
        info.put("bootID", n.bootId());
        info.put("kernelVersion", "6.8.0-kapi");
        info.put("osImage", "Kapi simulated node");
        info.put("containerRuntimeVersion", "containerd://2.1.4-kapi");
        info.put("kubeletVersion", KUBELET_VERSION);
        info.put("kubeProxyVersion", "");
        info.put("operatingSystem", "linux");
        info.put("architecture", "amd64");
        return status;
    }

    private static void condition(ArrayNode conditions, String type, String status, String reason, String message,
                                  Instant transition, Instant now) {
        conditions.addObject().put("type", type).put("status", status)
                .put("lastHeartbeatTime", ObjectMeta.format(now))
                .put("lastTransitionTime", ObjectMeta.format(transition))
                .put("reason", reason).put("message", message);
    }

    /** The node's Lease, renewed at {@code now}. */
    static ObjectNode lease(SimulatedNode n, String nodeUid, Instant now) {
        ObjectNode lease = Json.object();
        lease.put("apiVersion", "coordination.k8s.io/v1");
        lease.put("kind", "Lease");
        ObjectNode meta = lease.putObject("metadata");
        meta.put("name", n.name());
        meta.put("namespace", LEASE_NAMESPACE);
        if (nodeUid != null) {
            meta.putArray("ownerReferences").addObject().put("apiVersion", "v1").put("kind", "Node")
                    .put("name", n.name()).put("uid", nodeUid);
        }
        ObjectNode spec = lease.putObject("spec");
        spec.put("holderIdentity", n.name());
        spec.put("leaseDurationSeconds", LEASE_SECONDS);
        spec.put("renewTime", micro(now));
        return lease;
    }

    /** metav1.MicroTime's text. */
    static String micro(Instant at) {
        return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
                .withZone(java.time.ZoneOffset.UTC).format(at);
    }

    private static UUID id(String name, String what) {
        return UUID.nameUUIDFromBytes((what + "/" + name).getBytes(StandardCharsets.UTF_8));
    }
}
