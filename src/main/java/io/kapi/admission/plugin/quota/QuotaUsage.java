package io.kapi.admission.plugin.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.quantity.Quantity;
import java.util.Set;

/**
 * What one object counts against ResourceQuotas, as kube's quota evaluators: {@code count/<resource>[.<group>]}
 * for every object, the legacy names of the core resources, pods' compute resources ({@link PodUsage}), claims'
 * storage (also per StorageClass) and services' load balancers and node ports.
 */
public final class QuotaUsage {

    private static final Set<String> LEGACY = Set.of("services", "replicationcontrollers", "resourcequotas",
            "secrets", "configmaps", "persistentvolumeclaims");
    static final String CLASS_SUFFIX = ".storageclass.storage.k8s.io/";

    private QuotaUsage() {
    }

    /** The object-count name of a resource: {@code count/deployments.apps}, {@code count/pods}. */
    public static String countName(GroupVersionResource gvr) {
        return "count/" + gvr.resource() + (gvr.group().isEmpty() ? "" : "." + gvr.group());
    }

    public static ResourceList of(GroupVersionResource gvr, JsonNode object) {
        if (gvr.group().isEmpty() && gvr.resource().equals("pods")) {
            return PodUsage.of(object);
        }
        ResourceList usage = ResourceList.one(countName(gvr));
        if (!gvr.group().isEmpty() || !LEGACY.contains(gvr.resource())) {
            return usage;
        }
        usage = usage.add(ResourceList.one(gvr.resource()));
        return switch (gvr.resource()) {
            case "persistentvolumeclaims" -> usage.add(claim(object));
            case "services" -> usage.add(service(object));
            default -> usage;
        };
    }

    private static ResourceList claim(JsonNode pvc) {
        ResourceList usage = ResourceList.EMPTY;
        Quantity storage = Quantity.parseOrNull(pvc.path("spec").path("resources").path("requests").path("storage")
                .asText(null));
        String cls = storageClass(pvc);
        if (!cls.isEmpty()) {
            usage = usage.add(ResourceList.one(cls + CLASS_SUFFIX + "persistentvolumeclaims"));
        }
        if (storage != null) {
            usage = usage.with("requests.storage", storage);
            if (!cls.isEmpty()) {
                usage = usage.with(cls + CLASS_SUFFIX + "requests.storage", storage);
            }
        }
        return usage;
    }

    private static String storageClass(JsonNode pvc) {
        JsonNode annotation = pvc.path("metadata").path("annotations").get("volume.beta.kubernetes.io/storage-class");
        return annotation != null && annotation.isTextual() ? annotation.asText()
                : pvc.path("spec").path("storageClassName").asText("");
    }

    private static ResourceList service(JsonNode svc) {
        String type = svc.path("spec").path("type").asText("ClusterIP");
        long ports = svc.path("spec").path("ports").size();
        ResourceList usage = ResourceList.EMPTY;
        if (type.equals("LoadBalancer")) {
            usage = usage.with("services.loadbalancers", Quantity.of(1));
            if (svc.path("spec").path("allocateLoadBalancerNodePorts").asBoolean(true)) {
                usage = usage.with("services.nodeports", Quantity.of(ports));
            }
        } else if (type.equals("NodePort")) {
            usage = usage.with("services.nodeports", Quantity.of(ports));
        }
        return usage;
    }

    /**
     * The group and resource whose objects a quota resource name counts ({@code count/deployments.apps} →
     * apps, deployments; {@code requests.cpu} → core pods), or null for a name nothing counts.
     */
    public static String[] countedResource(String name) {
        if (name.startsWith("count/")) {
            String rest = name.substring("count/".length());
            int dot = rest.indexOf('.');
            return dot < 0 ? new String[] {"", rest} : new String[] {rest.substring(dot + 1), rest.substring(0, dot)};
        }
        if (name.equals("requests.storage") || name.equals("persistentvolumeclaims") || name.contains(CLASS_SUFFIX)) {
            return new String[] {"", "persistentvolumeclaims"};
        }
        if (name.equals("services") || name.startsWith("services.")) {
            return new String[] {"", "services"};
        }
        if (LEGACY.contains(name)) {
            return new String[] {"", name};
        }
        if (name.equals("pods") || name.equals("cpu") || name.equals("memory") || name.equals("ephemeral-storage")
                || name.startsWith("requests.") || name.startsWith("limits.") || name.startsWith("hugepages-")) {
            return new String[] {"", "pods"};
        }
        return null;
    }

    /** kube's pod {@code Constraints} for the resources a quota limits; empty when the pod names them all. */
    public static String missing(GroupVersionResource gvr, JsonNode object, Set<String> limited) {
        return gvr.group().isEmpty() && gvr.resource().equals("pods") ? PodUsage.missing(object, limited) : "";
    }
}
