package io.kapi.machinery.net;

/** The two IP families, as the Service API names them ({@code IPv4}, {@code IPv6}). */
public enum IpFamily {
    IPV4("IPv4", 32), IPV6("IPv6", 128);

    private final String label;
    private final int bits;

    IpFamily(String label, int bits) {
        this.label = label;
        this.bits = bits;
    }

    /** {@code IPv4} or {@code IPv6}, as {@code spec.ipFamilies} writes it. */
    public String label() {
        return label;
    }

    /** The address length in bits: 32 or 128. */
    public int bits() {
        return bits;
    }
}
