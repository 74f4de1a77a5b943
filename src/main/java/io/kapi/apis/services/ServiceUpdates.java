package io.kapi.apis.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * What kube-apiserver does to an updated service before allocating: keeps allocated values the client
 * left out ({@code patchAllocatedValues}), lets {@code clusterIP} and {@code clusterIPs} follow each
 * other ({@code NormalizeClusterIPs}) and drops the ones a type change makes meaningless when the
 * client merely sent them back unchanged ({@code dropTypeDependentFields}), including
 * {@code externalTrafficPolicy} and the load-balancer fields.
 */
final class ServiceUpdates {

    private ServiceUpdates() {
    }

    static void patchAllocatedValues(ObjectNode service, ObjectNode old) {
        ObjectNode spec = ServiceSpec.spec(service);
        if (ServiceSpec.needsClusterIp(old) && ServiceSpec.needsClusterIp(service)) {
            if (spec.path("clusterIP").asText("").isEmpty() && old.path("spec").has("clusterIP")) {
                spec.set("clusterIP", old.path("spec").get("clusterIP").deepCopy());
            }
            if (spec.path("clusterIPs").isEmpty() && old.path("spec").has("clusterIPs")
                    && Objects.equals(spec.path("clusterIP").asText(), old.path("spec").path("clusterIP").asText())) {
                spec.set("clusterIPs", old.path("spec").get("clusterIPs").deepCopy());
            }
        }
        if (ServiceSpec.needsNodePorts(old) && ServiceSpec.needsNodePorts(service)) {
            for (JsonNode port : spec.path("ports")) {
                if (port.path("nodePort").asInt(0) == 0) {
                    int previous = oldNodePort(old, port);
                    if (previous != 0) {
                        ((ObjectNode) port).put("nodePort", previous);
                    }
                }
            }
        }
        if (ServiceSpec.needsHealthCheckNodePort(old) && ServiceSpec.needsHealthCheckNodePort(service)
                && spec.path("healthCheckNodePort").asInt(0) == 0 && old.path("spec").has("healthCheckNodePort")) {
            spec.set("healthCheckNodePort", old.path("spec").get("healthCheckNodePort").deepCopy());
        }
    }

    /**
     * kube's {@code NormalizeClusterIPs} for an update: the user changed one of the two linked fields,
     * so the other follows. A changed {@code clusterIP} with {@code clusterIPs} as before becomes
     * {@code clusterIPs[0]} (a cleared one clears them); changed {@code clusterIPs} with
     * {@code clusterIP} as before set {@code clusterIP} to their first. Validation then judges the
     * result ({@code spec.clusterIPs[0]: may not change once set}); without this the allocator kept
     * the old IPs and a patch changing {@code clusterIP} was silently ignored.
     */
    static void normalizeClusterIps(ObjectNode service, ObjectNode old) {
        ObjectNode spec = ServiceSpec.spec(service);
        JsonNode oldSpec = old.path("spec");
        boolean sameIp = spec.path("clusterIP").asText("").equals(oldSpec.path("clusterIP").asText(""));
        boolean sameIps = spec.path("clusterIPs").equals(oldSpec.path("clusterIPs"))
                || spec.path("clusterIPs").isEmpty() && oldSpec.path("clusterIPs").isEmpty();
        if (!sameIp && sameIps) {
            String ip = spec.path("clusterIP").asText("");
            if (ip.isEmpty()) {
                spec.remove("clusterIPs");
            } else if (spec.path("clusterIPs").isEmpty()) {
                spec.putArray("clusterIPs").add(ip);
            } else {
                ((ArrayNode) spec.get("clusterIPs")).set(0, ip);
            }
        } else if (sameIp && !sameIps) {
            if (spec.path("clusterIPs").isEmpty()) {
                spec.remove("clusterIP");
            } else {
                spec.put("clusterIP", spec.get("clusterIPs").get(0).asText());
            }
        }
    }

    static void dropTypeDependentFields(ObjectNode service, ObjectNode old) {
        ObjectNode spec = ServiceSpec.spec(service);
        JsonNode oldSpec = old.path("spec");
        if (ServiceSpec.needsClusterIp(old) && !ServiceSpec.needsClusterIp(service)) {
            if (ServiceSpec.clusterIps(service).equals(ServiceSpec.clusterIps(old))) {
                spec.remove("clusterIP");
                spec.remove("clusterIPs");
            }
            if (spec.path("ipFamilies").equals(oldSpec.path("ipFamilies"))) {
                spec.remove("ipFamilies");
            }
            if (spec.path("ipFamilyPolicy").equals(oldSpec.path("ipFamilyPolicy"))) {
                spec.remove("ipFamilyPolicy");
            }
        }
        if (ServiceSpec.needsNodePorts(old) && !ServiceSpec.needsNodePorts(service) && sameNodePorts(service, old)) {
            for (JsonNode port : spec.path("ports")) {
                ((ObjectNode) port).remove("nodePort");
            }
        }
        if (externallyAccessible(old) && !externallyAccessible(service)
                && spec.path("externalTrafficPolicy").equals(oldSpec.path("externalTrafficPolicy"))) {
            spec.remove("externalTrafficPolicy");
        }
        if (isLoadBalancer(old) && !isLoadBalancer(service)) {
            for (String field : new String[] {"allocateLoadBalancerNodePorts", "loadBalancerClass"}) {
                if (spec.path(field).equals(oldSpec.path(field))) {
                    spec.remove(field);
                }
            }
        }
        if (ServiceSpec.needsHealthCheckNodePort(old) && !ServiceSpec.needsHealthCheckNodePort(service)
                && spec.path("healthCheckNodePort").equals(oldSpec.path("healthCheckNodePort"))) {
            spec.remove("healthCheckNodePort");
        }
    }

    /** NodePort and LoadBalancer services take externalTrafficPolicy. */
    private static boolean externallyAccessible(ObjectNode service) {
        String type = service.path("spec").path("type").asText("ClusterIP");
        return type.equals("NodePort") || type.equals("LoadBalancer");
    }

    private static boolean isLoadBalancer(ObjectNode service) {
        return service.path("spec").path("type").asText("").equals("LoadBalancer");
    }

    private static int oldNodePort(ObjectNode old, JsonNode port) {
        for (JsonNode o : old.path("spec").path("ports")) {
            if (o.path("port").asInt() == port.path("port").asInt()
                    && o.path("protocol").asText("TCP").equals(port.path("protocol").asText("TCP"))) {
                return o.path("nodePort").asInt(0);
            }
        }
        return 0;
    }

    /** Whether every port's node port is the one the old service held for it (or none). */
    private static boolean sameNodePorts(ObjectNode service, ObjectNode old) {
        for (JsonNode port : service.path("spec").path("ports")) {
            int nodePort = port.path("nodePort").asInt(0);
            if (nodePort != 0 && nodePort != oldNodePort(old, port)) {
                return false;
            }
        }
        return true;
    }
}
