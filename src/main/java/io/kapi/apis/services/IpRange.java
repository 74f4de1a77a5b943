package io.kapi.apis.services;

import io.kapi.machinery.net.Cidr;
import io.kapi.machinery.net.IpAddress;
import io.kapi.machinery.net.IpFamily;
import java.math.BigInteger;

/**
 * One service CIDR as kube-apiserver's IP allocator sees it: the addresses it hands out (IPv4 without
 * the network and broadcast addresses, IPv6 without the network address) split at {@code offset}
 * into a lower band, preferred for statically requested IPs, and an upper band, used first for
 * dynamic allocation.
 *
 * @param range the range, as {@code --service-cluster-ip-range} gives it
 * @param size how many addresses are assignable
 * @param offset the size of the lower band (kube's {@code calculateRangeOffset})
 */
record IpRange(Cidr range, BigInteger size, long offset) {

    /**
     * Reads a range as kube-apiserver reads the flag ({@code ParseCIDRSloppy}).
     *
     * @throws IllegalArgumentException if {@code text} is not {@code ip/prefix} or leaves no address
     */
    static IpRange parse(String text) {
        Cidr range = Cidr.parseSloppy(text);
        BigInteger reserved = BigInteger.valueOf(range.family() == IpFamily.IPV4 ? 2 : 1);
        BigInteger size = range.size().subtract(reserved).max(BigInteger.ZERO);
        if (size.signum() == 0) {
            throw new IllegalArgumentException("CIDR " + text + " has no assignable address");
        }
        return new IpRange(range, size, rangeOffset(size));
    }

    /** kube's calculateRangeOffset: size/16 clamped to [16, 256], none for ranges under 16 addresses. */
    static long rangeOffset(BigInteger size) {
        if (size.compareTo(BigInteger.valueOf(16)) < 0) {
            return 0;
        }
        return size.divide(BigInteger.valueOf(16)).max(BigInteger.valueOf(16)).min(BigInteger.valueOf(256)).longValue();
    }

    /** The range in canonical text, e.g. {@code 10.96.0.0/12}. */
    String cidr() {
        return range.toString();
    }

    /** {@code IPv4} or {@code IPv6}. */
    String family() {
        return range.family().label();
    }

    /** The address at {@code index} (0 = first assignable), in canonical text. */
    String address(BigInteger index) {
        return range.address(index.add(BigInteger.ONE)).toString();
    }

    /** The index of {@code ip} in the assignable addresses, or -1 when it is outside them or of another family. */
    BigInteger indexOf(String ip) {
        IpAddress address = IpAddress.parseOrNull(ip);
        BigInteger index = address == null ? BigInteger.ONE.negate() : range.offsetOf(address).subtract(BigInteger.ONE);
        return index.signum() < 0 || index.compareTo(size) >= 0 ? BigInteger.ONE.negate() : index;
    }

    boolean contains(String ip) {
        return indexOf(ip).signum() >= 0;
    }

    /** Canonical text of an IP (kube names IPAddress objects by it), or null if {@code ip} is not an IP. */
    static String canonical(String ip) {
        IpAddress address = IpAddress.parseOrNull(ip);
        return address == null ? null : address.toString();
    }

    /** {@code IPv4}/{@code IPv6} of an IP literal, or null. */
    static String familyOf(String ip) {
        IpAddress address = IpAddress.parseOrNull(ip);
        return address == null ? null : address.family().label();
    }
}
