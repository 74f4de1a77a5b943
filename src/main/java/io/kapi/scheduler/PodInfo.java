package io.kapi.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.labels.LabelSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Pod as the scheduler reads it, parsed once per version (kube's {@code framework.PodInfo}): its
 * requests, host ports, priority and affinity terms.
 *
 * @param requests what it asks, counted against allocatable
 * @param nonZero the same with kube's defaults for a missing CPU or memory request, for scoring
 */
record PodInfo(ObjectNode pod, String namespace, String name, String uid, Map<String, String> labels,
               int priority, Requests requests, Requests nonZero, List<HostPort> ports,
               List<AffinityTerm> requiredAffinity, List<AffinityTerm> requiredAntiAffinity,
               List<AffinityTerm> preferredAffinity, List<AffinityTerm> preferredAntiAffinity) {

    /** A container port bound on the node: {@code hostIP} "0.0.0.0" when the Pod gives none. */
    record HostPort(String protocol, String ip, int port) {

        /** {@code HostPortInfo.CheckConflict}: same protocol and port, and either IP is the wildcard or both equal. */
        boolean conflicts(HostPort other) {
            return port == other.port && protocol.equals(other.protocol)
                    && (ip.equals(WILDCARD) || other.ip.equals(WILDCARD) || ip.equals(other.ip));
        }

        static final String WILDCARD = "0.0.0.0";
    }

    static PodInfo of(ObjectNode pod) {
        ObjectMeta meta = ObjectMeta.of(pod);
        JsonNode spec = pod.path("spec");
        String ns = meta.namespace();
        JsonNode affinity = spec.path("affinity");
        return new PodInfo(pod, ns, meta.name(), meta.uid(), LabelSelector.labelsOf(pod.path("metadata").path("labels")),
                spec.path("priority").asInt(0), PodRequests.of(spec, false), PodRequests.of(spec, true),
                ports(spec),
                AffinityTerm.required(ns, affinity.path("podAffinity")),
                AffinityTerm.required(ns, affinity.path("podAntiAffinity")),
                AffinityTerm.preferred(ns, affinity.path("podAffinity")),
                AffinityTerm.preferred(ns, affinity.path("podAntiAffinity")));
    }

    String key() {
        return namespace + "/" + name;
    }

    JsonNode spec() {
        return pod.path("spec");
    }

    String nodeName() {
        return spec().path("nodeName").asText("");
    }

    private static List<HostPort> ports(JsonNode spec) {
        List<HostPort> ports = new ArrayList<>();
        for (String field : List.of("initContainers", "containers")) {
            for (JsonNode c : spec.path(field)) {
                for (JsonNode p : c.path("ports")) {
                    int hostPort = p.path("hostPort").asInt(0);
                    if (hostPort > 0) {
                        String ip = p.path("hostIP").asText("");
                        ports.add(new HostPort(p.path("protocol").asText("TCP"), ip.isEmpty() ? HostPort.WILDCARD : ip,
                                hostPort));
                    }
                }
            }
        }
        return List.copyOf(ports);
    }
}
