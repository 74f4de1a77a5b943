package io.kapi.apis.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.registry.Strategy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The allocation step of one service write (kube-apiserver's {@code allocateCreate} and
 * {@code allocateUpdate}): defaults the IP family fields, allocates the cluster IPs and node ports the
 * service asks for and does not hold yet, and remembers what it gives up. Errors are kube's: 422 at
 * {@code spec.clusterIPs} / {@code spec.ports[i].nodePort} for a refused requested value, 500 when a
 * range is full.
 */
final class ServiceAllocation {

    private static final GroupVersionKind SERVICE = new GroupVersionKind("", "v1", "Service");

    private final ServiceAllocators allocators;

    ServiceAllocation(ServiceAllocators allocators) {
        this.allocators = allocators;
    }

    /** Allocates for {@code service}, replacing {@code old} (null on create). */
    Strategy.Finish begin(ObjectNode service, ObjectNode old, boolean dryRun) {
        Txn txn = new Txn(dryRun);
        try {
            List<FieldError> errors = allocators.families().init(service);
            if (!errors.isEmpty()) {
                throw invalid(service, errors);
            }
            allocateIps(service, old, txn);
            allocatePorts(service, old, txn);
        } catch (RuntimeException e) {
            txn.finish(allocators, false);
            throw e;
        }
        return stored -> txn.finish(allocators, stored);
    }

    private void allocateIps(ObjectNode service, ObjectNode old, Txn txn) {
        List<String> held = old == null || !ServiceSpec.needsClusterIp(old) || ServiceSpec.isHeadless(old)
                ? List.of() : ServiceSpec.clusterIps(old);
        if (!ServiceSpec.needsClusterIp(service) || ServiceSpec.isHeadless(service)) {
            txn.releasedIps.addAll(held);
            return;
        }
        List<String> requested = ServiceSpec.clusterIps(service);
        List<String> families = ServiceSpec.families(service);
        int count = service.path("spec").path("ipFamilyPolicy").asText().equals("SingleStack")
                ? 1 : Math.min(families.size(), 2);
        ServiceRef owner = ServiceRef.of(service);
        List<String> result = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ClusterIpAllocator allocator = allocators.ipAllocator(families.get(i));
            if (i < requested.size()) {
                String ip = requested.get(i);
                if (!held.contains(ip)) {
                    try {
                        allocator.allocate(ip, owner, txn.dryRun);
                    } catch (AllocationException e) {
                        throw invalid(service, List.of(FieldError.invalid("spec.clusterIPs", json(requested),
                                "failed to allocate IP " + ip + ": " + e.getMessage())));
                    }
                    txn.allocatedIps.add(ip);
                }
                result.add(ip);
            } else {
                try {
                    String ip = allocator.allocateNext(owner, txn.dryRun);
                    txn.allocatedIps.add(ip);
                    result.add(ip);
                } catch (AllocationException e) {
                    throw ApiException.internal("failed to allocate a serviceIP: " + e.getMessage());
                }
            }
        }
        result.addAll(requested.subList(Math.min(count, requested.size()), requested.size()));
        ServiceSpec.setClusterIps(service, result);
        held.stream().filter(ip -> !result.contains(ip)).forEach(txn.releasedIps::add);
    }

    private void allocatePorts(ObjectNode service, ObjectNode old, Txn txn) {
        Set<Integer> held = old == null ? Set.of() : ServiceSpec.nodePorts(old);
        Set<Integer> kept = new HashSet<>();
        if (ServiceSpec.needsNodePorts(service)) {
            allocateServicePorts(service, held, kept, txn);
        }
        if (ServiceSpec.needsHealthCheckNodePort(service)) {
            allocateHealthCheckPort(service, held, kept, txn);
        }
        held.stream().filter(p -> !kept.contains(p)).forEach(txn.releasedPorts::add);
    }

    private void allocateServicePorts(ObjectNode service, Set<Integer> held, Set<Integer> kept, Txn txn) {
        NodePortAllocator allocator = allocators.portAllocator();
        JsonNode ports = service.path("spec").path("ports");
        Map<Integer, Integer> byServicePort = new HashMap<>();
        for (int i = 0; i < ports.size(); i++) {
            ObjectNode port = (ObjectNode) ports.get(i);
            int nodePort = port.path("nodePort").asInt(0);
            int servicePort = port.path("port").asInt(0);
            if (nodePort == 0 && !ServiceSpec.allocatesNodePorts(service)) {
                continue;
            }
            if (nodePort == 0) {
                nodePort = byServicePort.getOrDefault(servicePort, requestedLater(ports, i, servicePort));
            }
            if (nodePort == 0) {
                try {
                    nodePort = allocator.allocateNext(txn.dryRun);
                    txn.allocatedPorts.add(nodePort);
                } catch (AllocationException e) {
                    throw ApiException.internal("failed to allocate a nodePort: " + e.getMessage());
                }
            } else if (!held.contains(nodePort) && !kept.contains(nodePort)) {
                try {
                    allocator.allocate(nodePort, txn.dryRun);
                    txn.allocatedPorts.add(nodePort);
                } catch (AllocationException e) {
                    throw invalid(service, List.of(FieldError.invalid("spec.ports[" + i + "].nodePort",
                            Integer.toString(nodePort), e.getMessage())));
                }
            }
            kept.add(nodePort);
            byServicePort.putIfAbsent(servicePort, nodePort);
            port.put("nodePort", nodePort);
        }
    }

    /** A node port the client asked for on a later entry of the same port number (TCP and UDP share it). */
    private static int requestedLater(JsonNode ports, int from, int servicePort) {
        for (int j = from + 1; j < ports.size(); j++) {
            if (ports.get(j).path("port").asInt(0) == servicePort && ports.get(j).path("nodePort").asInt(0) != 0) {
                return ports.get(j).path("nodePort").asInt();
            }
        }
        return 0;
    }

    private void allocateHealthCheckPort(ObjectNode service, Set<Integer> held, Set<Integer> kept, Txn txn) {
        NodePortAllocator allocator = allocators.portAllocator();
        int port = service.path("spec").path("healthCheckNodePort").asInt(0);
        if (port == 0) {
            try {
                port = allocator.allocateNext(txn.dryRun);
                txn.allocatedPorts.add(port);
            } catch (AllocationException e) {
                throw ApiException.internal("failed to allocate a nodePort: " + e.getMessage());
            }
        } else if (!held.contains(port) && !kept.contains(port)) {
            try {
                allocator.allocate(port, txn.dryRun);
                txn.allocatedPorts.add(port);
            } catch (AllocationException e) {
                throw invalid(service, List.of(FieldError.invalid("spec.healthCheckNodePort", Integer.toString(port),
                        "failed to allocate requested HealthCheck NodePort " + port + ": " + e.getMessage())));
            }
        }
        kept.add(port);
        ServiceSpec.spec(service).put("healthCheckNodePort", port);
    }

    private static ApiException invalid(ObjectNode service, List<FieldError> errors) {
        return ApiException.invalid(SERVICE, ServiceRef.of(service).name(), errors);
    }

    private static String json(List<String> values) {
        return Json.MAPPER.valueToTree(values).toString();
    }
}
