package io.kapi.apis.services;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.ResourceStore;
import java.math.BigInteger;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import io.kapi.registry.SystemWrites;

/**
 * Cluster IPs of one family, as kube-apiserver 1.34's IPAddress-backed allocator: an IP is allocated
 * by creating the {@code networking.k8s.io/v1} IPAddress named by it (create-if-absent in storage is
 * what makes concurrent allocations safe) and released by deleting it.
 *
 * <p>Dynamic allocation starts at a random address of the upper band and walks the range, then the
 * lower band, so statically requested IPs (usually picked low) rarely collide with dynamic ones.
 */
final class ClusterIpAllocator {

    static final String FAMILY_LABEL = "ipaddress.kubernetes.io/ip-family";
    static final String MANAGED_BY_LABEL = "ipaddress.kubernetes.io/managed-by";
    static final String MANAGED_BY = "ipallocator.k8s.io";

    private static final System.Logger LOG = System.getLogger(ClusterIpAllocator.class.getName());

    private final IpRange range;
    private final Supplier<ResourceStore> ipAddresses;

    ClusterIpAllocator(IpRange range, Supplier<ResourceStore> ipAddresses) {
        this.range = range;
        this.ipAddresses = ipAddresses;
    }

    IpRange range() {
        return range;
    }

    /**
     * Allocates {@code ip} for a service.
     *
     * @throws AllocationException not in range, or already allocated
     */
    void allocate(String ip, ServiceRef owner, boolean dryRun) {
        if (!range.contains(ip)) {
            throw new AllocationException("the provided IP (%s) is not in the valid range. The range of valid IPs is %s"
                    .formatted(ip, range.cidr()));
        }
        String name = IpRange.canonical(ip);
        if (dryRun ? exists(name) : !tryCreate(name, owner)) {
            throw new AllocationException("provided IP is already allocated");
        }
    }

    /**
     * Allocates a free IP for a service.
     *
     * @throws AllocationException when the range is full
     */
    String allocateNext(ServiceRef owner, boolean dryRun) {
        BigInteger offset = BigInteger.valueOf(range.offset());
        BigInteger upper = range.size().subtract(offset);
        String ip = upper.signum() > 0 ? walk(offset, upper, owner, dryRun) : null;
        if (ip == null && offset.signum() > 0) {
            ip = walk(BigInteger.ZERO, offset, owner, dryRun);
        }
        if (ip == null) {
            throw AllocationException.full();
        }
        return ip;
    }

    /** Releases {@code ip}; releasing a free or foreign IP does nothing. */
    void release(String ip) {
        String name = IpRange.canonical(ip);
        if (name == null || !range.contains(name)) {
            return;
        }
        try {
            SystemWrites.delete(ipAddresses.get(), "", name, DeleteOptions.DEFAULT);
        } catch (ApiException e) {
            if (e.code() != 404) {
                LOG.log(System.Logger.Level.WARNING, "releasing cluster IP {0} failed: {1}", name, e.getMessage());
            }
        }
    }

    /** Walks {@code count} addresses from index {@code start} on, beginning at a random one. */
    private String walk(BigInteger start, BigInteger count, ServiceRef owner, boolean dryRun) {
        BigInteger begin = random(count);
        for (BigInteger i = BigInteger.ZERO; i.compareTo(count) < 0; i = i.add(BigInteger.ONE)) {
            String ip = range.address(start.add(begin.add(i).mod(count)));
            if (exists(ip)) {
                continue;
            }
            if (dryRun || tryCreate(ip, owner)) {
                return ip;
            }
        }
        return null;
    }

    private static BigInteger random(BigInteger bound) {
        if (bound.bitLength() < 63) {
            return BigInteger.valueOf(ThreadLocalRandom.current().nextLong(bound.longValue()));
        }
        return BigInteger.valueOf(ThreadLocalRandom.current().nextLong(Long.MAX_VALUE));
    }

    private boolean exists(String name) {
        try {
            ipAddresses.get().get("", name);
            return true;
        } catch (ApiException e) {
            if (e.code() == 404) {
                return false;
            }
            throw e;
        }
    }

    /** Creates the IPAddress; false when it exists already (someone else won the race). */
    boolean tryCreate(String name, ServiceRef owner) {
        try {
            SystemWrites.create(ipAddresses.get(), "", ipAddress(name, owner));
            return true;
        } catch (ApiException e) {
            if (e.code() == 409) {
                return false;
            }
            throw e;
        }
    }

    private ObjectNode ipAddress(String name, ServiceRef owner) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("apiVersion", "networking.k8s.io/v1");
        o.put("kind", "IPAddress");
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", name);
        ObjectNode labels = meta.putObject("labels");
        labels.put(FAMILY_LABEL, range.family());
        labels.put(MANAGED_BY_LABEL, MANAGED_BY);
        ObjectNode ref = o.putObject("spec").putObject("parentRef");
        ref.put("group", "");
        ref.put("resource", "services");
        ref.put("namespace", owner.namespace());
        ref.put("name", owner.name());
        return o;
    }
}
