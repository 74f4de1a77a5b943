package io.kapi.apis.services;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.Inet4Address;

/**
 * One service CIDR as kube-apiserver's IP allocator sees it: the addresses it hands out (IPv4 without
 * the network and broadcast addresses, IPv6 without the network address) split at {@code offset}
 * into a lower band, preferred for statically requested IPs, and an upper band, used first for
 * dynamic allocation.
 *
 * @param cidr the range as configured, e.g. {@code 10.96.0.0/12}
 * @param family {@code IPv4} or {@code IPv6}
 * @param first the first assignable address (network + 1)
 * @param size how many addresses are assignable
 * @param offset the size of the lower band (kube's {@code calculateRangeOffset})
 */
record IpRange(String cidr, String family, BigInteger first, BigInteger size, long offset) {

    /** @throws IllegalArgumentException if {@code text} is not {@code ip/prefix} or leaves no address */
    static IpRange parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("invalid CIDR address: " + text);
        }
        InetAddress ip;
        int prefix;
        try {
            ip = InetAddress.ofLiteral(text.substring(0, slash).trim());
            prefix = Integer.parseInt(text.substring(slash + 1).trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid CIDR address: " + text);
        }
        boolean v4 = ip instanceof Inet4Address;
        int bits = v4 ? 32 : 128;
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException("invalid CIDR address: " + text);
        }
        BigInteger hosts = BigInteger.ONE.shiftLeft(bits - prefix);
        BigInteger network = new BigInteger(1, ip.getAddress()).shiftRight(bits - prefix).shiftLeft(bits - prefix);
        BigInteger size = hosts.subtract(BigInteger.valueOf(v4 ? 2 : 1)).max(BigInteger.ZERO);
        if (size.signum() == 0) {
            throw new IllegalArgumentException("CIDR " + text + " has no assignable address");
        }
        String canonical = format(network, v4) + "/" + prefix;
        return new IpRange(canonical, v4 ? "IPv4" : "IPv6", network.add(BigInteger.ONE), size, rangeOffset(size));
    }

    /** kube's calculateRangeOffset: size/16 clamped to [16, 256], none for ranges under 16 addresses. */
    static long rangeOffset(BigInteger size) {
        if (size.compareTo(BigInteger.valueOf(16)) < 0) {
            return 0;
        }
        return size.divide(BigInteger.valueOf(16)).max(BigInteger.valueOf(16)).min(BigInteger.valueOf(256)).longValue();
    }

    boolean isV4() {
        return family.equals("IPv4");
    }

    /** The address at {@code index} (0 = first assignable), in canonical text. */
    String address(BigInteger index) {
        return format(first.add(index), isV4());
    }

    /** The index of {@code ip} in the assignable addresses, or -1 when it is outside them or of another family. */
    BigInteger indexOf(String ip) {
        BigInteger value = parseAddress(ip, isV4());
        if (value == null) {
            return BigInteger.ONE.negate();
        }
        BigInteger index = value.subtract(first);
        return index.signum() < 0 || index.compareTo(size) >= 0 ? BigInteger.ONE.negate() : index;
    }

    boolean contains(String ip) {
        return indexOf(ip).signum() >= 0;
    }

    /** Canonical text of an IP (kube names IPAddress objects by it), or null if {@code ip} is not an IP. */
    static String canonical(String ip) {
        try {
            InetAddress a = InetAddress.ofLiteral(ip);
            return format(new BigInteger(1, a.getAddress()), a instanceof Inet4Address);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** {@code IPv4}/{@code IPv6} of an IP literal, or null. */
    static String familyOf(String ip) {
        try {
            return InetAddress.ofLiteral(ip) instanceof Inet4Address ? "IPv4" : "IPv6";
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static BigInteger parseAddress(String ip, boolean v4) {
        try {
            InetAddress a = InetAddress.ofLiteral(ip);
            return (a instanceof Inet4Address) == v4 ? new BigInteger(1, a.getAddress()) : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String format(BigInteger value, boolean v4) {
        int length = v4 ? 4 : 16;
        byte[] raw = value.toByteArray();
        byte[] bytes = new byte[length];
        int copy = Math.min(raw.length, length);
        System.arraycopy(raw, raw.length - copy, bytes, length - copy, copy);
        if (v4) {
            return (bytes[0] & 0xff) + "." + (bytes[1] & 0xff) + "." + (bytes[2] & 0xff) + "." + (bytes[3] & 0xff);
        }
        return rfc5952(bytes);
    }

    /** IPv6 text as RFC 5952: lower case, no leading zeros, the longest run (≥ 2) of zero groups as {@code ::}. */
    private static String rfc5952(byte[] b) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                s.append("::");
                i += bestLen - 1;
                continue;
            }
            if (!s.isEmpty() && s.charAt(s.length() - 1) != ':') {
                s.append(':');
            }
            s.append(Integer.toHexString(g[i]));
        }
        return s.toString();
    }
}
