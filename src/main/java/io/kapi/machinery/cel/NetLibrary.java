package io.kapi.machinery.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.kapi.machinery.net.IpAddress;
import io.kapi.machinery.net.IpFamily;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;

/**
 * kube's IP and CIDR libraries: {@code ip("10.0.0.1")}, {@code isIP}, {@code ip.isCanonical},
 * {@code family}, {@code isUnspecified}, {@code isLoopback}, {@code isLinkLocalMulticast},
 * {@code isLinkLocalUnicast}, {@code isGlobalUnicast}; {@code cidr("10.0.0.0/8")}, {@code isCIDR},
 * {@code containsIP}, {@code containsCIDR}, {@code ip}, {@code masked}, {@code prefixLength}; and
 * {@code string()} of both. Literals only (no name lookup); IPv4-mapped IPv6 and zones are refused as kube
 * refuses them.
 */
final class NetLibrary implements CelLibrary {

    static final CelType IP = OpaqueType.create("net.IP");
    static final CelType CIDR = OpaqueType.create("net.CIDR");

    /** An address. */
    record Ip(InetAddress address) {
        int bits() {
            return address instanceof Inet4Address ? 32 : 128;
        }

        BigInteger number() {
            return new BigInteger(1, address.getAddress());
        }

        @Override
        public String toString() {
            return canonical(address);
        }
    }

    /** A prefix: the address as written and the prefix length. */
    record Cidr(Ip ip, int prefix) {
        Ip masked() {
            BigInteger mask = BigInteger.ONE.shiftLeft(ip.bits()).subtract(BigInteger.ONE)
                    .shiftRight(prefix).not();
            return fromNumber(ip.number().and(mask), ip.bits());
        }

        boolean contains(Ip other) {
            if (other.bits() != ip.bits()) {
                return false;
            }
            int shift = ip.bits() - prefix;
            return other.number().shiftRight(shift).equals(ip.number().shiftRight(shift));
        }

        @Override
        public String toString() {
            return ip + "/" + prefix;
        }
    }

