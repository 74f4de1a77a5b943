package io.kapi.apis.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Reads of a service's spec that the allocators need, with kube's notion of what each type holds. */
final class ServiceSpec {

    private ServiceSpec() {
    }

    static ObjectNode spec(ObjectNode service) {
        return service.with("spec");
    }

    static String type(ObjectNode service) {
        return service.path("spec").path("type").asText("ClusterIP");
    }

    /** Every type but ExternalName has a cluster IP (or is headless). */
    static boolean needsClusterIp(ObjectNode service) {
        return !type(service).equals("ExternalName");
    }

    static boolean isHeadless(ObjectNode service) {
        return "None".equals(service.path("spec").path("clusterIP").asText());
    }

    static boolean needsNodePorts(ObjectNode service) {
        String type = type(service);
        return type.equals("NodePort") || type.equals("LoadBalancer");
    }

    /** NodePort always, LoadBalancer unless {@code allocateLoadBalancerNodePorts: false}. */
    static boolean allocatesNodePorts(ObjectNode service) {
        return type(service).equals("NodePort") || (type(service).equals("LoadBalancer")
                && service.path("spec").path("allocateLoadBalancerNodePorts").asBoolean(true));
    }

    static boolean needsHealthCheckNodePort(ObjectNode service) {
        return type(service).equals("LoadBalancer")
                && service.path("spec").path("externalTrafficPolicy").asText().equals("Local");
    }

    /** spec.clusterIPs, or [spec.clusterIP] when only that is set; "" entries are dropped. */
    static List<String> clusterIps(ObjectNode service) {
        List<String> ips = new ArrayList<>();
        for (JsonNode ip : service.path("spec").path("clusterIPs")) {
            ips.add(ip.asText());
        }
        String single = service.path("spec").path("clusterIP").asText("");
        if (ips.isEmpty() && !single.isEmpty()) {
            ips.add(single);
        }
        ips.removeIf(String::isEmpty);
        return ips;
    }

    static void setClusterIps(ObjectNode service, List<String> ips) {
        ObjectNode spec = spec(service);
        if (ips.isEmpty()) {
            spec.remove("clusterIP");
            spec.remove("clusterIPs");
            return;
        }
        spec.put("clusterIP", ips.getFirst());
        ArrayNode array = spec.putArray("clusterIPs");
        ips.forEach(array::add);
    }

    static List<String> families(ObjectNode service) {
        List<String> families = new ArrayList<>();
        service.path("spec").path("ipFamilies").forEach(f -> families.add(f.asText()));
        return families;
    }

    static void setFamilies(ObjectNode service, List<String> families) {
        ArrayNode array = spec(service).putArray("ipFamilies");
        families.forEach(array::add);
    }

    /** Node ports set on the service's ports (and its health check port): what it holds. */
    static Set<Integer> nodePorts(ObjectNode service) {
        Set<Integer> ports = new LinkedHashSet<>();
        for (JsonNode port : service.path("spec").path("ports")) {
            int nodePort = port.path("nodePort").asInt(0);
            if (nodePort != 0) {
                ports.add(nodePort);
            }
        }
        int health = service.path("spec").path("healthCheckNodePort").asInt(0);
        if (health != 0) {
            ports.add(health);
        }
        return ports;
    }
}
