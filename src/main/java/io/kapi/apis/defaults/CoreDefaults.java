package io.kapi.apis.defaults;

import static io.kapi.apis.defaults.Fields.child;
import static io.kapi.apis.defaults.Fields.ensure;
import static io.kapi.apis.defaults.Fields.items;
import static io.kapi.apis.defaults.Fields.text;
import static io.kapi.apis.defaults.Fields.textPointer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;

/** The defaults of core/v1 kinds ({@code pkg/apis/core/v1/defaults.go}); a pod's own defaults are in {@link PodSpecs}. */
public final class CoreDefaults {

    /** Seconds of ClientIP session affinity when none is given (3 hours). */
    static final int CLIENT_IP_AFFINITY_SECONDS = 10800;

    private static final Set<String> EXTERNAL_TYPES = Set.of("NodePort", "LoadBalancer");

    private CoreDefaults() {
    }

    /** kube's {@code SetObjectDefaults_Pod}. */
    public static void pod(ObjectNode pod) {
        PodSpecs.pod(pod);
    }

    public static void podTemplate(ObjectNode object) {
        ObjectNode template = child(object, "template");
        if (template != null) {
            PodSpecs.template(template);
        }
    }

    /** Selector and labels from the template's labels, replicas 1. */
    public static void replicationController(ObjectNode object) {
        ObjectNode spec = ensure(object, "spec");
        ObjectNode template = child(spec, "template");
        ObjectNode labels = child(child(template, "metadata"), "labels");
        if (labels != null) {
            if (Fields.empty(spec, "selector")) {
                spec.set("selector", labels.deepCopy());
            }
            ObjectNode metadata = ensure(object, "metadata");
            if (Fields.empty(metadata, "labels")) {
                metadata.set("labels", labels.deepCopy());
            }
        }
        Fields.integerPointer(spec, "replicas", 1);
        if (template != null) {
            PodSpecs.template(template);
        }
    }

    public static void service(ObjectNode object) {
        ObjectNode spec = ensure(object, "spec");
        text(spec, "sessionAffinity", "None");
        String affinity = Fields.text(spec, "sessionAffinity");
        if (affinity.equals("None")) {
            spec.remove("sessionAffinityConfig");
        } else if (affinity.equals("ClientIP")) {
            ObjectNode clientIp = child(child(spec, "sessionAffinityConfig"), "clientIP");
            if (clientIp == null || Fields.unset(clientIp, "timeoutSeconds")) {
                spec.putObject("sessionAffinityConfig").putObject("clientIP")
                        .put("timeoutSeconds", CLIENT_IP_AFFINITY_SECONDS);
            }
        }
        text(spec, "type", "ClusterIP");
        String type = Fields.text(spec, "type");
        for (ObjectNode port : items(spec, "ports")) {
            text(port, "protocol", "TCP");
            JsonNode target = port.get("targetPort");
            boolean unsetTarget = target == null || target.isNull()
                    || (target.isNumber() && target.asInt() == 0) || (target.isTextual() && target.asText().isEmpty());
            if (unsetTarget && port.has("port")) {
                port.set("targetPort", port.get("port"));
            }
        }
        boolean externallyAccessible = EXTERNAL_TYPES.contains(type)
                || (type.equals("ClusterIP") && !Fields.empty(spec, "externalIPs"));
        if (externallyAccessible) {
            text(spec, "externalTrafficPolicy", "Cluster");
        }
        if (EXTERNAL_TYPES.contains(type) || type.equals("ClusterIP")) {
            textPointer(spec, "internalTrafficPolicy", "Cluster");
        }
        if (type.equals("LoadBalancer")) {
            Fields.bool(spec, "allocateLoadBalancerNodePorts", true);
            for (ObjectNode ingress : items(child(child(object, "status"), "loadBalancer"), "ingress")) {
                if (!Fields.text(ingress, "ip").isEmpty()) {
                    textPointer(ingress, "ipMode", "VIP");
                }
            }
        }
    }

    public static void persistentVolume(ObjectNode object) {
        text(ensure(object, "status"), "phase", "Pending");
        ObjectNode spec = ensure(object, "spec");
        text(spec, "persistentVolumeReclaimPolicy", "Retain");
        textPointer(spec, "volumeMode", "Filesystem");
        ResourceLists.round(spec, "capacity");
        Volumes.persistentSource(spec);
    }

    public static void persistentVolumeClaim(ObjectNode object) {
        ObjectNode status = ensure(object, "status");
        text(status, "phase", "Pending");
        ResourceLists.round(status, "capacity");
        ResourceLists.round(status, "allocatedResources");
        Volumes.claimSpec(ensure(object, "spec"));
    }

