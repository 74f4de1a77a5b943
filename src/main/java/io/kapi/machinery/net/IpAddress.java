package io.kapi.machinery.net;

import java.math.BigInteger;

/**
 * An IPv4 or IPv6 address, parsed as Go parses one and printed as Go prints it (dotted quad; IPv6 in the
 * RFC 5952 short form, {@code fd00::1}). Zones ({@code %eth0}) are refused, as kube refuses them.
 *
 * @param value the address as an unsigned number below 2<sup>bits</sup>
 */
public record IpAddress(IpFamily family, BigInteger value) implements Comparable<IpAddress> {

    public IpAddress {
        if (value.signum() < 0 || value.bitLength() > family.bits()) {
            throw new IllegalArgumentException("not an " + family.label() + " address: " + value);
        }
    }

    /**
     * {@code netip.ParseAddr}: four decimal fields without leading zeros, or IPv6 groups with at most one
     * {@code ::} and an optional trailing dotted quad.
     *
     * @throws IllegalArgumentException when {@code text} is not such an address
     */
    public static IpAddress parse(String text) {
        return IpSyntax.parse(text, false);
    }

    /**
     * {@code netutils.ParseIPSloppy}, what kube-apiserver reads its flags with: as {@link #parse}, but
     * IPv4 fields may have leading zeros (read as decimal: {@code 010.1.2.3} is {@code 10.1.2.3}).
     */
    public static IpAddress parseSloppy(String text) {
        return IpSyntax.parse(text, true);
    }

    /** {@link #parse}, or null when {@code text} is not an address. */
    public static IpAddress parseOrNull(String text) {
        try {
            return text == null ? null : parse(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The address {@code offset} after this one (before it, when negative). */
    public IpAddress plus(BigInteger offset) {
        return new IpAddress(family, value.add(offset));
    }

    @Override
    public int compareTo(IpAddress other) {
        int byFamily = family.compareTo(other.family);
        return byFamily != 0 ? byFamily : value.compareTo(other.value);
    }

    /** The canonical text: {@code 10.96.0.1}, {@code fd00:10:96::1}. */
    @Override
    public String toString() {
        return family == IpFamily.IPV4 ? ipv4(value.intValue()) : ipv6(value);
    }

    private static String ipv4(int v) {
        return ((v >>> 24) & 0xff) + "." + ((v >>> 16) & 0xff) + "." + ((v >>> 8) & 0xff) + "." + (v & 0xff);
    }

    /** RFC 5952: lower case, no leading zeros, the first longest run of two or more zero groups as {@code ::}. */
    private static String ipv6(BigInteger value) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = value.shiftRight(16 * (7 - i)).intValue() & 0xffff;
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder s = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                s.append("::");
                i += bestLength - 1;
                continue;
            }
            if (!s.isEmpty() && s.charAt(s.length() - 1) != ':') {
                s.append(':');
            }
            s.append(Integer.toHexString(groups[i]));
        }
        return s.toString();
    }
}
