package io.kapi.apis.services;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.registry.Strategy;
import io.kapi.storage.Storage;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The service allocators of one cluster (kube-apiserver's service IP and node port allocators and
 * their repair controllers): cluster IPs from the configured CIDRs, recorded as
 * {@code networking.k8s.io/v1} IPAddress objects, and node ports from a compare-and-swap bitmap.
 *
 * <p>Wiring, in this order: construct; pass {@link #decorate} to the strategy of {@code services};
 * {@link #connect} the registry once built; register this as a post-start hook, which creates the
 * {@code kubernetes} ServiceCIDR, repairs once and then every {@code repairInterval} on a virtual
 * thread until {@link #close()}.
 */
public final class ServiceAllocators implements PostStartHook, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ServiceAllocators.class.getName());
    static final GroupVersionResource IPADDRESSES = new GroupVersionResource("networking.k8s.io", "v1", "ipaddresses");
    static final GroupVersionResource SERVICECIDRS = new GroupVersionResource("networking.k8s.io", "v1", "servicecidrs");
    static final GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");

    private final ServiceRanges ranges;
    private final Map<String, ClusterIpAllocator> ipAllocators;
    private final IpFamilies families;
    private final NodePortAllocator ports;
    private final Duration repairInterval;
    private final ServiceRepair repair;
    private volatile Registry registry;
    private volatile Thread worker;

    /**
     * @param repairInterval time between repair passes (kube: 3 minutes)
     * @param leakGrace how old an IPAddress without its service must be before the repair deletes it
     *        (a younger one may belong to a create still in flight)
     */
    public ServiceAllocators(ServiceRanges ranges, Storage storage, Duration repairInterval, Duration leakGrace,
                             Clock clock) {
        this.ranges = ranges;
        List<IpRange> ipRanges = ranges.ipRanges();
        this.ipAllocators = ipRanges.stream().collect(Collectors.toUnmodifiableMap(IpRange::family,
                r -> new ClusterIpAllocator(r, () -> store(IPADDRESSES))));
        this.families = new IpFamilies(ipRanges.stream().map(IpRange::family).toList());
        this.ports = new NodePortAllocator(ranges.portRange(), storage);
        this.repairInterval = repairInterval;
        this.repair = new ServiceRepair(this, leakGrace, clock);
    }

    /** The services strategy with allocation. */
    public Strategy decorate(Strategy services) {
        return new ServiceStrategy(services, this);
    }

    /** Binds the registry whose ipaddresses, servicecidrs and services stores the allocators use. */
    public void connect(Registry registry) {
        this.registry = registry;
    }

    @Override
    public String name() {
        return "start-service-ip-repair-controllers";
    }

    /** Ensures the default ServiceCIDR, repairs once, then starts the periodic repair. */
    @Override
    public void run() {
        DefaultServiceCidr.ensure(store(SERVICECIDRS), ranges.ipRanges());
        repair();
        if (worker == null) {
            worker = Thread.ofVirtual().name("service-allocator-repair").start(this::loop);
        }
    }

    /** One repair pass over the cluster IPs and the node ports. */
    public void repair() {
        repair.run();
    }

    @Override
    public void close() {
        Thread t = worker;
        if (t != null) {
            t.interrupt();
        }
    }

    private void loop() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(repairInterval);
                repair();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "service allocator repair failed: {0}", e.toString());
            }
        }
    }

    ResourceStore store(GroupVersionResource gvr) {
        Registry r = registry;
        if (r == null) {
            throw ApiException.internal("the service allocators are not connected to the registry");
        }
        return r.resource(gvr.group(), gvr.version(), gvr.resource()).flatMap(r::store)
                .orElseThrow(() -> ApiException.internal("no store for " + gvr.resource()));
    }

    IpFamilies families() {
        return families;
    }

    Collection<ClusterIpAllocator> ipAllocators() {
        return ipAllocators.values();
    }

    ClusterIpAllocator ipAllocator(String family) {
        ClusterIpAllocator allocator = ipAllocators.get(family);
        if (allocator == null) {
            throw ApiException.internal("no cluster IP range of family " + family);
        }
        return allocator;
    }

    NodePortAllocator portAllocator() {
        return ports;
    }

    void releaseIps(Collection<String> ips) {
        for (String ip : ips) {
            String family = IpRange.familyOf(ip);
            ClusterIpAllocator allocator = family == null ? null : ipAllocators.get(family);
            if (allocator != null) {
                allocator.release(ip);
            }
        }
    }

    void releasePorts(Collection<Integer> released) {
        if (!released.isEmpty()) {
            ports.release(released);
        }
    }

    /** Releases everything a deleted service held. */
    void releaseAll(ObjectNode service) {
        if (ServiceSpec.needsClusterIp(service) && !ServiceSpec.isHeadless(service)) {
            releaseIps(ServiceSpec.clusterIps(service));
        }
        releasePorts(ServiceSpec.nodePorts(service));
    }
}
