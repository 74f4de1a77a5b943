package io.kapi.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import java.net.URI;
import java.util.Optional;

/**
 * Where a Service-referenced webhook is called: the Service's port is found by its number, and the call
 * goes to a ready endpoint of its EndpointSlices (or, without any, its Endpoints) on the target port, as
 * kube-apiserver does with endpoint routing. It reads the watch cache, as kube's resolver reads its listers:
 * it runs on every webhook call and proxied request, where a storage read would be a round trip each.
 * Errors read as kube's service resolver's.
 */
public final class ServiceResolver {

    private static final GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");
    private static final GroupVersionResource SLICES = new GroupVersionResource("discovery.k8s.io", "v1", "endpointslices");
    private static final GroupVersionResource ENDPOINTS = new GroupVersionResource("", "v1", "endpoints");

    private final ObjectLookup lookup;

    public ServiceResolver(ObjectLookup lookup) {
        this.lookup = lookup;
    }

    /** @throws IllegalStateException with the reason when the Service has no usable endpoint */
    public URI resolve(String namespace, String name, int port, String path) {
        ObjectNode service = lookup.cached(SERVICES, namespace, name)
                .orElseThrow(() -> new IllegalStateException("service \"" + name + "\" not found"));
        JsonNode servicePort = null;
        for (JsonNode p : service.path("spec").path("ports")) {
            if (p.path("port").asInt() == port) {
                servicePort = p;
            }
        }
        if (servicePort == null) {
            throw new IllegalStateException("no service port " + port + " found for service \"" + name + "\"");
        }
        String portName = servicePort.path("name").asText("");
        Optional<String> address = fromSlices(namespace, name, portName).or(() -> fromEndpoints(namespace, name, portName));
        return URI.create("https://" + address.orElseThrow(() -> new IllegalStateException(
                "no endpoints available for service \"" + name + "\"")) + path);
    }

    private Optional<String> fromSlices(String namespace, String name, String portName) {
        for (ObjectNode slice : lookup.cachedList(SLICES, namespace)) {
            if (!name.equals(ObjectMeta.of(slice).labels().get("kubernetes.io/service-name"))) {
                continue;
            }
            Integer port = port(slice.path("ports"), portName);
            if (port == null) {
                continue;
            }
            for (JsonNode endpoint : slice.path("endpoints")) {
                if (endpoint.path("conditions").path("ready").asBoolean(true) && endpoint.path("addresses").size() > 0) {
                    return Optional.of(hostPort(endpoint.path("addresses").get(0).asText(), port));
                }
            }
        }
        return Optional.empty();
    }

    private Optional<String> fromEndpoints(String namespace, String name, String portName) {
        Optional<ObjectNode> endpoints = lookup.cached(ENDPOINTS, namespace, name);
        for (JsonNode subset : endpoints.map(e -> e.path("subsets")).orElse(com.fasterxml.jackson.databind.node.MissingNode.getInstance())) {
            Integer port = port(subset.path("ports"), portName);
            if (port != null && subset.path("addresses").size() > 0) {
                return Optional.of(hostPort(subset.path("addresses").get(0).path("ip").asText(), port));
            }
        }
        return Optional.empty();
    }

    private static Integer port(JsonNode ports, String name) {
        for (JsonNode p : ports) {
            if (p.path("name").asText("").equals(name) || ports.size() == 1) {
                return p.path("port").asInt();
            }
        }
        return null;
    }

    private static String hostPort(String ip, int port) {
        return (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + port;
    }
}