    /**
     * {@code type} Opaque, and {@code stringData} folded into {@code data} (base64), as kube-apiserver's
     * v1 → internal conversion does: stringData is write-only and wins over data on the same key.
     */
    public static void secret(ObjectNode object) {
        text(object, "type", "Opaque");
        JsonNode stringData = object.remove("stringData");
        if (stringData instanceof ObjectNode strings && !strings.isEmpty()) {
            ObjectNode data = ensure(object, "data");
            strings.properties().forEach(e -> data.put(e.getKey(), java.util.Base64.getEncoder()
                    .encodeToString(e.getValue().asText().getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        }
    }

    public static void endpoints(ObjectNode object) {
        for (ObjectNode subset : items(object, "subsets")) {
            for (ObjectNode port : items(subset, "ports")) {
                text(port, "protocol", "TCP");
            }
        }
    }

    /** The {@code kubernetes.io/metadata.name} label (named namespaces only) and phase Active. */
    public static void namespace(ObjectNode object) {
        ObjectNode metadata = ensure(object, "metadata");
        String name = Fields.text(metadata, "name");
        if (!name.isEmpty()) {
            ensure(metadata, "labels").put("kubernetes.io/metadata.name", name);
        }
        text(ensure(object, "status"), "phase", "Active");
    }

    /**
     * Allocatable copied from capacity when only capacity is reported; and, as kube's round trip
     * through its internal type, {@code spec.podCIDR} and {@code spec.podCIDRs} kept in step.
     */
    public static void node(ObjectNode object) {
        mirrorFirst(child(object, "spec"), "podCIDR", "podCIDRs", null);
        ObjectNode status = child(object, "status");
        ObjectNode capacity = child(status, "capacity");
        if (capacity != null && Fields.unset(status, "allocatable")) {
            status.set("allocatable", capacity.deepCopy());
        }
        ResourceLists.round(status, "capacity");
        ResourceLists.round(status, "allocatable");
    }

    /**
     * Keeps a singular field (e.g. {@code podIP}) and its plural (e.g. {@code podIPs}) in step, as kube's
     * conversions do: the plural is filled from the singular when empty, and the singular always
     * shows the plural's first element. {@code key} names the field holding the value inside plural
     * elements when they are objects ({@code ip}), or null when they are plain strings.
     */
    static void mirrorFirst(ObjectNode holder, String singular, String plural, String key) {
        if (holder == null) {
            return;
        }
        String one = Fields.text(holder, singular);
        if (Fields.empty(holder, plural)) {
            if (!one.isEmpty()) {
                var array = holder.putArray(plural);
                if (key == null) {
                    array.add(one);
                } else {
                    array.addObject().put(key, one);
                }
            }
            return;
        }
        JsonNode first = holder.get(plural).get(0);
        String value = key == null ? first.asText("") : first.path(key).asText("");
        if (!value.isEmpty()) {
            holder.put(singular, value);
        }
    }

    /**
     * Container limits: a missing default limit from max, a missing default request from the default
     * limit, then from min.
     */
    public static void limitRange(ObjectNode object) {
        for (ObjectNode item : items(child(object, "spec"), "limits")) {
            if (Fields.text(item, "type").equals("Container")) {
                ObjectNode defaults = fill(item, "default", child(item, "max"), null);
                fill(item, "defaultRequest", defaults, child(item, "min"));
            }
            for (String list : new String[] {"max", "min", "default", "defaultRequest", "maxLimitRequestRatio"}) {
                ResourceLists.round(item, list);
            }
        }
    }

    public static void resourceQuota(ObjectNode object) {
        ResourceLists.round(child(object, "spec"), "hard");
        ObjectNode status = child(object, "status");
        ResourceLists.round(status, "hard");
        ResourceLists.round(status, "used");
    }

    private static ObjectNode fill(ObjectNode item, String field, ObjectNode first, ObjectNode second) {
        ObjectNode target = child(item, field) == null ? item.objectNode() : child(item, field);
        for (ObjectNode source : new ObjectNode[] {first, second}) {
            if (source == null) {
                continue;
            }
            for (Map.Entry<String, JsonNode> entry : source.properties()) {
                if (!target.has(entry.getKey())) {
                    target.set(entry.getKey(), entry.getValue().deepCopy());
                }
            }
        }
        if (!target.isEmpty()) {
            item.set(field, target);
        }
        return target;
    }
}
