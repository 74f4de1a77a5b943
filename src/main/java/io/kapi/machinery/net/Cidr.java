package io.kapi.machinery.net;

import java.math.BigInteger;

/**
 * An IP range {@code network/prefix} ({@code 10.96.0.0/12}), its network address with the host bits
 * cleared, as Go's {@code net.ParseCIDR} returns it; and the address arithmetic the service IP
 * allocators need. Immutable.
 *
 * @param network the first address of the range (host bits zero)
 * @param prefix the number of leading bits fixed by the range
 */
public record Cidr(IpAddress network, int prefix) {

    public Cidr {
        if (prefix < 0 || prefix > network.family().bits()) {
            throw new IllegalArgumentException("invalid prefix /" + prefix + " for " + network);
        }
        BigInteger hostMask = BigInteger.ONE.shiftLeft(network.family().bits() - prefix).subtract(BigInteger.ONE);
        if (network.value().and(hostMask).signum() != 0) {
            network = new IpAddress(network.family(), network.value().andNot(hostMask));
        }
    }

    /**
     * {@code net.ParseCIDR}: a strict address ({@link IpAddress#parse}), {@code /} and a decimal prefix no
     * longer than the address.
     *
     * @throws IllegalArgumentException {@code invalid CIDR address: <text>}, Go's message
     */
    public static Cidr parse(String text) {
        return parse(text, false);
    }

    /**
     * {@code netutils.ParseCIDRSloppy}, how kube-apiserver reads {@code --service-cluster-ip-range}: as
     * {@link #parse}, but IPv4 fields may have leading zeros.
     *
     * @throws IllegalArgumentException {@code invalid CIDR address: <text>}
     */
    public static Cidr parseSloppy(String text) {
        return parse(text, true);
    }

    private static Cidr parse(String text, boolean sloppy) {
        int slash = text.indexOf('/');
        String bits = slash < 0 ? "" : text.substring(slash + 1);
        if (slash < 0 || bits.isEmpty() || bits.length() > 9 || !bits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw invalid(text);
        }
        IpAddress ip;
        try {
            ip = sloppy ? IpAddress.parseSloppy(text.substring(0, slash)) : IpAddress.parse(text.substring(0, slash));
        } catch (IllegalArgumentException e) {
            throw invalid(text);
        }
        int prefix = Integer.parseInt(bits);
        if (prefix > ip.family().bits()) {
            throw invalid(text);
        }
        return new Cidr(ip, prefix);
    }

    public IpFamily family() {
        return network.family();
    }

    /** The bits left to hosts: 20 for a /12 of IPv4. */
    public int hostBits() {
        return family().bits() - prefix;
    }

    /** How many addresses the range holds, network and broadcast addresses included. */
    public BigInteger size() {
        return BigInteger.ONE.shiftLeft(hostBits());
    }

    /** The address {@code offset} after the network address; {@code offset} must lie in [0, size). */
    public IpAddress address(BigInteger offset) {
        if (offset.signum() < 0 || offset.compareTo(size()) >= 0) {
            throw new IllegalArgumentException(offset + " is outside " + this);
        }
        return network.plus(offset);
    }

    /** How far {@code ip} lies after the network address, or -1 when it is outside the range or of another family. */
    public BigInteger offsetOf(IpAddress ip) {
        if (ip.family() != family()) {
            return BigInteger.ONE.negate();
        }
        BigInteger offset = ip.value().subtract(network.value());
        return offset.signum() < 0 || offset.compareTo(size()) >= 0 ? BigInteger.ONE.negate() : offset;
    }

    public boolean contains(IpAddress ip) {
        return offsetOf(ip).signum() >= 0;
    }

    /** The first address after the network address: the {@code kubernetes} service IP of a service range. */
    public String firstAddress() {
        return network.plus(BigInteger.ONE).toString();
    }

    /** The canonical text: {@code 10.96.0.0/12}, {@code fd00:10:96::/108}. */
    @Override
    public String toString() {
        return network + "/" + prefix;
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("invalid CIDR address: " + text);
    }
}