    @Override
    public List<CelFunctionDecl> declarations() {
        CelType s = SimpleType.STRING;
        CelType b = SimpleType.BOOL;
        return List.of(
                newFunctionDeclaration("ip", newGlobalOverload("string_to_ip", IP, s),
                        newMemberOverload("cidr_ip", IP, CIDR)),
                newFunctionDeclaration("isIP", newGlobalOverload("is_ip", b, s)),
                newFunctionDeclaration("ip.isCanonical", newGlobalOverload("ip_is_canonical", b, s)),
                newFunctionDeclaration("family", newMemberOverload("ip_family", SimpleType.INT, IP)),
                newFunctionDeclaration("isUnspecified", newMemberOverload("ip_is_unspecified", b, IP)),
                newFunctionDeclaration("isLoopback", newMemberOverload("ip_is_loopback", b, IP)),
                newFunctionDeclaration("isLinkLocalMulticast", newMemberOverload("ip_is_link_local_multicast", b, IP)),
                newFunctionDeclaration("isLinkLocalUnicast", newMemberOverload("ip_is_link_local_unicast", b, IP)),
                newFunctionDeclaration("isGlobalUnicast", newMemberOverload("ip_is_global_unicast", b, IP)),
                newFunctionDeclaration("cidr", newGlobalOverload("string_to_cidr", CIDR, s)),
                newFunctionDeclaration("isCIDR", newGlobalOverload("is_cidr", b, s)),
                newFunctionDeclaration("containsIP", newMemberOverload("cidr_contains_ip_ip", b, CIDR, IP),
                        newMemberOverload("cidr_contains_ip_string", b, CIDR, s)),
                newFunctionDeclaration("containsCIDR", newMemberOverload("cidr_contains_cidr", b, CIDR, CIDR),
                        newMemberOverload("cidr_contains_cidr_string", b, CIDR, s)),
                newFunctionDeclaration("masked", newMemberOverload("cidr_masked", CIDR, CIDR)),
                newFunctionDeclaration("prefixLength", newMemberOverload("cidr_prefix_length", SimpleType.INT, CIDR)),
                newFunctionDeclaration("string", newGlobalOverload("ip_to_string", s, IP),
                        newGlobalOverload("cidr_to_string", s, CIDR)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_ip", String.class, NetLibrary::ip),
                CelFunctionBinding.from("cidr_ip", Cidr.class, Cidr::ip),
                CelFunctionBinding.from("is_ip", String.class, t -> parses(() -> ip(t))),
                CelFunctionBinding.from("ip_is_canonical", String.class, t -> ip(t).toString().equals(t)),
                CelFunctionBinding.from("ip_family", Ip.class, ip -> ip.bits() == 32 ? 4L : 6L),
                CelFunctionBinding.from("ip_is_unspecified", Ip.class, ip -> ip.address().isAnyLocalAddress()),
                CelFunctionBinding.from("ip_is_loopback", Ip.class, ip -> ip.address().isLoopbackAddress()),
                CelFunctionBinding.from("ip_is_link_local_multicast", Ip.class, NetLibrary::linkLocalMulticast),
                CelFunctionBinding.from("ip_is_link_local_unicast", Ip.class, ip -> ip.address().isLinkLocalAddress()),
                CelFunctionBinding.from("ip_is_global_unicast", Ip.class, NetLibrary::globalUnicast),
                CelFunctionBinding.from("string_to_cidr", String.class, NetLibrary::cidr),
                CelFunctionBinding.from("is_cidr", String.class, t -> parses(() -> cidr(t))),
                CelFunctionBinding.from("cidr_contains_ip_ip", Cidr.class, Ip.class, Cidr::contains),
                CelFunctionBinding.from("cidr_contains_ip_string", Cidr.class, String.class,
                        (c, t) -> c.contains(ip(t))),
                CelFunctionBinding.from("cidr_contains_cidr", Cidr.class, Cidr.class, NetLibrary::containsCidr),
                CelFunctionBinding.from("cidr_contains_cidr_string", Cidr.class, String.class,
                        (c, t) -> containsCidr(c, cidr(t))),
                CelFunctionBinding.from("cidr_masked", Cidr.class, c -> new Cidr(c.masked(), c.prefix())),
                CelFunctionBinding.from("cidr_prefix_length", Cidr.class, c -> (long) c.prefix()),
                CelFunctionBinding.from("ip_to_string", Ip.class, Ip::toString),
                CelFunctionBinding.from("cidr_to_string", Cidr.class, Cidr::toString));
    }

    private interface Parse {
        Object run() throws CelEvaluationException;
    }

    private static boolean parses(Parse parse) {
        try {
            parse.run();
            return true;
        } catch (CelEvaluationException e) {
            return false;
        }
    }

    static Ip ip(String text) throws CelEvaluationException {
        if (text.contains("%")) {
            throw new CelEvaluationException("IP address with zone value is not allowed");
        }
        if (!text.contains(":") && text.matches(".*(^|\\.)0[0-9].*")) {
            throw new CelEvaluationException("IP Address \"" + text + "\" parse error during conversion from string: "
                    + "ParseAddr(\"" + text + "\"): IPv4 field has octet with leading zero");
        }
        InetAddress address;
        try {
            address = InetAddress.ofLiteral(text);
        } catch (IllegalArgumentException e) {
            throw new CelEvaluationException("IP Address \"" + text + "\" parse error during conversion from string: "
                    + "ParseAddr(\"" + text + "\"): unable to parse IP");
        }
        if (text.contains(":") && address instanceof Inet4Address) {
            throw new CelEvaluationException("IPv4-mapped IPv6 address \"" + text + "\" is not allowed");
        }
        return new Ip(address);
    }

    static Cidr cidr(String text) throws CelEvaluationException {
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new CelEvaluationException("network address parse error during conversion from string: "
                    + "netip.ParsePrefix(\"" + text + "\"): no '/'");
        }
        Ip ip = ip(text.substring(0, slash));
        int prefix;
        try {
            prefix = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            prefix = -1;
        }
        if (prefix < 0 || prefix > ip.bits()) {
            throw new CelEvaluationException("network address parse error during conversion from string: "
                    + "netip.ParsePrefix(\"" + text + "\"): bad bits after slash: \"" + text.substring(slash + 1) + "\"");
        }
        return new Cidr(ip, prefix);
    }

    private static boolean containsCidr(Cidr outer, Cidr inner) {
        return inner.prefix() >= outer.prefix() && outer.contains(inner.ip());
    }

    private static boolean linkLocalMulticast(Ip ip) {
        byte[] b = ip.address().getAddress();
        return ip.bits() == 32 ? (b[0] & 0xff) == 224 && b[1] == 0 && b[2] == 0
                : (b[0] & 0xff) == 0xff && (b[1] & 0x0f) == 0x02;
    }

    private static boolean globalUnicast(Ip ip) {
        InetAddress a = ip.address();
        byte[] b = a.getAddress();
        boolean broadcast = ip.bits() == 32 && (b[0] & b[1] & b[2] & b[3] & 0xff) == 0xff;
        return !a.isAnyLocalAddress() && !a.isLoopbackAddress() && !a.isLinkLocalAddress() && !a.isMulticastAddress()
                && !broadcast;
    }

    private static Ip fromNumber(BigInteger n, int bits) {
        byte[] raw = n.toByteArray();
        byte[] bytes = new byte[bits / 8];
        for (int i = 0; i < bytes.length && i < raw.length; i++) {
            bytes[bytes.length - 1 - i] = raw[raw.length - 1 - i];
        }
        try {
            return new Ip(InetAddress.getByAddress(bytes));
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** RFC 5952 text: IPv4 dotted, IPv6 lower case with the longest run of zero groups as {@code ::}. */
    static String canonical(InetAddress address) {
        IpFamily family = address instanceof Inet6Address ? IpFamily.IPV6 : IpFamily.IPV4;
        return new IpAddress(family, new BigInteger(1, address.getAddress())).toString();
    }
}
