package io.kapi.apis.services;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.FieldSelector;
import io.kapi.registry.ListOptions;
import io.kapi.registry.ResourceStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.kapi.registry.SystemWrites;

/**
 * kube-apiserver's service repair controllers in one pass: services are the truth.
 *
 * <ul>
 *   <li>Cluster IPs: a service's IP without its IPAddress gets it (re)created; an IPAddress of the
 *       allocator whose service does not hold it is deleted once older than the leak grace (a younger
 *       one may belong to a create in flight).</li>
 *   <li>Node ports: the bitmap is rebuilt from the services' ports with compare-and-swap on the
 *       revision read before listing (a concurrent allocation makes the pass skip, not lose it); a
 *       port set in the bitmap that no service holds is kept for {@value #LEAK_PASSES} passes before
 *       it is freed, like kube's {@code numRepairsBeforeLeakCleanup}.</li>
 * </ul>
 */
final class ServiceRepair {

    private static final System.Logger LOG = System.getLogger(ServiceRepair.class.getName());
    static final int LEAK_PASSES = 3;

    private final ServiceAllocators allocators;
    private final Duration leakGrace;
    private final Clock clock;
    private final Map<Integer, Integer> suspectedPortLeaks = new HashMap<>();

    ServiceRepair(ServiceAllocators allocators, Duration leakGrace, Clock clock) {
        this.allocators = allocators;
        this.leakGrace = leakGrace;
        this.clock = clock;
    }

    synchronized void run() {
        NodePortAllocator.Snapshot ports = allocators.portAllocator().snapshot();
        Map<String, ServiceRef> ips = new LinkedHashMap<>();
        Set<Integer> heldPorts = new HashSet<>();
        for (ObjectNode service : allocators.store(ServiceAllocators.SERVICES).list("", ListOptions.ALL).items()) {
            ServiceRef ref = ServiceRef.of(service);
            if (ServiceSpec.needsClusterIp(service) && !ServiceSpec.isHeadless(service)) {
                for (String ip : ServiceSpec.clusterIps(service)) {
                    String name = IpRange.canonical(ip);
                    if (name != null && ips.putIfAbsent(name, ref) != null) {
                        LOG.log(System.Logger.Level.WARNING, "cluster IP {0} is held by several services: {1}/{2}",
                                name, ref.namespace(), ref.name());
                    }
                }
            }
            heldPorts.addAll(ServiceSpec.nodePorts(service));
        }
        repairIps(ips);
        repairPorts(ports, heldPorts);
    }

    private void repairIps(Map<String, ServiceRef> wanted) {
        ResourceStore ipAddresses = allocators.store(ServiceAllocators.IPADDRESSES);
        ListOptions managed = new ListOptions(0, null, LabelSelector.parse(
                ClusterIpAllocator.MANAGED_BY_LABEL + "=" + ClusterIpAllocator.MANAGED_BY), FieldSelector.EVERYTHING);
        Set<String> present = new HashSet<>();
        Instant graceLimit = clock.instant().minus(leakGrace);
        for (ObjectNode ip : ipAddresses.list("", managed).items()) {
            String name = ObjectMeta.of(ip).name();
            present.add(name);
            ServiceRef owner = wanted.get(name);
            if (owner == null && !Instant.parse(ObjectMeta.of(ip).creationTimestamp()).isAfter(graceLimit)) {
                LOG.log(System.Logger.Level.INFO, "releasing leaked cluster IP {0}", name);
                delete(ipAddresses, name);
            } else if (owner != null && !owner.equals(ServiceRef.ofParent(ip))) {
                LOG.log(System.Logger.Level.INFO, "pointing IPAddress {0} at its service {1}/{2}",
                        name, owner.namespace(), owner.name());
                reparent(ipAddresses, ip, owner);
            }
        }
        wanted.forEach((ip, owner) -> {
            if (present.contains(ip)) {
                return;
            }
            for (ClusterIpAllocator allocator : allocators.ipAllocators()) {
                if (allocator.range().contains(ip)) {
                    LOG.log(System.Logger.Level.INFO, "recreating IPAddress {0} of service {1}/{2}",
                            ip, owner.namespace(), owner.name());
                    allocator.tryCreate(ip, owner);
                    return;
                }
            }
            LOG.log(System.Logger.Level.WARNING, "cluster IP {0} of service {1}/{2} is not in any service CIDR",
                    ip, owner.namespace(), owner.name());
        });
    }

    private void repairPorts(NodePortAllocator.Snapshot snapshot, Set<Integer> held) {
        PortRange range = allocators.portAllocator().range();
        Set<Integer> keep = new HashSet<>();
        for (int port : held) {
            if (range.contains(port)) {
                keep.add(port);
            } else {
                LOG.log(System.Logger.Level.WARNING, "node port {0} is not in the range {1}", port, range);
            }
        }
        suspectedPortLeaks.keySet().retainAll(snapshot.bits().stream().map(i -> i + range.base()).boxed().toList());
        snapshot.bits().stream().map(i -> i + range.base()).filter(p -> !keep.contains(p)).forEach(port -> {
            int seen = suspectedPortLeaks.merge(port, 1, Integer::sum);
            if (seen < LEAK_PASSES) {
                keep.add(port);
            } else {
                LOG.log(System.Logger.Level.INFO, "releasing leaked node port {0}", port);
                suspectedPortLeaks.remove(port);
            }
        });
        suspectedPortLeaks.keySet().removeIf(held::contains);
        if (!allocators.portAllocator().replace(snapshot, keep)) {
            LOG.log(System.Logger.Level.DEBUG, "node ports changed during the repair; retrying next pass");
        }
    }

    /**
     * A generated service name can change after allocation (a retried clash): follow the service. An
     * IPAddress's parentRef is immutable, so the address is deleted (only as the repair saw it) and created
     * again for its owner; if another allocation takes the address in between, the owner's next repair pass
     * finds it held by someone else.
     */
    private static void reparent(ResourceStore store, ObjectNode ip, ServiceRef owner) {
        ObjectMeta seen = ObjectMeta.of(ip);
        try {
            SystemWrites.delete(store, "", seen.name(), new DeleteOptions(seen.uid(), seen.resourceVersion(), false, null, null));
            ObjectNode replacement = ip.deepCopy();
            ObjectMeta.of(replacement).node().remove(List.of("uid", "resourceVersion", "creationTimestamp", "managedFields"));
            ObjectNode ref = replacement.with("spec").putObject("parentRef");
            ref.put("group", "").put("resource", "services").put("namespace", owner.namespace()).put("name", owner.name());
            SystemWrites.create(store, "", replacement);
        } catch (ApiException e) {
            LOG.log(System.Logger.Level.DEBUG, "IPAddress {0} changed during the repair: {1}", seen.name(), e.getMessage());
        }
    }

    private static void delete(ResourceStore store, String name) {
        try {
            SystemWrites.delete(store, "", name, DeleteOptions.DEFAULT);
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }
}
