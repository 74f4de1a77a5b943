package io.kapi.apis.validation;

import io.kapi.machinery.net.IpAddress;
import io.kapi.machinery.net.IpFamily;
import java.math.BigInteger;

/**
 * kube's {@code ValidateNonSpecialIP} (core validation), for the addresses of Endpoints and EndpointSlices:
 * the address as {@code netutils.ParseIPSloppy} reads it, and not unspecified, link-local unicast or link-local
 * multicast as Go's {@code net.IP} methods classify it. An IPv4-mapped IPv6 address ({@code ::ffff:169.254.0.1})
 * is classified as the IPv4 address it maps, as Go's {@code To4} does.
 *
 * <p>Unlike kube, loopback addresses are accepted. Kapi serves on one machine, by default on loopback only:
 * its {@code default/kubernetes} endpoints carry its advertise address (127.0.0.1 unless told otherwise), replicas
 * on one host advertise 127.0.0.x, and a service-backed webhook on the same machine is reached through its
 * endpoints. kube refuses loopback so that the API server cannot be made to call itself or its host; a Kapi user
 * who may point a webhook at a service may point one at {@code https://127.0.0.1} too, so this adds no reach.
 * Link-local addresses (cloud metadata services) stay refused.
 */
final class SpecialIps {

    private static final BigInteger MAPPED_PREFIX = BigInteger.valueOf(0xffffL).shiftLeft(32);
    private static final BigInteger LOW_32 = BigInteger.ONE.shiftLeft(32).subtract(BigInteger.ONE);

    private SpecialIps() {
    }

    static void nonSpecial(String path, String value, Errs e) {
        IpAddress ip = sloppy(value);
        if (ip == null) {
            e.invalidString(path, value, "must be a valid IP address");
            return;
        }
        long v4 = ipv4(ip);
        if (v4 >= 0 ? v4 == 0 : ip.value().signum() == 0) {
            e.invalidString(path, value, "may not be unspecified (" + value + ")");
        }
        int top = v4 >= 0 ? 0 : ip.value().shiftRight(112).intValue();
        if (v4 >= 0 ? v4 >>> 16 == 0xa9fe : (top & 0xffc0) == 0xfe80) {
            e.invalidString(path, value, "may not be in the link-local range (169.254.0.0/16, fe80::/10)");
        }
        if (v4 >= 0 ? v4 >>> 8 == 0xe00000 : (top & 0xff0f) == 0xff02) {
            e.invalidString(path, value, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)");
        }
    }

    /** {@code netutils.ParseIPSloppy}: null when {@code value} is no address. */
    static IpAddress sloppy(String value) {
        try {
            return IpAddress.parseSloppy(value);
        } catch (IllegalArgumentException ex) {
            return null;
        }
    }

    /** Go's {@code To4}: the IPv4 address (also of an IPv4-mapped IPv6 one) as an unsigned number, else -1. */
    static long ipv4(IpAddress ip) {
        if (ip.family() == IpFamily.IPV4) {
            return ip.value().longValue();
        }
        return ip.value().andNot(LOW_32).equals(MAPPED_PREFIX) ? ip.value().and(LOW_32).longValue() : -1;
    }
}
