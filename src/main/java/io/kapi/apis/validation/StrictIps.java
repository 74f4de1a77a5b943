package io.kapi.apis.validation;

import io.kapi.machinery.net.Cidr;
import io.kapi.machinery.net.IpAddress;
import io.kapi.machinery.net.IpFamily;
import java.util.ArrayList;
import java.util.List;

/**
 * apimachinery's strict {@code IsValidIP} and {@code IsValidCIDR} (1.34, for fields newer than the
 * StrictIPCIDRValidation work): the sloppy parse first, then no leading zeros, no IPv4-mapped IPv6 address,
 * no bits beyond the prefix, and the value in canonical form. Each returns kube's messages, in its order.
 */
final class StrictIps {

    static final String INVALID_IP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
    static final String INVALID_CIDR = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

    private StrictIps() {
    }

    /** {@code IsValidIP}. */
    static List<String> ip(String value) {
        IpAddress ip = SpecialIps.sloppy(value);
        if (ip == null) {
            return List.of(INVALID_IP);
        }
        List<String> errs = new ArrayList<>(0);
        if (IpAddress.parseOrNull(value) == null) {
            errs.add("must not have leading 0s");
        } else if (mapped(ip)) {
            errs.add("must not be an IPv4-mapped IPv6 address");
        }
        if (errs.isEmpty() && !value.equals(ip.toString())) {
            errs.add("must be in canonical form (\"" + ip + "\")");
        }
        return errs;
    }

    /** {@code IsValidCIDR}: a subnet ({@code 192.168.1.0/24}), not an interface address. */
    static List<String> cidr(String value) {
        Cidr cidr;
        try {
            cidr = Cidr.parseSloppy(value);
        } catch (IllegalArgumentException ex) {
            return List.of(INVALID_CIDR);
        }
        int slash = value.indexOf('/');
        String bits = value.substring(slash + 1);
        IpAddress ip = IpAddress.parseOrNull(value.substring(0, slash));
        if (ip == null || bits.length() > 1 && bits.charAt(0) == '0') {
            return List.of("must not have leading 0s in IP or prefix length");
        }
        if (mapped(ip)) {
            return List.of("must not have an IPv4-mapped IPv6 address");
        }
        if (!ip.equals(cidr.network())) {
            return List.of("must not have bits set beyond the prefix length");
        }
        String canonical = cidr.network() + "/" + cidr.prefix();
        return value.equals(canonical) ? List.of() : List.of("must be in canonical form (\"" + canonical + "\")");
    }

    /** The family {@code netutils.IPFamilyOfCIDRString} gives, null when the value is no CIDR. */
    static IpFamily family(String cidr) {
        try {
            return Cidr.parseSloppy(cidr).family();
        } catch (IllegalArgumentException ex) {
            return null;
        }
    }

    private static boolean mapped(IpAddress ip) {
        return ip.family() == IpFamily.IPV6 && SpecialIps.ipv4(ip) >= 0;
    }
}
