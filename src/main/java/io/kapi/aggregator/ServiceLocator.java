package io.kapi.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.webhook.ServiceResolver;
import java.net.URI;

/**
 * Where the requests of an APIService's Service go (kube-aggregator's {@code ServiceResolver}): with
 * endpoint routing a ready endpoint of the Service, else its cluster IP, or for an {@code ExternalName}
 * Service that name, on the Service's port.
 */
@FunctionalInterface
interface ServiceLocator {

    GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");

    /**
     * The base URI ({@code https://host:port}) of {@code service}.
     *
     * @throws IllegalStateException in kube's resolver's words when there is none
     */
    URI locate(ApiServiceRoute.ServiceRef service);

    /** The locator {@code --enable-aggregator-routing} chooses, reading Services through {@code lookup}. */
    static ServiceLocator of(boolean endpointRouting, ObjectLookup lookup) {
        if (endpointRouting) {
            ServiceResolver endpoints = new ServiceResolver(lookup);
            return s -> {
                ObjectNode service = lookup.cached(SERVICES, s.namespace(), s.name())
                        .orElseThrow(() -> new IllegalStateException("service \"" + s.name() + "\" not found"));
                if ("ExternalName".equals(service.path("spec").path("type").asText())) {
                    return clusterIp(service, s);
                }
                return endpoints.resolve(s.namespace(), s.name(), s.port(), "");
            };
        }
        return s -> clusterIp(lookup.cached(SERVICES, s.namespace(), s.name())
                .orElseThrow(() -> new IllegalStateException("service \"" + s.name() + "\" not found")), s);
    }

    /** kube's {@code ResolveCluster}. */
    private static URI clusterIp(ObjectNode service, ApiServiceRoute.ServiceRef s) {
        JsonNode spec = service.path("spec");
        if ("ExternalName".equals(spec.path("type").asText())) {
            return URI.create("https://" + hostPort(spec.path("externalName").asText(), s.port()));
        }
        String ip = spec.path("clusterIP").asText("");
        if (ip.isEmpty() || ip.equals("None")) {
            throw new IllegalStateException("invalid service \"" + s.namespace() + "/" + s.name()
                    + "\": no cluster IP");
        }
        for (JsonNode p : spec.path("ports")) {
            if (p.path("port").asInt() == s.port()) {
                return URI.create("https://" + hostPort(ip, s.port()));
            }
        }
        throw new IllegalStateException("no service port " + s.port() + " found for service \"" + s.name() + "\"");
    }

    private static String hostPort(String host, int port) {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
