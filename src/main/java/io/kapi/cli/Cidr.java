package io.kapi.cli;

import java.math.BigInteger;
import java.net.InetAddress;

/** An IP range such as {@code 10.96.0.0/12}. */
record Cidr(InetAddress network, int prefix) {

    /** @throws IllegalArgumentException if {@code text} is not {@code ip/prefix} */
    static Cidr parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("invalid CIDR address: " + text);
        }
        InetAddress ip;
        int prefix;
        try {
            ip = InetAddress.ofLiteral(text.substring(0, slash));
            prefix = Integer.parseInt(text.substring(slash + 1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid CIDR address: " + text);
        }
        int bits = ip.getAddress().length * 8;
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException("invalid CIDR address: " + text);
        }
        BigInteger mask = BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)
                .xor(BigInteger.ONE.shiftLeft(bits - prefix).subtract(BigInteger.ONE));
        return new Cidr(toAddress(new BigInteger(1, ip.getAddress()).and(mask), bits), prefix);
    }

    /** Host bits in the range: 20 for a /12 of IPv4. */
    int hostBits() {
        return network.getAddress().length * 8 - prefix;
    }

    /** The first address after the network address: the {@code kubernetes} service IP. */
    String firstAddress() {
        int bits = network.getAddress().length * 8;
        return toAddress(new BigInteger(1, network.getAddress()).add(BigInteger.ONE), bits).getHostAddress();
    }

    @Override
    public String toString() {
        return network.getHostAddress() + "/" + prefix;
    }

    private static InetAddress toAddress(BigInteger value, int bits) {
        byte[] raw = value.toByteArray();
        byte[] bytes = new byte[bits / 8];
        int copy = Math.min(raw.length, bytes.length);
        System.arraycopy(raw, raw.length - copy, bytes, bytes.length - copy, copy);
        try {
            return InetAddress.getByAddress(bytes);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
